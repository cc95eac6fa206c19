"""Invariants of the Tamsk fold, over random legal and illegal event sequences."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from companion.tamsk.board import CAPACITY, TOTAL_RINGS
from companion.tamsk.game import Game, Rules
from tests.tamsk.strategies import event_sequences, legal_games, rules

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game: Game, dead_at: dict[str, str | None]) -> None:
    assert sum(game.rings_left.values()) + sum(game.rings_on.values()) + game.rings_unplaced == (
        TOTAL_RINGS
    )
    assert all(0 <= n <= CAPACITY[s] for s, n in game.rings_on.items())
    for name, glass in game.glasses.items():
        sand = glass.sand_at(game.t)
        assert 0.0 <= sand <= glass.period + 1e-9
        if name in dead_at:
            assert glass.dead, f"{name} came back to life"
            assert glass.space == dead_at[name], f"dead glass {name} moved"
        elif glass.dead:
            dead_at[name] = glass.space
    spaces = [g.space for g in game.glasses.values() if g.space is not None]
    assert len(spaces) == len(set(spaces)), "two glasses on one space"


@SETTINGS
@given(rules, event_sequences())
def test_rings_conserved_capacity_sand_and_dead_glasses(r: Rules, events: list) -> None:
    game = Game(r)
    dead_at: dict[str, str | None] = {}
    for e in events:
        game.apply(e)
        check_invariants(game, dead_at)
    game.advance(game.t + 400.0)
    check_invariants(game, dead_at)


@SETTINGS
@given(rules, event_sequences())
def test_a_refused_input_changes_nothing_but_a_turned_glass(r: Rules, events: list) -> None:
    game = Game(r)
    for e in events:
        game.advance(e.t) if e.kind != "end" else None
        before = game.snapshot()
        v = game.apply(e)
        if v is None:
            continue
        after = game.snapshot()
        for key in ("rings_left", "spaces", "turn", "penalties", "over", "timer15"):
            assert before[key] == after[key], key
        for name, g in before["glasses"].items():
            assert g["space"] == after["glasses"][name]["space"]
            if e.glass != name:
                assert g == after["glasses"][name]


@SETTINGS
@given(rules, event_sequences())
def test_replaying_the_same_events_gives_the_same_state(r: Rules, events: list) -> None:
    one, two = Game(r), Game(r)
    one.apply_all(events)
    two.apply_all(events)
    assert one.snapshot() == two.snapshot()


@SETTINGS
@given(legal_games())
def test_legal_moves_are_never_refused(game_and_events: tuple) -> None:
    r, events = game_and_events
    game = Game(r)
    assert game.apply_all(events) == []
    dead_at: dict[str, str | None] = {}
    check_invariants(game, dead_at)
