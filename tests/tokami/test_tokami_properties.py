"""Invariants of the Tokami score keeper, over random games (legal and refused turns alike)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scenario import parse_lines
from companion.tokami import Game, IllegalTurn, Outcome, Played, Setup, Turn
from companion.tokami.simulate import simulate

COLOURS = ("red", "yellow", "green", "blue", "white")


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    players = tuple(f"P{i}" for i in range(draw(st.integers(2, 5))))
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
    blocks = {c: draw(st.integers(1, 9)) for c in colours}
    if sum(blocks.values()) <= 4:
        blocks[colours[0]] += 5
    worthless = "red" if "red" in blocks and draw(st.booleans()) else None
    return Setup(players, blocks, rounds=draw(st.integers(1, 3)), worthless=worthless)


def turns(colours: tuple[str, ...]) -> st.SearchStrategy[Turn]:
    """Any turn over ``colours`` (legal or not)."""
    colour = st.sampled_from(colours)
    return st.one_of(
        st.builds(Turn.moved, colour, st.none() | colour),
        st.builds(Turn.fell, st.lists(colour, min_size=0, max_size=4), st.none() | colour),
        st.builds(Turn.not_higher, colour),
        st.just(Turn.declined()),
    )


Action = Turn | str  # a turn, or "undo"


@st.composite
def games(draw: st.DrawFn) -> tuple[Setup, list[Action]]:
    """A setup and a run of actions, drawn mostly from the blocks still on the cross so games get
    deep (whole rounds), with refused turns and undos mixed in."""
    setup = draw(setups())
    game = Game(setup)
    actions: list[Action] = []

    def colour() -> str:
        left = [c for c, n in game.on_cross.items() if n > 0]
        stray = not left or draw(st.integers(0, 9)) == 0  # one colour in ten: gone or unknown
        pool = [*setup.colours, "purple"] if stray else left
        return pool[draw(st.integers(0, len(pool) - 1))]

    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.integers(0, 9))
        action: Action
        if kind <= 2:
            action = Turn.moved(colour(), colour() if kind else None)
        elif kind <= 4:
            fallen = [colour() for _ in range(draw(st.integers(0 if kind == 3 else 1, 3)))]
            action = Turn.fell(fallen, colour() if draw(st.booleans()) else None)
        elif kind <= 6:
            action = Turn.not_higher(colour())
        elif kind <= 8:
            action = Turn.declined()
        else:
            action = "undo"
        actions.append(action)
        try:
            game.undo() if action == "undo" else game.play(action)  # type: ignore[arg-type]
        except IllegalTurn:
            pass
    return setup, actions


def play_out(setup: Setup, actions: list[Action]) -> tuple[Game, list[dict[str, Any]]]:
    """Play the actions, skipping refused ones; return the game and its journal events."""
    game = Game(setup)
    journal: list[dict[str, Any]] = []
    for action in actions:
        try:
            if action == "undo":
                game.undo()
                journal.append({"ev": "undo"})
            else:
                assert isinstance(action, Turn)
                player = game.turn
                game.play(action)
                journal.append({**action.to_event(), "player": player})
        except IllegalTurn:
            pass
    return game, journal


def expected_round_scores(setup: Setup, history: list[Played]) -> dict[tuple[str, int], int]:
    """Scores worked out from the turns alone, the way a player counts at the end of a round:
    every bonus (red 0) plus -1 for each malus not followed by a bonus of its colour."""
    taken: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
    for played in history:
        turn, pile = played.turn, taken[(played.player, played.round)]
        if turn.bonus is not None:
            pile.append(("bonus", turn.bonus))
        elif turn.outcome is Outcome.FELL:
            in_hand = [turn.in_hand] if turn.in_hand else []
            pile += [("malus", c) for c in (*turn.fallen, *in_hand)]
        elif turn.outcome is Outcome.NOT_HIGHER:
            assert turn.block is not None
            pile.append(("malus", turn.block))
        elif turn.outcome is Outcome.DECLINED:
            assert played.forbidden is not None
            pile.append(("malus", played.forbidden))
    scores: dict[tuple[str, int], int] = {}
    for key, pile in taken.items():
        score = 0
        for i, (kind, colour) in enumerate(pile):
            if kind == "bonus":
                score += setup.worth(colour)
            elif ("bonus", colour) not in pile[i + 1 :]:
                score -= 1
        scores[key] = score
    return scores


@settings(max_examples=200, deadline=None)
@given(games())
def test_scores_always_equal_bonuses_minus_undiscarded_malus(
    game_and_actions: tuple[Setup, list[Action]],
) -> None:
    setup, actions = game_and_actions
    game, _ = play_out(setup, actions)
    expected = expected_round_scores(setup, game.history)
    for player in setup.players:
        rounds = game.round_scores(player)
        assert len(rounds) == game.round
        assert rounds == [expected.get((player, r), 0) for r in range(1, game.round + 1)]
        assert game.score(player) == sum(rounds)
        hand = game.hand(player)
        held = sum(n * setup.worth(c) for c, n in hand.bonus.items()) - sum(hand.malus.values())
        assert rounds[-1] == held


@settings(max_examples=200, deadline=None)
@given(games())
def test_every_block_is_on_the_cross_in_a_hand_or_in_the_box(
    game_and_actions: tuple[Setup, list[Action]],
) -> None:
    setup, actions = game_and_actions
    game = Game(setup)
    for action in actions:
        try:
            game.undo() if action == "undo" else game.play(action)  # type: ignore[arg-type]
        except IllegalTurn:
            pass
        hands = [game.hand(p) for p in setup.players]
        for colour, total in setup.blocks.items():
            accounted = game.on_cross[colour] + sum(
                h.bonus[colour] + h.malus[colour] + h.discarded[colour] for h in hands
            )
            assert accounted == total
            assert game.on_cross[colour] >= 0
        assert game.blocks_left == sum(game.on_cross.values())
        if not game.is_over():  # a round at four blocks or fewer is over at once
            assert game.blocks_left > setup.round_ends_at


@settings(max_examples=150, deadline=None)
@given(games())
def test_replaying_the_journal_gives_the_same_game(
    game_and_actions: tuple[Setup, list[Action]],
) -> None:
    setup, actions = game_and_actions
    game, journal = play_out(setup, actions)
    lines = [json.dumps(setup.to_header()), *(json.dumps(e) for e in journal)]
    first = simulate(*_parsed(lines))
    second = simulate(*_parsed(lines))
    assert first == second
    assert first["violations"] == []
    assert {k: first[k] for k in game.as_dict()} == game.as_dict()


def _parsed(lines: list[str]) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
    scenario = parse_lines(lines)
    return scenario.header, list(scenario.events)


@settings(max_examples=200, deadline=None)
@given(games(), st.data())
def test_undo_reverses_a_turn_and_a_refused_turn_changes_nothing(
    game_and_actions: tuple[Setup, list[Action]], data: st.DataObject
) -> None:
    setup, actions = game_and_actions
    game, _ = play_out(setup, actions)
    turn = data.draw(turns(setup.colours))
    before = game.as_dict()
    history = list(game.history)
    try:
        game.play(turn)
    except IllegalTurn:
        assert game.as_dict() == before
        return
    game.undo()
    assert game.as_dict() == before
    assert game.history == history
