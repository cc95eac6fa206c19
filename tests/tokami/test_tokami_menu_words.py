"""Tokami's keypad words: the README's menu is the screen's, and the confirm screen speaks the
players' language."""

from __future__ import annotations

from pathlib import Path

from companion import i18n
from companion.tokami import Game, Setup
from companion.tokami.entry import OUTCOME_LABELS, KeypadEntry, menu_text

README = Path(__file__).resolve().parents[2] / "README.md"


def entry() -> KeypadEntry:
    return KeypadEntry(Game(Setup(("Anna", "Ben"))))


def test_the_readme_prints_the_menu_the_keypad_shows() -> None:
    indented = "\n".join(("      " + line).rstrip() for line in menu_text().splitlines())
    assert indented in README.read_text(encoding="utf-8")


def test_the_outcome_screen_uses_the_menus_words() -> None:
    choices = entry().screen.choices
    for label in OUTCOME_LABELS.values():
        if label != "declined":  # offered only once a block is forbidden
            assert any(c.endswith(" " + label) for c in choices), (label, choices)
            assert label in menu_text()


def test_the_confirm_screen_describes_the_turn_in_french() -> None:
    i18n.use("fr")
    keypad = entry()
    for key in "113":  # higher + bonus, red moved, green taken
        step = keypad.press(key)
    assert step.screen.prompt == "Anna: rouge plus haut, bonus vert ?"


def test_the_undo_question_names_the_turn_in_czech() -> None:
    i18n.use("cs")
    keypad = entry()
    for key in "24#A":  # higher, blue, save; then undo
        step = keypad.press(key)
    assert "modrá" in step.screen.prompt and "higher" not in step.screen.prompt
