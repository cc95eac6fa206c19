"""A refused key's reason, and a warning, are shown whole, a page at a time: never cut.

One page clock (:mod:`companion.pages`) serves every table: the table counts the pages up
while the message shows, the screen shows page ``n % pages``. These read what the screens
draw (every line of text goes through :func:`companion.screens.layout.draw_text`), so a word
cut off or hidden shows as a word missing.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from companion import i18n
from companion.pages import PAGE_S, lasting
from companion.puzzle.screens import puzzle_screen
from companion.screens import layout
from companion.tamsk.screens import screen as tamsk_screen
from companion.tamsk.words import penalty_notice
from companion.tantrix.screens import tantrix_screen
from companion.tokami.screens import tokami_screen
from tests.screens.screen_cases import countdown_view
from tests.tables.driving import Seat, seat
from tests.tables.screen_views import puzzle_seat

SIZES = {"oled": ((128, 64), "1"), "tall": ((128, 128), "RGB")}
LANGUAGES = ("en", "fr", "cs")
Screen = Callable[..., Image.Image]
SCREENS: dict[str, Screen] = {
    "tantrix": tantrix_screen, "tokami": tokami_screen, "puzzle": puzzle_screen,
}


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    i18n.use(lang)
    try:
        yield
    finally:
        i18n.reset()


@contextmanager
def refused(game: str) -> Iterator[Seat]:
    """A table of ``game`` that has just refused a key (a real refusal: the page clock runs)."""
    with tempfile.TemporaryDirectory() as folder:
        if game == "puzzle":
            s = puzzle_seat(Path(folder))
            s.table.start_game(4)
            s.press("7#")
        elif game == "tantrix":
            s = seat("tantrix", Path(folder))
            s.table.start_game(["red", "yellow"])
            s.press("57#")
        else:
            s = seat("tokami", Path(folder))
            s.table.start_game(["Anna", "Ben", "Chloé"], blocks={"red": 1, "yellow": 4, "blue": 4})
            s.press("21#")  # Anna: the only red block went higher, forbidden to Ben
            s.press("21")  # Ben moves it
        assert s.view.get("error"), "the key was not refused"
        try:
            yield s
        finally:
            s.table.close()


def long_reason(lang: str) -> str:
    """Tokami's longest refusal in ``lang``: two screens and more on a 128x64 panel."""
    with refused("tokami") as s:
        reason = str(s.view["error"])
    assert len(reason) > 100
    return reason


def drawn_text(
    draw_screen: Callable[[], Image.Image], monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """Every line of text the screen drew through the shared layout."""
    lines: list[str] = []
    left, right = layout.draw_text, layout.draw_text_right

    def recording(draw: Any, x: int, y: int, text: str, fill: Any) -> None:
        lines.append(text)
        left(draw, x, y, text, fill)

    def recording_right(draw: Any, x: int, y: int, text: str, fill: Any) -> None:
        lines.append(text)
        right(draw, x, y, text, fill)

    with monkeypatch.context() as m:
        m.setattr(layout, "draw_text", recording)
        m.setattr(layout, "draw_text_right", recording_right)
        draw_screen()
    return lines


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def all_shown(text: str, pages: list[list[str]]) -> bool:
    """Whether every word of ``text`` is drawn whole, in order, over the pages (titles and
    page numbers may come between)."""
    shown = iter(w for page in pages for line in page for w in words(line))
    return all(word in shown for word in words(text))


def read_round(
    view: dict[str, Any], key: str, draw: Callable[[dict[str, Any]], Image.Image],
    monkeypatch: pytest.MonkeyPatch,
) -> list[list[str]]:
    """What each page shows, from page 0 until the pages come round again."""
    pages: list[list[str]] = []
    for page in range(12):
        lines = drawn_text(lambda p=page: draw({**view, key: p}), monkeypatch)
        if pages and lines == pages[0]:
            return pages
        pages.append(lines)
    raise AssertionError("the pages never came round again")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(SCREENS))
def test_a_refusal_too_long_for_the_screen_is_shown_whole_a_page_at_a_time(
    game: str, size: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with speaking(lang):
        reason = long_reason(lang)
        with refused(game) as s:
            view = {**s.view, "error": reason}
        panel, mode = SIZES[size]
        pages = read_round(view, "error_page",
                           lambda v: SCREENS[game](v, size=panel, mode=mode), monkeypatch)
    assert all_shown(reason, pages)
    of_reason = [line for page in pages for line in page if set(words(line)) <= set(words(reason))]
    assert not any(line.endswith("~") for line in of_reason)
    if size == "oled":
        assert len(pages) >= 2
        assert f"1/{len(pages)}" in pages[0] and f"2/{len(pages)}" in pages[1]


@pytest.mark.parametrize("game", sorted(SCREENS))
def test_a_keypad_table_turns_the_refusal_pages_until_the_next_key(game: str) -> None:
    with refused(game) as s:
        assert s.view["error_page"] == 0
        assert s.table.next_wakeup() == pytest.approx(s.clock.now() + PAGE_S - 0.0, abs=1.0)
        s.table.changed = False
        s.clock.advance(PAGE_S)
        s.table.poll()
        assert s.table.changed  # the screen is redrawn with the next page
        assert s.view["error_page"] == 1 and s.view["error"]
        s.clock.advance(60.0)
        s.table.poll()
        assert s.view["error"] and s.view["error_page"] >= 20  # it stays, going round
        s.press("*")
        assert not s.view.get("error")


def penalty_view(lang: str) -> dict[str, Any]:
    """The 15-second countdown running, and the news that Ben's time is up."""
    view = countdown_view()
    view["names"] = {"red": "Ada", "black": "Ben"}
    view["warning"] = penalty_notice("forfeit", "Ben")
    return view


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_tamsk_warning_is_shown_whole_in_its_bar_a_line_at_a_time(
    size: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel, mode = SIZES[size]
    with speaking(lang):
        view = penalty_view(lang)
        pages = read_round(view, "warning_page",
                           lambda v: tamsk_screen(v, size=panel, mode=mode), monkeypatch)
        images = [tamsk_screen({**view, "warning_page": p}, size=panel, mode=mode)
                  for p in range(len(pages))]
    notice = str(view["warning"])
    assert all_shown(notice, pages)
    assert not any(line.endswith("~") for page in pages for line in page)
    assert len(pages) >= 2
    for image in images[1:]:  # only the bar changes: the glasses and the countdown stay
        changed = ImageChops.difference(images[0].convert("RGB"), image.convert("RGB")).getbbox()
        assert changed is None or changed[1] >= panel[1] - layout.BAR


def test_a_long_warning_stays_until_each_of_its_lines_has_shown() -> None:
    with speaking("cs"):
        notice = penalty_notice("forfeit", "Ben")
    lines = layout.warning_lines(notice, 128)
    assert len(lines) > 2
    assert lasting(notice, 6.0) >= len(lines) * PAGE_S
    assert lasting("hub link lost", 5.0) == 5.0


def test_a_keypad_table_keeps_a_long_notice_until_its_last_line_has_shown() -> None:
    notice = "the sensor hub's link went down: check its cable and the USB port"
    with tempfile.TemporaryDirectory() as folder:
        s = seat("tokami", Path(folder))
        s.table.start_game(["Anna", "Ben"])
        s.table.notice(notice, 3.0)
        pages = len(layout.warning_lines(notice, 128))
        seen = set()
        for _ in range(pages):
            seen.add(s.view["warning_page"])
            s.clock.advance(PAGE_S)
            s.table.poll()
        assert seen == set(range(pages))
        assert s.view.get("warning") is None  # then it goes
        s.table.close()
