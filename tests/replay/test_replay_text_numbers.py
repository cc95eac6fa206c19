"""Numbers in a replay's text lines and the arbiter's accounts in the reader's language: a
decimal comma in French and Czech (``180,0 s``, the table's note ``reprise après 80,9 s``),
while the notation file, a record other programs read, keeps the table's own text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import i18n
from companion.i18n import say
from companion.notation import note_text


@pytest.fixture(autouse=True)
def reset() -> Iterator[None]:
    yield
    i18n.reset()


@pytest.mark.parametrize(("lang", "said"), [("en", "resumed after 80.9 s"),
                                             ("fr", "reprise après 80,9 s"),
                                             ("cs", "pokračování po 80,9 s")])
def test_the_tables_note_after_a_power_cut_says_its_seconds_as_the_reader_writes_them(
        lang: str, said: str) -> None:
    i18n.use(lang)
    words = note_text("resumed after 80.9 s")
    assert "".join(say(w) for w in words) == f'"{said}"'
    assert str(words) == '"resumed after 80.9 s"'  # the notation keeps the table's text


def test_the_note_of_sand_confirmed_after_a_power_cut_keeps_its_digits() -> None:
    i18n.use("fr")
    words = note_text("sand confirmed after the power cut: it ran 12.25 s")
    assert "12,25 s" in "".join(say(w) for w in words)


@pytest.mark.parametrize(("lang", "sand", "timer"), [
    ("en", "  180.0 s", "2.5 s"), ("fr", "  180,0 s", "2,5 s"), ("cs", "  180,0 s", "2,5 s")])
def test_the_tamsk_replay_text_writes_sand_and_the_15_second_timer_with_the_decimal_mark(
        lang: str, sand: str, timer: str) -> None:
    from companion.tamsk.fold import fold
    from companion.tamsk.replay import text_lines

    i18n.use(lang)
    replay = fold({"game": "tamsk", "level": 3},
                  [(2, {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"})], [])
    state = dict(replay.frames[-1].state)
    state["timer15"] = {"running": True, "remaining": 2.5, "against": "black"}
    shown = "\n".join(text_lines(replay, state))
    assert sand in shown and timer in shown


@pytest.mark.parametrize(("lang", "clock"), [("en", "5:46.855"), ("fr", "5:46,855"),
                                              ("cs", "5:46,855")])
def test_the_dispute_clock_writes_milliseconds_with_the_decimal_mark(lang: str,
                                                                     clock: str) -> None:
    from companion.arbiter.dispute import clock as dispute_clock

    i18n.use(lang)
    assert dispute_clock(346.855) == clock
