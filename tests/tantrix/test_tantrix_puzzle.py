"""The Discovery solo puzzle: tiles 1..N in one loop of the colour on tile N's back."""

from __future__ import annotations

import pytest
from tantrix_loops import find_loops, letters, rotate

from companion.puzzle.rules import DiscoveryPuzzle, check_discovery, discovery_colour
from companion.tantrix.game import Placement

RULE_BOOK = {
    3: "yellow",
    4: "red",
    5: "red",
    6: "blue",
    7: "blue",
    8: "blue",
    9: "yellow",
    10: "red",
}


def solution(n: int) -> list[Placement]:
    """A known solution found by the independent loop search, as placements."""
    tiles = [letters(k) for k in range(1, n + 1)]
    colour = discovery_colour(n)[0].upper()
    (layout,) = find_loops(tiles, colour)
    out = []
    for (q, r), (i, sides) in layout.items():
        rot = next(k for k in range(6) if rotate(tiles[i], k) == sides)
        out.append(Placement(i + 1, q, r, rot))
    return out


@pytest.mark.parametrize(("n", "colour"), RULE_BOOK.items())
def test_the_loop_colour_is_the_back_of_the_newest_tile(n: int, colour: str) -> None:
    """The rule book's table of Discovery puzzles 3 to 10."""
    assert discovery_colour(n) == colour


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_a_loop_through_tiles_1_to_n_solves_the_puzzle(n: int) -> None:
    verdict = check_discovery(n, solution(n))
    assert verdict.solved and verdict.loop == n and verdict.problems == ()


def test_the_rule_book_example_red_loop_of_tiles_1_to_4() -> None:
    layout = [
        Placement(1, 0, 0, 5),
        Placement(2, 1, 0, 4),
        Placement(4, 0, 1, 4),
        Placement(3, -1, 1, 1),
    ]
    assert check_discovery(4, layout).solved


def test_a_missing_tile_is_named_one_tile_in_the_singular_several_in_the_plural() -> None:
    layout = solution(5)
    one = check_discovery(5, [p for p in layout if p.tile != 5])
    assert not one.solved and "missing: tile 5" in one.problems
    two = check_discovery(5, [p for p in layout if p.tile not in (4, 5)])
    assert "missing: tiles 4, 5" in two.problems


def test_a_tile_beyond_n_does_not_belong() -> None:
    verdict = check_discovery(3, solution(3) + [Placement(9, 5, 5, 0)])
    assert "not part of this puzzle: tiles 9" in verdict.problems


def test_mismatched_sides_break_the_golden_rule() -> None:
    layout = solution(4)
    layout[0] = Placement(layout[0].tile, layout[0].q, layout[0].r, (layout[0].rot + 1) % 6)
    verdict = check_discovery(4, layout)
    assert not verdict.solved and verdict.loop == 0
    assert any(p.startswith("golden rule") for p in verdict.problems)


def test_a_loop_of_another_colour_does_not_solve_it() -> None:
    """Tiles 1-3 make a yellow loop; as puzzle 4 (red) with tile 4 laid apart, it is unsolved."""
    layout = [
        Placement(2, 0, 0, 5),
        Placement(3, 1, 0, 0),
        Placement(1, 0, 1, 0),
        Placement(4, 5, 5, 0),
    ]
    verdict = check_discovery(4, layout)
    assert not verdict.solved
    assert verdict.problems == ("the red bands make no loop through all 4 tiles",)


def test_puzzles_run_from_3_to_30_tiles() -> None:
    assert discovery_colour(30) == "red"
    for n in (2, 31):
        with pytest.raises(ValueError, match="3 to 30"):
            discovery_colour(n)


def test_a_puzzle_is_built_tile_by_tile_and_tiles_may_move() -> None:
    puzzle = DiscoveryPuzzle(3)
    assert puzzle.colour == "yellow"
    puzzle.lay(Placement(2, 0, 0, 5))
    puzzle.lay(Placement(3, 1, 0, 0))
    puzzle.lay(Placement(1, 4, 4, 0))  # laid apart first...
    assert not puzzle.verdict().solved
    puzzle.lay(Placement(1, 0, 1, 0))  # ...then moved into place
    assert puzzle.verdict().solved and len(puzzle.layout) == 3
    puzzle.lift(3)
    assert not puzzle.verdict().solved


def test_a_puzzle_refuses_foreign_tiles_and_shared_cells() -> None:
    puzzle = DiscoveryPuzzle(3)
    with pytest.raises(ValueError, match="tiles 1 to 3"):
        puzzle.lay(Placement(4, 0, 0, 0))
    puzzle.lay(Placement(1, 0, 0, 0))
    with pytest.raises(ValueError, match="already lies"):
        puzzle.lay(Placement(2, 0, 0, 0))
