"""The Tokami keypad dialogue in the players' language: every question, choice and answer
typed so far, as the terminal and the OLED show them. English is the README's menu, unchanged.

Colours of the default box: 1 red, 2 yellow, 3 green, 4 blue."""

from __future__ import annotations

from typing import Any

from companion import i18n
from companion.tokami import Game, Setup
from companion.tokami.entry import KeypadEntry, Screen, menu_text


def typed(keys: str, **options: Any) -> Screen:
    entry = KeypadEntry(Game(Setup(("Anna", "Ben"), **options)))
    screen = entry.screen
    for key in keys:
        screen = entry.press(key).screen
    return screen


def test_the_first_question_and_its_choices_are_in_the_players_language() -> None:
    english = typed("")
    assert english.prompt == "Anna: what happened?"
    assert english.choices[:2] == ("1 higher + bonus", "2 higher, no bonus")
    i18n.use("fr")
    french = typed("")
    assert french.prompt == "Anna : que s'est-il passé ?"
    assert french.choices[0] == "1 plus haut + bonus" and french.choices[-1] == "D abandonner"
    i18n.use("cs")
    czech = typed("")
    assert czech.prompt == "Anna: co se stalo?"
    assert czech.choices[2] == "3 kostky spadly"


def test_the_colours_and_the_answers_typed_so_far_are_in_the_players_language() -> None:
    assert typed("34").entered == "blocks fell: blue"
    i18n.use("fr")
    screen = typed("34")
    assert screen.prompt == "Anna : couleurs des blocs tombés ?"
    assert screen.choices[0] == "1 rouge" and screen.entered == "blocs tombés: bleu"
    assert "# fini" in screen.choices and "* retour" in screen.choices
    i18n.use("cs")
    screen = typed("2")
    assert screen.prompt == "Anna: která kostka šla výš?"
    assert screen.choices[1] == "2 žlutá"


def test_the_end_of_the_game_is_said_in_the_players_language() -> None:
    """Anna: red higher, bonus blue; Ben: red not higher: the last round is over."""
    i18n.use("fr")
    screen = typed("112#41#", blocks={"red": 3, "blue": 3})
    assert screen.prompt == "Partie finie : Anna gagne" and screen.choices == ("A annuler",)
    i18n.use("cs")
    assert typed("112#41#", blocks={"red": 3, "blue": 3}).prompt == "Konec hry: vyhrává Anna"


def test_the_readme_menu_stays_english_whatever_the_language() -> None:
    english = menu_text()
    i18n.use("cs")
    assert menu_text() == english and "higher + bonus" in english
