"""The Tantrix Strategy keypad dialogue in the players' language: its prompts and status, and
its slips, which the journal keeps in English and the screen says in the players' words."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.screens import layout
from companion.tantrix.screens import tantrix_screen
from companion.tantrix.words import refusal_in_words
from tests.tables.driving import Seat, seat

#: Keys that make the dialogue refuse (a slip, no rule broken), from a fresh game.
SLIPS = {
    "57#": "there is no tile 57: tiles are 1 to 56",
    "#": "type the number on the back of the tile, then #",
    "123": "tile numbers have two digits at most: 123 cleared, type the number again",
    "A": "type a tile number first (D: menu)",
    "D2": "nothing to undo",
    "D9": "1-4 or A/B and #: choose, *: back",
}


@contextmanager
def game_in(lang: str) -> Iterator[Seat]:
    i18n.use(lang)
    try:
        with tempfile.TemporaryDirectory() as folder:
            s = seat("tantrix", Path(folder))
            s.table.start_game(["red", "yellow"])
            try:
                yield s
            finally:
                s.table.close()
    finally:
        i18n.reset()


def said(view: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> str:
    """The words of the refusal box as drawn on a 128x64 panel, first page."""
    lines: list[str] = []
    original = layout.draw_text
    with monkeypatch.context() as m:
        m.setattr(layout, "draw_text", lambda d, x, y, text, fill: lines.append(text)
                  or original(d, x, y, text, fill))
        tantrix_screen(view, size=(128, 128), mode="RGB")
    return " ".join(lines)


def test_the_dialogue_prompts_in_the_players_language() -> None:
    with game_in("fr") as s:
        assert s.view["entry"]["prompt"] == "numéro de tuile ? puis #"
        s.press("1")
        assert s.view["entry"]["prompt"] == "numéro de tuile ? 1 puis #"
        status = s.table.entry.screen.status
        bag = s.view["bag"]
        assert status[0] == f"à rouge de jouer | sac {bag} " + i18n._("restricted")
        s.press("*D3")
        assert s.view["entry"]["prompt"] == "scores (une touche : retour)"
        assert s.view["entry"]["lines"][0] == "rouge : ligne 0, boucle 0, 0 points"


def test_the_dialogue_prompts_in_czech_too() -> None:
    with game_in("cs") as s:
        assert s.view["entry"]["prompt"] == "číslo destičky? pak #"
        s.press("D4")
        assert s.view["entry"]["prompt"] == "žádné vynucené pole (klávesa: zpět)"


@pytest.mark.parametrize("keys", sorted(SLIPS))
def test_a_slip_is_journaled_in_english_and_shown_in_the_players_words(
    keys: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with game_in("fr") as s:
        s.press(keys)
        english = SLIPS[keys]
        assert s.view["error"] == english
        assert s.records[-1]["text"] == f"keypad: {english}"  # the journal stays English
        french = refusal_in_words(english)
        assert french != english
        shown = said(s.view, monkeypatch)
        assert " ".join(french.split()[:3]) in shown
