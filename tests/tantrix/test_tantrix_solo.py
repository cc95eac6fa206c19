"""The solo modes of the rule book, one test per rule: Tantrix Solitaire ("4 - Tantrix
Solitaire"), the Rainbow puzzles ("3 - Rainbow puzzle") and Gobble for one player ("2 - Tantrix
Gobble", "Règle du jeu 1 joueur"); known solutions come from searches that never use the
engine (``tantrix_loops``, ``tantrix_pyramid``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solitaire_search import Search
from solitaire_search import events as solitaire_events
from solo_play import random_gobble, random_solitaire
from tantrix_loops import find_loops, letters, rotate
from tantrix_pyramid import find_line, triangle

from companion.tantrix.game import IllegalPlacement, Placement
from companion.tantrix.simulate import simulate
from companion.tantrix.solo import (
    DRAW_FIRST,
    FITS,
    FORCED_SPACE,
    NO_GOBBLE,
    NOT_DRAWN,
    NOT_IN_BAG,
    NOT_IN_PUZZLE,
    NOTHING_TO_UNDO,
    PLACE_FIRST,
    GobbleSolo,
    Rainbow,
    Solitaire,
    is_triangle,
    rainbow_tiles,
)

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def refusal(call: object) -> str:
    with pytest.raises(IllegalPlacement) as exc:
        call()  # type: ignore[operator]
    return exc.value.kind


def replayed(events: list[dict[str, object]], **header: object) -> dict[str, object]:
    return simulate({"game": "tantrix", **header}, [(i + 2, e) for i, e in enumerate(events)])


# ---------------------------------------------------------------------------- Solitaire


def _solitaire_with_a_fill(elsewhere: bool) -> Solitaire:
    for seed in range(300):
        _, events = random_solitaire(random.Random(seed))
        s = Solitaire()
        for e in events:
            if e["ev"] == "draw":
                s.draw(int(e["tile"]))  # type: ignore[call-overload]
                fills = s.fills()
                free = [p for p in s.table.spots(int(e["tile"])) if p.cell not in fills]  # type: ignore[call-overload]
                if fills and (free or not elsewhere):
                    return s
            else:
                s.place(Placement(*(int(e[k]) for k in ("tile", "q", "r", "rot"))))  # type: ignore[call-overload]
    raise AssertionError("no forced space in 300 games")


def test_solitaire_a_tile_that_fills_a_forced_space_must_go_there() -> None:
    s = _solitaire_with_a_fill(elsewhere=True)
    assert s.drawn is not None
    free = [p for p in s.table.spots(s.drawn) if p.cell not in s.fills()]
    assert refusal(lambda: s.place(free[0])) == FORCED_SPACE


def test_solitaire_the_forced_fill_is_accepted() -> None:
    s = _solitaire_with_a_fill(elsewhere=False)
    assert s.drawn is not None
    fill = next(p for p in s.table.spots(s.drawn) if p.cell in s.fills())
    s.place(fill)
    assert s.drawn is None


def test_solitaire_lays_only_the_tile_just_turned_over() -> None:
    s = Solitaire()
    assert refusal(lambda: s.place(Placement(5, 0, 0, 0))) == DRAW_FIRST
    s.draw(12)
    assert refusal(lambda: s.place(Placement(13, 0, 0, 0))) == NOT_DRAWN
    assert refusal(lambda: s.draw(13)) == PLACE_FIRST


def test_solitaire_counts_red_tiles_and_judges_the_target() -> None:
    s, _ = random_solitaire(random.Random(4))
    red = s.red()
    assert s.placed == 56 and red["red_tiles"] == 42
    assert red["short"] == 42 - red["red_line"] and not s.solved


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), target=st.sampled_from(["line", "loop"]))
def test_a_random_solitaire_replays_without_violation(seed: int, target: str) -> None:
    s, events = random_solitaire(random.Random(seed), target)
    out = replayed(events, mode="solitaire", target=target)
    assert out["violations"] == [] and out["placed"] == s.placed
    assert out["bag"] == 56 - s.placed - (s.drawn is not None)


SCENARIOS = Path(__file__).parent.parent / "scenarios/tantrix"
SOLVED_LINE = SCENARIOS / "s11_solitaire_solved_line.jsonl"
SOLVED_LOOP = SCENARIOS / "s14_solitaire_solved_loop.jsonl"


def _fixture_events(path: Path) -> list[dict[str, object]]:
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return [json.loads(ln) for ln in lines[1:]]


def _red_run_without_the_engine(events: list[dict[str, object]]) -> tuple[int, bool, bool]:
    """Lay the placements on a plain board (golden rule checked side by side), then walk the
    red from one end (or from any red tile when there is no end): how many tiles the walk
    visits, whether it closed on itself, and whether every pair of touching sides matches."""
    board = {(int(e["q"]), int(e["r"])): rotate(letters(int(e["tile"])), int(e["rot"]))  # type: ignore[call-overload]
             for e in events if e["ev"] == "place"}
    steps = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

    def matches(c: tuple[int, int], i: int) -> bool:
        other = board.get((c[0] + steps[i][0], c[1] + steps[i][1]))
        return other is None or other[(i + 3) % 6] == board[c][i]

    golden = all(matches(c, i) for c in board for i in range(6))
    red = [(c, i) for c, sides in board.items() for i in range(6) if sides[i] == "R"]
    ends = [(c, i) for c, i in red if (c[0] + steps[i][0], c[1] + steps[i][1]) not in board]
    start, entry = (ends or red)[0]
    cell, seen = start, 0
    while True:
        seen += 1
        exit_ = next(i for i in range(6) if i != entry and board[cell][i] == "R")
        nxt = (cell[0] + steps[exit_][0], cell[1] + steps[exit_][1])
        if nxt not in board or nxt == start:
            return seen, nxt == start, golden
        cell, entry = nxt, (exit_ + 3) % 6


@pytest.mark.parametrize("target, path", [("line", SOLVED_LINE), ("loop", SOLVED_LOOP)])
def test_solitaire_a_known_solution_is_recognised_as_solved(target: str, path: Path) -> None:
    events = _fixture_events(path)
    run, closed, golden = _red_run_without_the_engine(events)
    assert golden and run == 42 and closed == (target == "loop")
    assert sum(e["ev"] == "place" for e in events) == 56
    out = replayed(events, mode="solitaire", target=target)
    assert out["violations"] == [] and out["solved"] is True and out[f"red_{target}"] == 42


def test_solitaire_is_not_solved_one_tile_short_or_against_the_loop_target() -> None:
    events = _fixture_events(SOLVED_LINE)
    short = replayed(events[:-2], mode="solitaire", target="line")
    assert short["violations"] == [] and short["placed"] == 55 and short["solved"] is False
    loop = replayed(events, mode="solitaire", target="loop")
    assert loop["violations"] == [] and loop["solved"] is False


@pytest.mark.parametrize("target, seed", [("line", 3), ("loop", 70)])
def test_solitaire_the_search_helper_finds_a_game_the_engine_accepts(
    target: str, seed: int
) -> None:
    search = Search(random.Random(seed), target, 5000)  # these seeds solve in under 1000 nodes
    moves = search.run()
    assert moves is not None
    out = replayed(solitaire_events(moves, target)[1:], mode="solitaire", target=target)
    assert out["violations"] == [] and out["solved"] is True


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), mode=st.sampled_from(["solitaire", "gobble"]),
       cut=st.integers(1, 120))
def test_undo_after_any_accepted_step_gives_back_the_state_before_it(
    seed: int, mode: str, cut: int
) -> None:
    rng = random.Random(seed)
    _, events = random_solitaire(rng) if mode == "solitaire" else random_gobble(rng)
    events = events[: min(cut, len(events))]
    header = {"mode": mode, "players": 1} if mode == "gobble" else {"mode": mode}
    before = replayed(events[:-1], **header)
    after = replayed([*events, {"ev": "undo"}], **header)
    assert after["violations"] == []
    for k in ("placed", "drawn", "held", "bag", "tiles", "discard", "gobbles", "reward"):
        assert after.get(k) == before.get(k), k


def test_solitaire_undo_of_a_place_leaves_the_tile_drawn_and_of_a_draw_returns_it() -> None:
    s = Solitaire()
    s.draw(12)
    s.place(Placement(12, 0, 0, 0))
    s.undo()
    assert s.placed == 0 and s.drawn == 12
    s.undo()
    assert s.drawn is None
    assert refusal(s.undo) == NOTHING_TO_UNDO


# ---------------------------------------------------------------------------- Rainbow


def test_rainbow_puzzle_sizes_by_back_colour() -> None:
    sizes = {c: len(rainbow_tiles(c)) for c in ("green", "yellow", "white", "blue", "red")}
    assert sizes == {"green": 10, "yellow": 12, "white": 9, "blue": 10, "red": 15}


def _loop_layout(puzzle: str, colour: str) -> list[Placement]:
    numbers = rainbow_tiles(puzzle)
    found = find_loops([letters(n) for n in numbers], colour[0].upper(), forbid_holes=False)
    assert found, f"no {colour} loop for the {puzzle} puzzle"
    out = []
    for (q, r), (i, sides) in found[0].items():
        rot = next(k for k in range(6) if rotate(letters(numbers[i]), k) == sides)
        out.append(Placement(numbers[i], q, r, rot))
    return out


def _lay(puzzle: str, layout: list[Placement]) -> Rainbow:
    """Lay a known layout tile by tile, each touching one laid before."""
    game = Rainbow(puzzle)
    left = list(layout)
    while left:
        for p in left:
            if game.table.placed == 0 or game.table.neighbours(p.cell):
                game.place(p)
                left.remove(p)
                break
    return game


@pytest.mark.parametrize(("puzzle", "colour"), [("green", "green"), ("yellow", "yellow")])
def test_rainbow_green_and_yellow_make_one_loop_of_their_colour(puzzle: str, colour: str) -> None:
    game = _lay(puzzle, _loop_layout(puzzle, colour))
    assert game.verdict()[:2] == (True, colour)


def test_rainbow_white_makes_one_loop_in_the_one_colour_that_can() -> None:
    game = _lay("white", _loop_layout("white", "blue"))
    assert game.verdict()[:2] == (True, "blue")


def test_rainbow_blue_pyramid_with_one_line_through_every_tile() -> None:
    found = find_line(rainbow_tiles("blue"), 4, "B")
    layout = [Placement(t, q, r, rot) for (q, r), (t, rot) in found.items()]
    game = _lay("blue", layout)
    assert game.verdict()[:2] == (True, "blue")
    game.lift(layout[0].tile)
    assert game.verdict()[0] is False


def test_rainbow_a_tile_of_another_back_is_refused() -> None:
    assert refusal(lambda: Rainbow("green").place(Placement(1, 0, 0, 0))) == NOT_IN_PUZZLE


def test_the_pyramid_shapes_in_any_orientation() -> None:
    base = triangle(4)
    turned = {(-r, q + r) for q, r in base}
    mirrored = {(r + 5, q - 2) for q, r in base}
    assert is_triangle(base, 4) and is_triangle(turned, 4) and is_triangle(mirrored, 4)
    line = {(q, 0) for q in range(10)}
    assert not is_triangle(line, 4)
    assert is_triangle(triangle(5), 5) and not is_triangle(triangle(5), 4)


# ---------------------------------------------------------------------------- Gobble solo


#: Two tiles of an opening, matching where they touch (g31's first two).
OPENING = (Placement(55, 0, 0, 1), Placement(25, 0, 1, 4))


def _opened(first: Placement = OPENING[0], second: Placement = OPENING[1]) -> GobbleSolo:
    """A Gobble game opened as rule 1 says: both tiles drawn, then laid together."""
    g = GobbleSolo()
    g.draw(first.tile)
    g.draw(second.tile)
    g.place(first)
    g.place(second)
    return g


def test_gobble_opens_with_two_tiles_drawn_before_either_is_laid() -> None:
    """Rule 1: "en piocher 2 au hasard avant de les placer": the second draw is accepted, and
    a tile laid after the first draw alone is refused."""
    g = GobbleSolo()
    g.draw(55)
    assert g.to_draw == 1 and g.bag == 55
    assert refusal(lambda: g.place(Placement(55, 0, 0, 1))) == DRAW_FIRST
    assert g.table.placed == 0
    g.draw(25)
    assert g.held == [55, 25] and g.bag == 54 and g.to_draw == 0


def test_gobble_the_two_opening_tiles_are_laid_together_either_one_first() -> None:
    """Rule 1: "avant de les placer ensemble": the second drawn may go down first; the first
    then goes beside it."""
    g = GobbleSolo()
    g.draw(55)
    g.draw(25)
    g.place(Placement(25, 0, 1, 4))
    assert g.held == [55] and g.drawn == 55
    g.place(Placement(55, 0, 0, 1))
    assert g.held == [] and g.table.placed == 2 and g.bag == 54


def test_gobble_the_second_opening_tile_matches_the_first_where_they_touch() -> None:
    """Rule 1: "en faisant correspondre leurs couleurs": the second tile touches the first and
    every touching side matches."""
    g = GobbleSolo()
    g.draw(55)
    g.draw(25)
    g.place(Placement(25, 0, 1, 4))
    assert refusal(lambda: g.place(Placement(55, 0, 0, 0))) == "golden rule"
    assert refusal(lambda: g.place(Placement(55, 5, 5, 1))) == "not touching"
    g.place(Placement(55, 0, 0, 1))
    assert g.table.placed == 2


def test_gobble_no_third_tile_is_drawn_before_the_opening_pair_is_laid() -> None:
    """Rule 2 comes after rule 1: one tile at a time only once both opening tiles lie."""
    g = GobbleSolo()
    g.draw(55)
    g.draw(25)
    assert refusal(lambda: g.draw(49)) == PLACE_FIRST
    g.place(Placement(55, 0, 0, 1))
    assert refusal(lambda: g.draw(49)) == PLACE_FIRST
    assert g.bag == 54 and g.held == [25]


def test_gobble_after_the_opening_one_tile_is_drawn_at_a_time() -> None:
    """Rule 2: "en piochant une tuile à la fois"."""
    g = _opened()
    g.draw(49)
    assert refusal(lambda: g.draw(27)) == PLACE_FIRST
    assert g.held == [49] and g.to_draw == 0


def test_gobble_only_a_tile_drawn_for_the_opening_is_laid() -> None:
    g = GobbleSolo()
    g.draw(55)
    g.draw(25)
    assert refusal(lambda: g.place(Placement(49, 0, 0, 0))) == NOT_DRAWN


def test_gobble_a_tile_is_drawn_only_once() -> None:
    g = GobbleSolo()
    g.draw(55)
    assert refusal(lambda: g.draw(55)) == NOT_IN_BAG
    assert g.held == [55]


def test_gobble_an_opening_tile_is_never_discarded() -> None:
    """Rule 4 discards only a tile that cannot be connected; the first goes anywhere and the
    second always fits beside it."""
    g = GobbleSolo()
    g.draw(55)
    assert refusal(g.discard_drawn) == FITS
    g.draw(25)
    assert refusal(g.discard_drawn) == FITS
    g.place(Placement(55, 0, 0, 1))
    assert refusal(g.discard_drawn) == FITS
    assert g.discard == []


def test_gobble_later_tiles_touch_two() -> None:
    """Rule 3: "La nouvelle tuile doit toujours toucher au moins deux autres tuiles"."""
    g = _opened(Placement(1, 0, 0, 0), Placement(2, 1, 0, 0))
    assert g.touching() == 2
    g.draw(3)
    assert refusal(lambda: g.place(Placement(3, 2, 0, 2))) == "not touching"


def test_gobble_undo_takes_back_the_opening_step_by_step() -> None:
    """The second tile laid is held again, then the first (both drawn, in the order drawn),
    then the second draw goes back into the bag, then the first."""
    g = _opened()
    g.undo()
    assert g.table.placed == 1 and g.held == [25]
    g.undo()
    assert g.table.placed == 0 and g.held == [55, 25] and g.bag == 54
    g.undo()
    assert g.held == [55] and g.to_draw == 1
    g.undo()
    assert g.held == [] and g.bag == 56
    assert refusal(g.undo) == NOTHING_TO_UNDO


BOOK_GAME = SCENARIOS / "g37_gobble_solved.jsonl"


def test_a_gobble_laid_from_the_books_opening_is_solved_in_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A whole game opened as rule 1 says (two draws, then the two tiles laid together), played
    to the end with gobbles, discards and returns: ``companion simulate`` says SOLVED."""
    from companion import cli

    lines = [ln for ln in BOOK_GAME.read_text(encoding="utf-8").splitlines()
             if ln.startswith("{")]
    events = [json.loads(ln) for ln in lines[1:]]
    assert [e["ev"] for e in events[:4]] == ["draw", "draw", "place", "place"]
    assert {"discard", "return"} <= {e["ev"] for e in events}
    assert cli.main(["simulate", str(BOOK_GAME)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[:2] == ["Tantrix Gobble solo: 56 placed, bag 0, discard empty, 6 gobbles", "SOLVED"]
    assert cli.main(["simulate", str(BOOK_GAME), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solved"] is True and out["violations"] == [] and out["gobbles"] == 6


def test_gobble_only_a_tile_that_cannot_be_laid_is_discarded() -> None:
    g = _opened()
    g.draw(49)  # fits at (1, 0) turned 2
    assert refusal(g.discard_drawn) == FITS
    g.place(Placement(49, 1, 0, 2))
    g.draw(27)  # fits nowhere touching two
    g.discard_drawn()
    assert g.discard == [27] and g.held == []


def test_gobble_return_only_right_after_a_gobble() -> None:
    g = GobbleSolo()
    assert refusal(g.return_top) == NO_GOBBLE


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_a_random_gobble_replays_without_violation_and_counts_the_bag(seed: int) -> None:
    g, events = random_gobble(random.Random(seed))
    out = replayed(events, mode="gobble", players=1)
    assert out["violations"] == [] and out["solved"] == g.solved
    assert out["bag"] == 56 - g.table.placed - len(g.discard) - len(g.held)
    assert out["gobbles"] == g.gobbles


#: A red pyramid solution found by ``tantrix_pyramid.find_line(rainbow_tiles("red"), 5, "R")``
#: (75 s, too slow to search again in every run): cell -> (tile, rot).
RED_PYRAMID = {
    (0, 0): (5, 1), (0, 1): (11, 0), (1, 0): (4, 1), (2, 0): (24, 1), (1, 1): (30, 5),
    (0, 2): (16, 1), (1, 2): (26, 4), (0, 3): (18, 5), (0, 4): (19, 0), (1, 3): (15, 5),
    (2, 2): (10, 2), (2, 1): (27, 2), (3, 1): (29, 5), (3, 0): (28, 0), (4, 0): (25, 1),
}


def test_the_red_pyramid_solution_is_checked_without_the_engine_and_recognised() -> None:
    import tantrix_brute as brute

    board = {cell: tr for cell, tr in RED_PYRAMID.items()}
    assert sorted(t for t, _ in board.values()) == rainbow_tiles("red")
    assert set(board) == triangle(5) and brute.golden_ok(board)
    assert brute.scores(board, "red")[0] == 15  # one red line through all 15
    game = _lay("red", [Placement(t, q, r, rot) for (q, r), (t, rot) in RED_PYRAMID.items()])
    assert game.verdict()[:2] == (True, "red")
