"""Invariants over random legal games (hypothesis draws the seed, the players and the moments).

A random game deals from a shuffled bag, keeps hands of 6, fills forced spaces from the hand,
plays one free move, fills again, and ends the turn (:mod:`companion.tantrix.autoplay`). Every
state it passes through is checked against the slow recounts of ``tantrix_brute``.
"""

from __future__ import annotations

import random

import tantrix_brute as brute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.scenario import NumberedEvent
from companion.tantrix.autoplay import random_game
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.simulate import simulate, state

COLOURS = ["red", "yellow", "green", "blue"]
players_st = st.integers(2, 4).flatmap(
    lambda n: st.permutations(COLOURS).map(lambda p: tuple(p[:n]))
)
seed_st = st.integers(0, 2**32 - 1)
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def board_of(game: Game) -> brute.Board:
    return {p.cell: (p.tile, p.rot) for p in game.placements}


def numbered(events: list[dict[str, object]]) -> list[NumberedEvent]:
    return [(i + 2, e) for i, e in enumerate(events)]


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.placements,
        game.forced_spaces(),
        game.controlled_cells(),
        game.frontier(),
        game.turn,
        game.free_move_used,
        game.scores(),
        game.bag,
        game.phase,
    )


@SETTINGS
@given(seed=seed_st, players=players_st)
def test_random_legal_games_fill_the_table_without_a_refused_move(
    seed: int, players: tuple[str, ...]
) -> None:
    rg = random_game(random.Random(seed), players)  # game.play raises on any refusal
    assert not rg.stuck
    assert rg.game.placed == 56 and rg.game.is_over and rg.game.bag == 0
    board = board_of(rg.game)
    assert brute.golden_ok(board)
    for colour, score in rg.game.scores().items():
        assert (score.line, score.loop) == brute.scores(board, colour)
    assert rg.game.forced_spaces() == brute.forced(board)


@SETTINGS
@given(seed=seed_st, players=players_st, stop=st.integers(1, 56))
def test_every_state_agrees_with_a_brute_force_recount(
    seed: int, players: tuple[str, ...], stop: int
) -> None:
    game = random_game(random.Random(seed), players, stop_after=stop).game
    board = board_of(game)
    assert game.forced_spaces() == brute.forced(board)
    want_controlled = brute.controlled(board) if game.bag > 0 else []
    assert game.controlled_cells() == want_controlled
    for colour in COLOURS:
        if colour in players:
            s = game.scores()[colour]
            assert (s.line, s.loop) == brute.scores(board, colour)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seed_st, players=players_st, stop=st.integers(1, 55), tile=st.integers(1, 56))
def test_legal_placements_are_exactly_the_placements_the_rules_accept(
    seed: int, players: tuple[str, ...], stop: int, tile: int
) -> None:
    game = random_game(random.Random(seed), players, stop_after=stop).game
    board = board_of(game)
    candidates = game.frontier() if game.placed else [(0, 0)]
    want = {
        Placement(tile, c[0], c[1], rot)
        for c in candidates
        for rot in range(6)
        if brute.refusal(board, tile, c, rot, players=len(players), free_used=game.free_move_used)
        is None
    }
    got = game.legal_placements(tile)
    assert set(got) == want
    forced = [game.is_forced_space(p.cell) for p in got]
    assert forced == sorted(forced, reverse=True), "forced spaces come first"
    for c in candidates:
        for rot in range(6):
            p = Placement(tile, c[0], c[1], rot)
            why = brute.refusal(
                board, tile, c, rot, players=len(players), free_used=game.free_move_used
            )
            try:
                game.check(p)
                assert why is None
            except IllegalPlacement as exc:
                assert exc.kind == why


@SETTINGS
@given(seed=seed_st, players=players_st, stop=st.integers(1, 56))
def test_replaying_the_events_gives_the_same_state(
    seed: int, players: tuple[str, ...], stop: int
) -> None:
    rg = random_game(random.Random(seed), players, stop_after=stop)
    out = simulate({"game": "tantrix", "players": list(players)}, numbered(rg.events))
    assert out["violations"] == []
    live = state(rg.game)
    assert {k: out[k] for k in live} == live


@SETTINGS
@given(seed=seed_st, players=players_st, stop=st.integers(1, 55), pick=st.randoms())
def test_undo_reverses_play(
    seed: int, players: tuple[str, ...], stop: int, pick: random.Random
) -> None:
    game = random_game(random.Random(seed), players, stop_after=stop).game
    before = snapshot(game)
    tiles = [t for t in range(1, 57) if game.where_is(t) is None]
    options = [p for t in pick.sample(tiles, min(6, len(tiles))) for p in game.legal_placements(t)]
    if not options:
        game.end_turn()
        before = snapshot(game)
        options = [p for t in tiles for p in game.legal_placements(t)]
    p = pick.choice(options)
    game.play(p)
    assert game.undo() == p
    assert snapshot(game) == before


@SETTINGS
@given(seed=seed_st, players=players_st, actions=st.lists(st.integers(0, 9), max_size=40))
def test_a_journal_with_undos_replays_to_the_live_state(
    seed: int, players: tuple[str, ...], actions: list[int]
) -> None:
    """Play, end turns and undo at random; the recorded events replay to the same game."""
    rng = random.Random(seed)
    game = Game(players)
    events: list[dict[str, object]] = []
    for a in actions:
        if a == 0:
            if game.placements:
                game.undo()
                events.append({"ev": "undo"})
        elif a == 1:
            game.end_turn()
            events.append({"ev": "done"})
        else:
            tiles = [t for t in range(1, 57) if game.where_is(t) is None]
            options = [
                p for t in rng.sample(tiles, min(6, len(tiles))) for p in game.legal_placements(t)
            ]
            if options:
                p = rng.choice(options)
                game.play(p)
                events.append(p.as_event())
    out = simulate({"game": "tantrix", "players": list(players)}, numbered(events))
    assert out["violations"] == []
    live = state(game)
    assert {k: out[k] for k in live} == live
