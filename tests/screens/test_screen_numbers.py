"""Numbers on the screens and the replay pictures in the players' language: a decimal comma
in French and Czech (``9,4``, ``3:43,2``, ``-5,8 %``), a point in English."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image

from companion import i18n
from companion.tamsk.calibration_screen import calibration_warning
from companion.tamsk.screens import table_screen
from tests.screens.fitting import drawn
from tests.screens.screen_cases import OLED, midgame_view, time_tiebreak_view


def texts_in(lang: str, draw: Callable[[], Image.Image]) -> list[str]:
    i18n.use(lang)
    try:
        return drawn(draw).texts()
    finally:
        i18n.reset()


@pytest.mark.parametrize(("lang", "mark"), [("en", "8.4"), ("fr", "8,4"), ("cs", "8,4")])
def test_a_glass_nearly_out_shows_its_tenths_with_the_languages_decimal_mark(
    lang: str, mark: str
) -> None:
    assert mark in texts_in(lang, lambda: table_screen(midgame_view(), **OLED))


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "r1 -5.8% (169.6 s)"), ("fr", "r1 -5,8 % (169,6 s)"), ("cs", "r1 -5,8 % (169,6 s)")])
def test_the_calibration_warning_writes_its_numbers_as_the_language_does(
    lang: str, words: str
) -> None:
    i18n.use(lang)
    try:
        assert calibration_warning({"r1": [169.6, 169.6]}) == words
    finally:
        i18n.reset()


def test_the_time_tie_break_lists_run_out_times_with_a_decimal_comma_in_french() -> None:
    from companion.tamsk.result_screen import result_screen

    texts = texts_in("fr", lambda: result_screen(time_tiebreak_view(), **OLED))
    assert any(text.startswith("r2 212,04 s") for text in texts)
    assert not any("212.04" in text for text in texts)


def test_the_replay_panel_clock_has_a_decimal_comma_and_the_notation_keeps_its_point() -> None:
    from companion.notation import format_time
    from companion.replay.panel import clock

    i18n.use("cs")
    try:
        assert clock(223.27) == "3:43,2"
        assert format_time(223.27, exact=False) == "3:43.2"  # a record other programs read
    finally:
        i18n.reset()



@pytest.mark.parametrize(("lang", "mark"), [("en", "."), ("fr", ","), ("cs", ",")])
def test_the_arbiter_pages_tamsk_card_writes_seconds_with_the_arbiters_decimal_mark(
    lang: str, mark: str
) -> None:
    """The card counts the sand down in the browser: the mark comes from the server's CLDR."""
    from companion.tamsk.arbiter import page_script

    i18n.use(lang)
    try:
        script = page_script()
    finally:
        i18n.reset()
    assert f'"decimal": "{mark}"' in script.replace('"decimal":"', '"decimal": "')
    assert "toFixed(1)" not in script.replace('v.toFixed(1).replace(".", TAMSK_WORDS.decimal)', "")
