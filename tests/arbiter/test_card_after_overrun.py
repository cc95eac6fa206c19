"""The page's card runs the game on to the moment shown: after a 15-second overrun the turn has
passed (the rule: the overrun forfeits the turn), even before the table's next record."""

from __future__ import annotations

from typing import Any

from companion.tamsk.arbiter import TamskMirror

HEADER = {"game": "tamsk", "level": 3}
RECORDS = [
    {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
    {"t": 4.0, "ev": "timer15", "player": "red"},
]


def card(mirror: TamskMirror, elapsed: float, online: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"alerts": []}
    mirror.card(out, elapsed=elapsed, online=online, board="")
    return out


def played() -> TamskMirror:
    mirror = TamskMirror(HEADER)
    for record in RECORDS:
        mirror.apply(record)
    return mirror


def test_before_the_15_seconds_are_up_black_is_on_turn_with_the_timer_running() -> None:
    shown = card(played(), elapsed=10.0)
    assert shown["turn"] == "black" and shown["timer15"]["running"]
    assert shown["timer15"]["against"] == "black"


def test_right_after_a_15_second_overrun_the_turn_has_passed_to_red() -> None:
    shown = card(played(), elapsed=16.0)
    assert shown["turn"] == "red"
    assert not shown["timer15"]["running"]
    assert any(a["text"] == "penalty forfeit: black" for a in shown["alerts"])


def test_the_mirror_itself_stays_at_the_last_record_so_the_next_record_applies() -> None:
    mirror = played()
    card(mirror, elapsed=16.0)
    assert mirror.game.t == 4.0
    mirror.apply({"t": 21.0, "ev": "release", "glass": "r2", "to": "b2"})
    assert mirror.game.t == 21.0


def test_an_offline_table_s_card_does_not_run_the_clock_on() -> None:
    shown = card(played(), elapsed=16.0, online=False)
    assert shown["turn"] == "black" and shown["t"] == 4.0
