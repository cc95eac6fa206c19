"""Tantrix Strategy, rule by rule (French rule book, as fixed by the scenario contract).

Positions are played move by move. The layouts used again and again:

* the C shape: tile 1 rot 1 on (1,-1), tile 7 rot 0 on (1,0), tile 4 rot 1 on (0,1) leave
  (0,0) with three neighbours facing red, red, blue: a forced space;
* the straight side: tiles on (1,-3), (1,-2), (1,-1), (1,0), (0,1) leave (0,0) forced, with the
  side (1,-1), (1,-2), (1,-3) running away from it (the rule book's figure 8).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import tantrix_brute as brute

from companion.simulate import read_scenario
from companion.tantrix.autoplay import random_game
from companion.tantrix.game import (
    FINAL,
    RESTRICTED,
    Game,
    IllegalPlacement,
    Placement,
)
from companion.tantrix.scoring import Score
from companion.tantrix.simulate import replay

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "tantrix"
Move = tuple[int, int, int, int] | str

C_SHAPE: list[Move] = [(1, 1, -1, 1), "done", (7, 1, 0, 0), "done", (4, 0, 1, 1), "done"]
STRAIGHT_SIDE: list[Move] = [
    (3, 1, -3, 0), "done", (1, 1, -2, 2), "done", (14, 1, -1, 3), "done",
    (9, 1, 0, 1), "done", (2, 0, 1, 2), "done",
]  # fmt: skip


def play(game: Game, moves: list[Move]) -> Game:
    for m in moves:
        if m == "done":
            game.end_turn()
        else:
            assert not isinstance(m, str)
            game.play(Placement(*m))
    return game


def refused(game: Game, move: tuple[int, int, int, int]) -> IllegalPlacement:
    before = snapshot(game)
    with pytest.raises(IllegalPlacement) as info:
        game.play(Placement(*move))
    assert snapshot(game) == before, "a refused placement must change nothing"
    return info.value


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.placements,
        game.forced_spaces(),
        game.controlled_cells(),
        game.turn,
        game.free_move_used,
        game.scores(),
        game.bag,
    )


def scenario_game(name: str) -> Game:
    s = read_scenario(SCENARIOS / f"{name}.jsonl")
    return replay(s.header, s.events)[0]


# ---------------------------------------------------------------- placing tiles


def test_the_first_tile_goes_anywhere() -> None:
    game = play(Game(), [(20, 7, -4, 3)])
    assert game.tile_at((7, -4)) == (20, 3)


def test_a_later_tile_must_touch_a_tile_on_the_table() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done"])
    assert refused(game, (2, 2, 0, 0)).kind == "not touching"


def test_a_cell_holds_one_tile() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done"])
    assert refused(game, (2, 0, 0, 0)).kind == "occupied"


def test_each_tile_is_placed_once() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done"])
    assert refused(game, (1, 1, 0, 3)).kind == "tile already placed"


def test_golden_rule_touching_sides_match_and_the_refusal_names_the_side() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done"])
    exc = refused(game, (2, 1, 0, 1))  # tile 2 turned once shows yellow on W; tile 1 shows blue
    assert exc.kind == "golden rule"
    assert "side W of tile 2 is yellow" in str(exc) and "blue" in str(exc)
    game.play(Placement(2, 1, 0, 0))


def test_golden_rule_applies_to_every_touching_side() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done", (2, 1, 0, 0), "done"])
    exc = refused(game, (3, 0, 1, 0))  # matches tile 1 on NW, not tile 2 on NE
    assert exc.kind == "golden rule" and "side NE" in exc.detail
    game.play(Placement(4, 0, 1, 3))


def test_turning_a_tile_moves_each_colour_one_side_clockwise() -> None:
    game = play(Game(), [(1, 0, 0, 2)])
    edges = "YBRBRY"  # tile 1 unturned, NE..NW
    names = {"Y": "yellow", "B": "blue", "R": "red"}
    assert [game.side_colour((0, 0), s) for s in range(6)] == [
        names[edges[(s - 2) % 6]] for s in range(6)
    ]


def test_placement_fields_are_checked() -> None:
    with pytest.raises(ValueError, match="1 to 56"):
        Placement(57, 0, 0, 0)
    with pytest.raises(ValueError, match="0 to 5"):
        Placement(1, 0, 0, 6)
    with pytest.raises(TypeError):
        Placement(True, 0, 0, 0)


@pytest.mark.parametrize(
    "players", [["red"], ["red", "yellow", "green", "blue", "red"], ["red", "red"], ["red", "pink"]]
)
def test_two_to_four_players_each_with_his_own_colour(players: list[str]) -> None:
    with pytest.raises(ValueError):
        Game(players)


# ---------------------------------------------------------------- forced spaces


def test_a_forced_space_is_an_empty_cell_with_three_neighbouring_tiles() -> None:
    game = play(Game(), C_SHAPE[:4])
    assert game.forced_spaces() == []
    play(game, C_SHAPE[4:])
    assert game.forced_spaces() == [(0, 0)] and game.is_forced_space((0, 0))


def test_a_forced_space_with_four_neighbours_in_the_final_phase_is_still_forced() -> None:
    game = scenario_game("t19_final_phase_lifts_restriction2")
    assert game.phase == FINAL
    around = [game.tile_at((-2 + dq, 3 + dr)) for dq, dr in brute.STEP]
    assert sum(t is not None for t in around) == 4
    assert (-2, 3) in game.forced_spaces()


def test_a_forced_space_need_not_have_touching_neighbours() -> None:
    game = scenario_game("t36_full_game_open_forced_spaces")
    occupied = [game.tile_at((1 + dq, 1 + dr)) is not None for dq, dr in brute.STEP]
    assert occupied == [False, True, False, True, True, True]
    assert (1, 1) in game.forced_spaces()


def test_forced_spaces_may_be_filled_before_and_after_the_free_move() -> None:
    game = play(Game(), C_SHAPE[:4] + [(4, 0, 1, 1)])  # red's free move makes (0,0) forced
    game.play(Placement(2, 0, 0, 1))  # red fills it in the same turn
    game.end_turn()
    assert game.forced_spaces() == []


def test_one_free_move_per_turn() -> None:
    game = play(Game(), [(1, 0, 0, 0)])
    assert refused(game, (2, 1, 0, 0)).kind == "second free move"
    game.end_turn()
    game.play(Placement(2, 1, 0, 0))


def test_a_forced_fill_does_not_use_the_free_move() -> None:
    game = play(Game(), C_SHAPE + [(2, 0, 0, 1)])
    assert not game.free_move_used
    game.play(Placement(3, 2, -1, 1))
    assert game.free_move_used
    assert refused(game, (9, 1, 1, 0)).kind == "second free move"


def test_done_passes_the_turn_in_seat_order() -> None:
    game = Game(["blue", "red", "green"])
    seen = []
    for _ in range(4):
        seen.append(game.turn)
        game.end_turn()
    assert seen == ["blue", "red", "green", "blue"]


# ---------------------------------------------------------------- bag, phase, restrictions


@pytest.mark.parametrize(("players", "first_final"), [(2, 44), (3, 38), (4, 32)])
def test_bag_holds_56_minus_6_per_player_minus_placed(players: int, first_final: int) -> None:
    colours = ["red", "yellow", "green", "blue"][:players]
    game = random_game(random.Random(5), colours, stop_after=first_final - 1).game
    assert game.placed == first_final - 1
    assert game.bag == 1 and game.phase == RESTRICTED
    assert Game(colours).bag == 56 - 6 * players
    game = random_game(random.Random(5), colours, stop_after=first_final).game
    assert game.bag == 0 and game.phase == FINAL and game.controlled_cells() == []


def test_restriction_1_no_forced_space_facing_three_sides_of_one_colour() -> None:
    game = play(Game(), C_SHAPE[:4])
    exc = refused(game, (4, 0, 1, 3))  # (0,0) would face red, red, red
    assert (
        exc.kind == "restriction 1" and "three red sides" in exc.detail and "(0, 0)" in exc.detail
    )
    game.play(Placement(4, 0, 1, 1))


def test_restriction_1_applies_to_forced_fills() -> None:
    game = play(
        Game(),
        [
            (24, 0, 0, 0),
            "done",
            (43, 1, -1, 2),
            "done",
            (27, 0, 1, 0),
            "done",
            (1, 2, -2, 2),
            "done",
        ],
    )
    assert game.forced_spaces() == [(1, 0)]
    assert refused(game, (2, 1, 0, 3)).kind == "restriction 1"
    game.play(Placement(6, 1, 0, 4))
    assert game.forced_spaces() == [(2, -1)]


def test_restriction_2_no_fourth_tile_around_an_existing_forced_space() -> None:
    game = play(Game(), C_SHAPE)
    exc = refused(game, (3, -1, 1, 4))
    assert exc.kind == "restriction 2" and "(0, 0)" in exc.detail


def test_restriction_3_no_tile_along_a_controlled_side() -> None:
    game = play(Game(), STRAIGHT_SIDE)
    assert game.forced_spaces() == [(0, 0)]
    # walking NW from (0,0) along the side (1,-1), (1,-2), (1,-3); SW beside (0,1)
    assert game.controlled_cells() == [(-1, 1), (0, -3), (0, -2), (0, -1)]
    for move in [(4, 0, -2, 1), (4, 0, -3, 2)]:
        exc = refused(game, move)
        assert exc.kind == "restriction 3" and "(0, 0)" in exc.detail


def test_controlled_cells_follow_the_contract_walk_on_random_tables() -> None:
    for seed in range(6):
        rg = random_game(random.Random(seed), ["red", "yellow"], stop_after=30)
        board = {p.cell: (p.tile, p.rot) for p in rg.game.placements}
        assert rg.game.controlled_cells() == brute.controlled(board)


def test_the_placement_that_draws_the_last_tile_is_still_restricted() -> None:
    game = scenario_game("t19_final_phase_lifts_restriction2")
    s = read_scenario(SCENARIOS / "t19_final_phase_lifts_restriction2.jsonl")
    _, result = replay(s.header, s.events)
    assert result["violations"][0]["kind"] == "restriction 2"
    assert game.placed == 33 and game.bag == 0


def test_restrictions_do_not_apply_in_the_final_phase() -> None:
    for name, kind in [
        ("t19_final_phase_lifts_restriction2", "restriction 2"),
        ("t20_final_phase_lifts_restriction3", "restriction 3"),
        ("t21_final_phase_allows_three_same_sides", "restriction 1"),
    ]:
        s = read_scenario(SCENARIOS / f"{name}.jsonl")
        game, result = replay(s.header, s.events)
        assert [v["kind"] for v in result["violations"]] == [kind]
        refused_move = s.events[-4][1]
        assert game.tile_at((refused_move["q"], refused_move["r"])) == (
            refused_move["tile"],
            refused_move["rot"],
        ), "the move refused at bag 1 is accepted once the bag is empty"


# ---------------------------------------------------------------- legal placements


def test_legal_placements_offer_forced_spaces_first() -> None:
    game = play(Game(), C_SHAPE)
    legal = game.legal_placements(2)
    assert legal[0] == Placement(2, 0, 0, 1)
    assert [p for p in legal if game.is_forced_space(p.cell)] == legal[:1]
    assert all(game.is_legal(p) for p in legal)


def test_after_the_free_move_only_forced_spaces_are_offered() -> None:
    game = play(Game(), C_SHAPE[:4] + [(4, 0, 1, 1)])
    assert {p.cell for p in game.legal_placements(2)} == {(0, 0)}
    assert game.legal_placements(9) == []  # tile 9 fits no red, red, blue space


def test_the_first_tile_is_offered_on_the_origin_in_six_turns() -> None:
    assert [p.rot for p in Game().legal_placements(7)] == [0, 1, 2, 3, 4, 5]


def test_legal_placements_agree_with_the_rules_one_by_one() -> None:
    rg = random_game(random.Random(3), ["red", "yellow", "green"], stop_after=25)
    game = rg.game
    board = {p.cell: (p.tile, p.rot) for p in game.placements}
    for tile in range(1, 57):
        want = [
            Placement(tile, c[0], c[1], rot)
            for c in game.frontier()
            for rot in range(6)
            if brute.refusal(board, tile, c, rot, players=3, free_used=game.free_move_used) is None
        ]
        assert sorted(game.legal_placements(tile)) == sorted(want)


# ---------------------------------------------------------------- end and score


def test_the_game_ends_when_all_56_tiles_are_placed() -> None:
    game = random_game(random.Random(8), ["red", "yellow"]).game
    assert game.placed == 56 and game.is_over and game.winner is not None
    assert game.legal_placements(1) == []
    assert refused(game, (1, 99, 99, 0)).kind == "game over"


def test_score_is_the_longest_line_or_twice_the_largest_loop() -> None:
    assert Score(line=7, loop=3).points == 7
    assert Score(line=5, loop=3).points == 6
    game = play(Game(), [(11, 0, 0, 2), "done", (14, 1, 0, 4), "done"])
    assert game.scores()["red"] == Score(line=2, loop=0)
    play(game, [(3, 0, 1, 0)])
    assert game.scores()["red"] == Score(line=0, loop=3)
    assert game.scores()["red"].points == 6


def test_the_highest_score_wins() -> None:
    game = random_game(random.Random(7), ["red", "yellow", "green"]).game
    points = {p: s.points for p, s in game.scores().items()}
    assert game.winner == max(points, key=lambda p: points[p])
    assert list(points.values()).count(max(points.values())) == 1


def test_equal_best_scores_are_a_tie() -> None:
    game = random_game(random.Random(3), ["red", "yellow"]).game
    assert game.scores()["red"].points == game.scores()["yellow"].points
    assert game.winner == "tie"


def test_no_winner_before_the_end() -> None:
    assert play(Game(), [(1, 0, 0, 0)]).winner is None


# ---------------------------------------------------------------- undo


def test_undo_takes_back_the_last_placement_and_the_turn() -> None:
    game = play(Game(), [(1, 0, 0, 0), "done", (2, 1, 0, 0), "done"])
    assert game.undo() == Placement(2, 1, 0, 0)
    assert game.turn == "yellow" and not game.free_move_used and game.placed == 1


def test_undo_reopens_a_forced_space() -> None:
    game = play(Game(), C_SHAPE + [(2, 0, 0, 1)])
    game.undo()
    assert game.forced_spaces() == [(0, 0)]
    assert game.controlled_cells() == [(-1, 1), (0, -1)]


def test_undo_on_an_empty_table_is_refused() -> None:
    with pytest.raises(IllegalPlacement, match="nothing to undo"):
        Game().undo()
