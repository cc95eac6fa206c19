"""The Tamsk arbiter's keypad menu on the table's screen in the table's language; what it
journals (the corrections' reasons, the notes) stays English whatever the language."""

from __future__ import annotations

from companion import i18n
from companion.tamsk.arbiter_menu import ArbiterMenu, Correct
from tests.arbiter.test_pin import entered, lock, press


def test_the_menu_is_shown_in_french_and_czech() -> None:
    assert entered().screen()[0] == "ARBITER  * leaves"
    i18n.use("fr")
    assert entered().screen() == ["ARBITRE  * quitte", "1 sable  2 case", "3/4 anneau +/-",
                                  "5 annuler  8 résultat", "6/7 pénalité +/-",
                                  "9 manche A tour B opt", "PIN de l'arbitre accepté"]
    i18n.use("cs")
    assert entered().screen()[0] == "ROZHODČÍ * odejít"


def test_an_item_its_question_and_the_reasons_are_in_the_tables_language() -> None:
    i18n.use("cs")
    menu = entered()
    press(menu, "1")
    assert menu.screen()[:2] == ["ROZHODČÍ písek v hodinách", "hodiny 1-6: r1 r2 r3 b1 b2 b3"]
    press(menu, "4" + "62C5#")
    assert menu.screen()[1:] == ["důvod 1 přehlédnuto 2 duch", "3 hráči 4 rozhodnutí 5 spor"]
    press(menu, "1")
    assert menu.screen()[1] == "senzor přehlédl vstup"


def test_what_the_menu_journals_stays_english() -> None:
    i18n.use("fr")
    menu = entered()
    actions = press(menu, "1" + "4" + "62C5#" + "1" + "#")
    assert actions == [Correct({"what": "sand", "glass": "b1", "sand": 62.5,
                                "reason": "a sensor missed an input"})]
    assert menu.screen()[-1] == "sable d'un sablier : envoyé"
    assert menu.message == "sand of a glass: sent"


def test_a_space_that_does_not_exist_is_refused_in_the_tables_language() -> None:
    i18n.use("fr")
    menu = entered()
    press(menu, "2" + "1" + "19#")
    assert "pas de case a9" in menu.screen()


def test_the_pin_prompt_is_in_the_tables_language() -> None:
    i18n.use("fr")
    menu = ArbiterMenu(lock())
    press(menu, "***")
    assert menu.screen()[:2] == ["ARBITRE", "PIN : "]
    press(menu, "1111#")
    assert menu.screen()[2] == "PIN erroné (encore 2 essai(s) avant le blocage)"
    assert menu.message == "wrong PIN (2 more attempt(s) before a lock-out)"
