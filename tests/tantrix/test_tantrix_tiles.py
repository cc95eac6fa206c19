"""The 56 tiles in the package data against published facts (adapted from the shared checker).

Edge convention: ``edges[0..5]`` are the sides NE, E, SE, SW, W, NW of a pointy-topped hexagon
seen from the printed face. The rule-book figures come from the French rule book (statistics,
forced-space analysis, Discovery table); the solution counts from lwiest/SolvingTantrix.
"""

from __future__ import annotations

import itertools

import pytest
from tantrix_loops import ends, find_loops, letters, rotate

from companion.tantrix.tiles import COLOURS, TILES, Tile, tile

T = {n: letters(n) for n in range(1, 57)}
LETTERS = "RYGB"


def shape(t: tuple[str, ...], colour: str) -> str:
    a, b = ends(t, colour)
    return {3: "straight", 2: "curve", 4: "curve", 1: "corner", 5: "corner"}[(b - a) % 6]


def canonical(t: tuple[str, ...]) -> str:
    return min("".join(rotate(t, k)) for k in range(6))


def kind(t: tuple[str, ...]) -> str:
    shapes: tuple[str, ...] = tuple(sorted(shape(t, c) for c in set(t)))
    kinds: dict[tuple[str, ...], str] = {
        ("corner", "corner", "corner"): "rond",
        ("corner", "corner", "straight"): "brid",
        ("curve", "curve", "straight"): "chin",
        ("corner", "curve", "curve"): "sint",
    }
    return kinds.get(shapes, "other")


def crosses(t: tuple[str, ...], a: str, b: str) -> bool:
    a1, a2 = ends(t, a)
    b1, b2 = ends(t, b)
    return (a1 < b1 < a2) != (a1 < b2 < a2)


