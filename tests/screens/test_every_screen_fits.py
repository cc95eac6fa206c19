"""Every screen of every game, in English, French and Czech, shows whole what a player needs.

The screens are the ones players really meet (``every_screen.py``: tables played key by key,
the Tamsk views and menus), each drawn on the one-bit 128x64 panel and the 128x128 colour one;
:func:`tests.screens.fitting.defects` reads each frame: no line cut (a player's name in a row
of standings excepted), none off the picture or over another, every key offered on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from companion import i18n
from tests.screens import every_screen
from tests.screens.every_screen import PANELS, Shown
from tests.screens.fitting import Frame, defects, drawn, players_of

FAMILIES: dict[str, Callable[[], Iterator[Shown]]] = {
    "tokami": every_screen.tokami_screens,
    "tantrix": every_screen.tantrix_screens,
    "discovery": every_screen.puzzle_screens,
    "tamsk": every_screen.tamsk_screens,
}


#: The most pages of choices a screen may take (the table turns one every 3 s).
MOST_PAGES = 4


def pages(shown: Shown, size: tuple[int, int], mode: str) -> list[Frame]:
    """The frames of every page of choices ``shown`` takes on a panel (the table counts
    ``prompt_page`` up from the last key; the screen goes round its pages), the first again
    ending the list."""
    frames: list[Frame] = []
    for page in range(MOST_PAGES + 1):
        view = {**shown.view, "prompt_page": page}
        frame = drawn(lambda: shown.draw(view, size=size, mode=mode))  # noqa: B023
        if frames and frame.texts() == frames[0].texts():
            return frames
        frames.append(frame)
    return frames


def unreadable(shown: Shown) -> list[str]:
    """The defects of ``shown`` on both panels, each named with where it was met: each page
    of choices is read for cut lines, and all of them together for the keys offered."""
    found = []
    # A refusal takes the question's place until the next key (any key clears it).
    entry = shown.view.get("entry")
    choices = [] if shown.view.get("error") or not isinstance(entry, dict) else (
        entry.get("choices") or [])
    names = players_of(shown.view)
    for size, mode in PANELS:
        frames = pages(shown, size, mode)
        where = f"{size[0]}x{size[1]} {shown.where}"
        if len(frames) > MOST_PAGES:
            found.append(f"{where}: more than {MOST_PAGES} pages of choices")
        every_page = Frame([line for frame in frames for line in frame.lines])
        found += [f"{where}: {defect}" for defect in defects(every_page, choices=choices)
                  if defect.startswith("choice")]
        for page, frame in enumerate(frames):
            found += [f"{where} (page {page + 1}): {defect}" for defect in defects(
                frame, names=names) if not defect.startswith("choice")]
    return found


@pytest.mark.parametrize("lang", ["en", "fr", "cs"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_screen_shows_its_question_and_choices_whole(family: str, lang: str) -> None:
    i18n.use(lang)
    try:
        found = [defect for shown in FAMILIES[family]() for defect in unreadable(shown)]
    finally:
        i18n.reset()
    assert found == [], f"{len(found)} defects, the first: " + "\n".join(found[:25])
