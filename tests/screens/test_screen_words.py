"""A French or Czech player reads no English on any screen.

Every golden case (Tamsk, Tantrix, Tokami, the Discovery puzzle, the calibration, the menus) is
drawn again in French and in Czech, and every line the screens hand to
:func:`companion.screens.text.draw_text` is collected. A word only English has (``tile``,
``lift``, ``SOLVED``...) in one of those lines is a string that did not go through gettext.
Cell names (``c4``), glass names (``r1``), numbers and players' own names are not words of
either list, so they never trip it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from PIL import Image

from companion import i18n
from companion.screens import text as screen_text
from tests.screens.screen_cases import CASES

#: Words a French or Czech screen never shows: each is English only.
ENGLISH = frozenset(
    "tile tiles turn bag lift solved back ring rings sand glass glasses wins loop laid spot "
    "clash keep going restart calibrate when empty power cut ran choose next play over "
    "the is and of not first then".split()
)
#: English words that are also French words (``place``, ``score``) are looked for in Czech
#: only; ``to`` is Czech too.
ONLY_IN = {
    "fr": ENGLISH | {"to"},
    "cs": ENGLISH | {"place", "score", "scores"},
}

#: Cases that hand the generic screens their words as English literals (``menu_screen("Menu",
#: ...)``): those screens draw what their caller gives, and the callers that translate (the
#: Tamsk table's menu, refusal and prompt) are drawn by the table cases.
GIVEN_WORDS = frozenset(
    {"menu_main", "menu_scrolled", "colour_menu", "error_wrapped", "colour_error", "table_prompt"}
)
#: The golden cases drawn in English (the ``fr_``/``cs_`` ones are the same screens).
ENGLISH_CASES = sorted(
    name for name in CASES if not name.startswith(("fr_", "cs_")) and name not in GIVEN_WORDS
)


def drawn_lines(lang: str, draw: Callable[[], Image.Image],
                monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every line of text ``draw`` hands to ``draw_text`` with the screens speaking ``lang``."""
    lines: list[str] = []
    printable = screen_text.printable

    def recording(text: str) -> str:  # draw_text reduces each line it draws with printable
        lines.append(text)
        return printable(text)

    with monkeypatch.context() as patch:
        patch.setattr(screen_text, "printable", recording)
        i18n.use(lang)
        try:
            draw()
        finally:
            i18n.reset()
    return lines


def english_words(line: str, lang: str) -> Iterator[str]:
    for word in re.findall(r"[A-Za-z]+", line):
        if word.lower() in ONLY_IN[lang]:
            yield word


@pytest.mark.parametrize("lang", ["fr", "cs"])
@pytest.mark.parametrize("name", ENGLISH_CASES)
def test_no_english_word_is_drawn_in_french_or_czech(
    name: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = drawn_lines(lang, CASES[name], monkeypatch)
    assert lines, f"{name}: no text drawn"
    english = {line: list(english_words(line, lang)) for line in lines}
    assert {line: words for line, words in english.items() if words} == {}


def test_the_check_finds_an_english_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep itself: a screen that draws an untranslated line is caught."""
    from companion.puzzle.screens import puzzle_screen

    def untranslated() -> Image.Image:
        view = {"n": 4, "colour": "red", "tiles": [], "laid": [], "entry": {"mode": "tile"},
                "warning": "tile 3 was lifted"}
        return puzzle_screen(view)

    lines = drawn_lines("fr", untranslated, monkeypatch)
    assert any("tile" in english_words(line, "fr") for line in lines)


@pytest.mark.parametrize("lang", ["en", "fr", "cs"])
@pytest.mark.parametrize("situation", ["progress", "place", "menu", "lift", "solved"])
@pytest.mark.parametrize("size", [(128, 64), (128, 128)])
def test_the_puzzle_screen_speaks_the_players_language_and_cuts_no_title(
    lang: str, situation: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Discovery screen's title, menu, prompts and verdicts go through gettext, and the
    loop to make (or, while placing, the spot count) is shown whole in every language."""
    from companion.puzzle.screens import LOOPS, puzzle_screen
    from tests.tables.screen_views import puzzle_view

    view = puzzle_view(situation)
    lines = drawn_lines(lang, lambda: puzzle_screen(view, size=size, mode="1"), monkeypatch)
    entry = view["entry"]
    i18n.use(lang)
    try:
        if situation == "place":
            whole = i18n._("tile {tile}  {at}/{of}").format(
                tile=entry["tile"], at=entry["spot_index"] + 1, of=entry["spot_count"])
        else:
            whole = i18n._(LOOPS[view["colour"]])
        menu = [i18n._(item) for item in entry.get("lines") or []]
        solved = i18n._("SOLVED")
    finally:
        i18n.reset()
    assert whole in lines
    assert all(any(item in line for line in lines) for item in menu)
    assert (solved in lines) == (situation == "solved")


@pytest.mark.parametrize("lang", ["en", "fr", "cs"])
@pytest.mark.parametrize("size", [(128, 64), (128, 128)])
def test_the_tantrix_title_says_whose_turn_and_the_bag_keeps_its_word(
    lang: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long "whose turn" (Czech ``na tahu žlutá``) is not cut for the bag count, nor the
    count's word dropped: the bar says the player's name alone, in his colour, and ``bag 18``."""
    from companion.tantrix.screens import player_name, tantrix_screen
    from tests.tables.screen_views import tantrix_view

    view = tantrix_view("midgame")
    lines = drawn_lines(lang, lambda: tantrix_screen(view, size=size, mode="RGB"), monkeypatch)
    i18n.use(lang)
    try:
        name = player_name(view, str(view["turn"]))
        title = i18n._("{player}'s turn").format(player=name)
        bag = i18n._("bag {n}").format(n=view["bag"])
    finally:
        i18n.reset()
    assert title in lines or name in lines
    assert bag in lines
    assert not any(line.endswith("~") for line in lines)