def fits(t: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """Whether some rotation shows ``pattern`` on three consecutive sides."""
    return any(rotate(t, k)[0:3] == pattern for k in range(6))


def test_56_tiles_numbered_1_to_56() -> None:
    assert sorted(TILES) == list(range(1, 57))


def test_each_tile_has_three_colours_on_two_sides_each() -> None:
    for t in T.values():
        assert len(t) == 6 and set(t) <= set(LETTERS) and len(set(t)) == 3
        assert all(t.count(c) == 2 for c in set(t))


def test_no_two_tiles_alike_up_to_rotation() -> None:
    assert len({canonical(t) for t in T.values()}) == 56


def test_the_set_is_every_possible_tile_without_three_straights() -> None:
    possible = set()
    for trio in itertools.combinations(LETTERS, 3):
        for perm in itertools.permutations(trio):
            for sides in itertools.permutations(range(6)):
                t = [""] * 6
                for k in range(3):
                    t[sides[2 * k]] = t[sides[2 * k + 1]] = perm[k]
                if kind(tuple(t)) != "other":
                    possible.add(canonical(tuple(t)))
    assert possible == {canonical(t) for t in T.values()}


def test_tile_kinds_8_rond_12_brid_12_chin_24_sint() -> None:
    counts: dict[str, int] = {}
    for t in T.values():
        counts[kind(t)] = counts.get(kind(t), 0) + 1
    assert counts == {"rond": 8, "brid": 12, "chin": 12, "sint": 24}


@pytest.mark.parametrize("colour", LETTERS)
def test_rule_book_statistics_per_colour(colour: str) -> None:
    """'14 tuiles avec une couleur manquante; 18 coins, 18 courbes, 6 droites' of each colour."""
    assert sum(colour not in t for t in T.values()) == 14
    shapes = [shape(t, colour) for t in T.values() if colour in t]
    assert (shapes.count("corner"), shapes.count("curve"), shapes.count("straight")) == (18, 18, 6)


def test_each_colour_trio_has_6_corners_6_curves_2_straights_of_each_colour() -> None:
    """'6 coins rouges, 2 droites rouges et 6 courbes rouges' (solitaire hints)."""
    for trio in itertools.combinations(LETTERS, 3):
        group = [t for t in T.values() if set(t) == set(trio)]
        assert len(group) == 14
        for c in trio:
            shapes = [shape(t, c) for t in group]
            assert (shapes.count("corner"), shapes.count("curve"), shapes.count("straight")) == (
                6,
                6,
                2,
            )


def test_tiles_1_to_14_are_red_yellow_blue() -> None:
    assert all(set(T[n]) == set("RYB") for n in range(1, 15))
    assert "G" in T[15]


@pytest.mark.parametrize(("a", "b"), list(itertools.combinations(LETTERS, 2)))
def test_two_colours_cross_on_8_tiles(a: str, b: str) -> None:
    assert sum(1 for t in T.values() if a in t and b in t and crosses(t, a, b)) == 8


def test_forced_space_analysis_5_tiles_fill_abc_6_fill_aab_abb_aba() -> None:
    """Rule book, 'analyse de remplissage des espaces forcés'."""
    for a, b, c in itertools.permutations(LETTERS, 3):
        assert sum(fits(t, (a, b, c)) for t in T.values()) == 5
    for a, b in itertools.permutations(LETTERS, 2):
        for pattern in ((a, a, b), (a, b, b), (a, b, a)):
            assert sum(fits(t, pattern) for t in T.values()) == 6


def test_no_tile_fits_a_space_with_three_sides_of_one_colour() -> None:
    """Why restriction 1 exists: such a space can never be filled."""
    assert not any(fits(t, (c, c, c)) for t in T.values() for c in LETTERS)


DISCOVERY = {3: "Y", 4: "R", 5: "R", 6: "B", 7: "B", 8: "B", 9: "Y", 10: "R"}


@pytest.mark.parametrize(("n", "colour"), DISCOVERY.items())
def test_discovery_tiles_1_to_n_make_a_loop_of_the_rule_book_colour(n: int, colour: str) -> None:
    tiles = [T[k] for k in range(1, n + 1)]
    layouts = find_loops(tiles, colour)
    assert len(layouts) == 1
    layout = layouts[0]
    assert sorted(i for i, _ in layout.values()) == list(range(n))
    for cell, (_, sides) in layout.items():
        for s, (dq, dr) in enumerate(((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))):
            other = layout.get((cell[0] + dq, cell[1] + dr))
            assert other is None or other[1][(s + 3) % 6] == sides[s]


def test_discovery_tiles_1_to_3_make_no_red_and_no_blue_loop() -> None:
    tiles = [T[1], T[2], T[3]]
    assert find_loops(tiles, "R", forbid_holes=False) == []
    assert find_loops(tiles, "B", forbid_holes=False) == []


PUBLISHED = {
    3: {"Y": 2},
    4: {"R": 2},
    5: {"R": 4},
    6: {"B": 8},
    7: {"R": 32, "B": 36},
    8: {"B": 84},
}


@pytest.mark.parametrize(("n", "want"), PUBLISHED.items())
def test_discovery_solution_counts_as_published(n: int, want: dict[str, int]) -> None:
    """lwiest/SolvingTantrix README (hole-free loops), recounted by an independent search."""
    tiles = [T[k] for k in range(1, n + 1)]
    got = {c: len(find_loops(tiles, c, first_only=False)) for c in "RYB"}
    assert {c: k for c, k in got.items() if k} == want


def test_back_colour_of_tile_n_is_the_discovery_loop_colour() -> None:
    names = {"R": "red", "Y": "yellow", "B": "blue"}
    assert all(TILES[n].back == names[c] for n, c in DISCOVERY.items())


def test_back_colours_10_green_12_yellow_9_white_10_blue_15_red() -> None:
    counts: dict[str, int] = {}
    for t in TILES.values():
        counts[t.back] = counts.get(t.back, 0) + 1
    assert counts == {"green": 10, "yellow": 12, "white": 9, "blue": 10, "red": 15}
    assert all(t.back == "white" or t.back in t.colours for t in TILES.values())


def test_tile_3_has_red_blue_yellow_corners_clockwise() -> None:
    """Handedness, from photographs of the Discovery set; its mirror image is tile 14."""
    t3 = T[3]
    order: list[str] = []
    for k in range(6):
        if t3[k] == t3[(k + 1) % 6] and t3[k] not in order:
            order.append(t3[k])
    assert kind(t3) == "rond" and "".join(order) in ("RBY", "BYR", "YRB")
    assert canonical(tuple(reversed(T[14]))) == canonical(t3)


def test_tile_objects_turn_clockwise() -> None:
    """Turned k sixths clockwise, side s shows what side s - k showed (the contract)."""
    one = tile(1)
    assert isinstance(one, Tile)
    assert one.sides(0) == tuple(one.edges)
    assert one.sides(1) == (one.edges[5],) + tuple(one.edges[:5])
    assert one.letters(0) == "YBRBRY"
    assert set(one.colours) <= set(COLOURS)


def test_asking_for_a_tile_outside_1_to_56_names_the_range() -> None:
    with pytest.raises(KeyError, match="1 to 56"):
        tile(57)
