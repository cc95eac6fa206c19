"""Tantrix Strategy with hands and the team game, one test per rule of the rule book ("Piochez
maintenant vos tuiles", "Qui commence ?", "Toujours avoir 6 tuiles devant soi !", the three steps
of a turn), plus invariants over random games whose solver obeys the obligation."""

from __future__ import annotations

import random

import pytest
import tantrix_brute as brute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.scenario import NumberedEvent
from companion.tantrix.autoplay import random_hands_game
from companion.tantrix.game import Game, IllegalPlacement, Placement
from companion.tantrix.hands import (
    CAN_FILL,
    DRAW_FIRST,
    FORCED_FIRST,
    HAND_FULL,
    NOT_IN_BAG,
    NOT_IN_HAND,
    STARTER,
    HandsGame,
)
from companion.tantrix.simulate import apply_event, simulate

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEAM = ("red", "yellow", "red", "yellow")


def numbered(events: list[dict[str, object]]) -> list[NumberedEvent]:
    return [(i + 2, e) for i, e in enumerate(events)]


def dealt() -> HandsGame:
    """Yellow opens (40 beats 12), both hold six."""
    g = HandsGame(["red", "yellow"])
    g.start_draw({"red": 12, "yellow": 40})
    for t in range(1, 7):
        g.draw("yellow", t)
    for t in range(7, 13):
        g.draw("red", t)
    return g


def refusal(call: object) -> str:
    with pytest.raises(IllegalPlacement) as exc:
        call()  # type: ignore[operator]
    return exc.value.kind


def brute_fills(g: HandsGame) -> list[list[int]]:
    """Every [tile, q, r] of the hand on turn that the brute-force rules accept on a forced
    space (the bag count as the formula, which agrees while every hand is full)."""
    board = {p.cell: (p.tile, p.rot) for p in g.placements}
    out = []
    for tile in g.hand(g.seat):
        for c in brute.forced(board):
            if any(
                brute.refusal(board, tile, c, rot, players=len(g.players), free_used=False)
                is None
                for rot in range(6)
            ):
                out.append([tile, c[0], c[1]])
    return sorted(out)


# ---------------------------------------------------------------------------- who starts


def test_the_highest_start_draw_opens() -> None:
    g = HandsGame(["red", "yellow", "green"])
    g.start_draw({"red": 3, "yellow": 50, "green": 20})
    assert g.turn == "yellow" and g.bag == 56


def test_play_goes_on_in_seat_order_from_the_starter() -> None:
    g = HandsGame(["red", "yellow", "green"])
    g.start_draw({"red": 3, "yellow": 50, "green": 20})
    for t in range(1, 7):
        g.draw("yellow", t)
    g.play(Placement(1, 0, 0, 0))
    g.draw("yellow", 7)
    g.end_turn()
    assert g.turn == "green"


def test_the_start_draw_comes_before_the_first_draw() -> None:
    g = HandsGame(["red", "yellow"])
    g.draw("red", 5)
    assert refusal(lambda: g.start_draw({"red": 1, "yellow": 2})) == STARTER


def test_the_start_draw_needs_one_tile_per_player_and_distinct_tiles() -> None:
    g = HandsGame(["red", "yellow"])
    assert refusal(lambda: g.start_draw({"red": 1})) == STARTER
    assert refusal(lambda: g.start_draw({"red": 4, "yellow": 4})) == STARTER


# ---------------------------------------------------------------------------- the bag and hands


def test_the_bag_is_every_tile_neither_placed_nor_held() -> None:
    g = dealt()
    assert g.bag == 44
    g.play(Placement(1, 0, 0, 0))
    assert g.bag == 44 and g.needs_draw(g.seat)
    g.draw("yellow", 13)
    assert g.bag == 43


def test_drawing_a_placed_or_held_tile_is_refused() -> None:
    g = dealt()
    g.play(Placement(1, 0, 0, 0))
    assert refusal(lambda: g.draw("yellow", 1)) == NOT_IN_BAG
    assert refusal(lambda: g.draw("yellow", 9)) == NOT_IN_BAG


def test_a_seventh_tile_is_refused() -> None:
    g = dealt()
    assert refusal(lambda: g.draw("red", 30)) == HAND_FULL


def test_a_placement_uses_a_tile_from_the_players_hand() -> None:
    g = dealt()
    assert refusal(lambda: g.play(Placement(9, 0, 0, 0))) == NOT_IN_HAND
    assert g.legal_placements(9) == []


def test_draw_first_after_every_placement() -> None:
    g = dealt()
    g.play(Placement(1, 0, 0, 0))
    g.end_turn()
    g.end_turn()  # back to yellow, who has not drawn his replacement
    assert refusal(lambda: g.play(Placement(2, 1, 0, 0))) == DRAW_FIRST


def test_undo_returns_the_tile_and_the_replacement() -> None:
    g = dealt()
    g.play(Placement(1, 0, 0, 0))
    g.draw("yellow", 13)
    g.undo()
    assert g.hand(1) == [1, 2, 3, 4, 5, 6] and g.bag == 44 and g.placed == 0


# ---------------------------------------------------------------------------- the obligation


def _state_with_a_fill(step3: bool) -> tuple[HandsGame, list[dict[str, object]]]:
    """Replay random obeying games until the player on turn can fill a forced space at the
    start of his turn (step 1) or just after his free move (step 3)."""
    for seed in range(300):
        rg = random_hands_game(random.Random(seed), ("red", "yellow"))
        g = HandsGame(["red", "yellow"])
        for i, e in enumerate(rg.events):
            if (
                g.must_fill()
                and not g.needs_draw(g.seat)
                and g.free_move_used == step3
                and (step3 or rg.events[i - 1].get("ev") == "done")
            ):
                return g, rg.events[:i]
            apply_event(g, e)
    raise AssertionError("no such state in 300 games")


def test_step_1_a_free_move_is_refused_while_a_forced_space_can_be_filled() -> None:
    g, _ = _state_with_a_fill(step3=False)
    free = [
        p for t in g.hand(g.seat) for p in Game.legal_placements(g, t)
        if not g.is_forced_space(p.cell)
    ]
    assert free, "the free move would be legal but for the obligation"
    assert refusal(lambda: g.play(free[0])) == FORCED_FIRST
    assert all(g.is_forced_space(p.cell) for t in g.hand(g.seat) for p in g.legal_placements(t))


def test_step_3_ending_the_turn_is_refused_while_a_forced_space_can_be_filled() -> None:
    g, _ = _state_with_a_fill(step3=True)
    assert refusal(g.end_turn) == CAN_FILL


def test_any_forced_space_and_any_fitting_tile_will_do() -> None:
    g, _ = _state_with_a_fill(step3=False)
    fill = g.must_fill()[-1]
    rots = [p for p in g.legal_placements(fill.tile) if p.cell == (fill.q, fill.r)]
    g.play(rots[0])
    assert g.free_move_used is False


def test_must_fill_agrees_with_a_brute_force_search() -> None:
    g, _ = _state_with_a_fill(step3=False)
    assert [f.as_list() for f in g.must_fill()] == brute_fills(g)


def test_without_hands_nothing_is_checked_about_hands() -> None:
    g = Game(["red", "yellow"])
    g.play(Placement(9, 0, 0, 0))
    g.end_turn()
    assert g.bag == 43


# ---------------------------------------------------------------------------- the team game


def test_team_game_four_seats_two_colours() -> None:
    g = Game(TEAM)
    assert g.team and g.colours == ("red", "yellow") and g.bag == 56 - 24


def test_team_mates_must_alternate() -> None:
    with pytest.raises(ValueError):
        Game(["red", "red", "yellow", "yellow"])


def test_a_team_scores_its_colour_once_and_the_winner_is_a_colour() -> None:
    rg = random_hands_game(random.Random(1), TEAM)
    assert set(rg.game.scores()) == {"red", "yellow"}
    assert rg.game.winner in ("red", "yellow", "tie")


def test_each_team_seat_has_its_own_hand() -> None:
    g = HandsGame(TEAM)
    g.start_draw([10, 20, 44, 30])
    assert g.seat == 2
    for t in range(1, 7):
        g.draw("red", t)
    g.draw("red", 7)
    assert g.hand(2) == [1, 2, 3, 4, 5, 6] and g.hand(0) == [7]


# ---------------------------------------------------------------------------- invariants

players_st = st.sampled_from(
    [("red", "yellow"), ("yellow", "green", "blue"), ("red", "yellow", "green", "blue"), TEAM]
)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), players=players_st)
def test_a_random_game_with_hands_never_violates_the_obligation(
    seed: int, players: tuple[str, ...]
) -> None:
    rg = random_hands_game(random.Random(seed), players)
    g = HandsGame(players)
    for e in rg.events:
        full = all(len(g.hand(s)) == 6 for s in range(len(players))) or g.bag == 0
        if e["ev"] == "done" or (
            e["ev"] == "place"
            and not g.free_move_used
            and not g.is_forced_space((int(e["q"]), int(e["r"])))  # type: ignore[call-overload]
        ):
            if full:
                assert brute_fills(g) == [], f"{e} while a forced space could be filled"
        assert apply_event(g, e) is None
        held = sum(len(g.hand(s)) for s in range(len(players)))
        assert g.bag == 56 - g.placed - held
    out = simulate(
        {"game": "tantrix", "players": list(players), "hands": True}, numbered(rg.events)
    )
    assert out["violations"] == [] and out["placed"] == 56 and out["bag"] == 0


def test_with_hands_an_arbiter_take_back_is_refused_but_his_result_applies() -> None:
    events: list[dict[str, object]] = [
        {"ev": "starter", "draws": {"red": 12, "yellow": 40}},
        *({"ev": "draw", "player": "yellow", "tile": t} for t in range(1, 7)),
        {"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0},
        {"ev": "correct", "what": "take-back", "reason": "wrong tile", "by": "arbiter"},
        {"ev": "correct", "what": "result", "winner": "red", "reason": "forfeit", "by": "arbiter"},
    ]
    out = simulate({"game": "tantrix", "players": ["red", "yellow"], "hands": True},
                   numbered(events))
    assert [v["kind"] for v in out["violations"]] == ["correction"]
    assert out["placed"] == 1 and out["over"] and out["winner"] == "red"
