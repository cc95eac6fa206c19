"""Board pictures: exact reference images of known positions, and what each picture shows.

The reference PNGs in ``tests/reference/replay/`` were drawn by this code and checked by eye,
enlarged. After a deliberate change of the drawing, redraw them with
``COMPANION_REDRAW_REFERENCE=1 pytest tests/replay/test_replay_pictures.py`` and look at them
again before committing.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops

from companion.replay import Frame, Replay, load, shapes
from companion.replay.gif import picture, svg
from companion.replay.palette import TANTRIX, Ink
from companion.tamsk import picture as tamsk_pic
from companion.tamsk.board import CAPACITY
from companion.tamsk.picture_layout import GLASS_DY, centre, pips
from companion.tantrix import picture as tantrix_pic
from companion.tantrix.tiles import COLOURS, ENDS, SIDE_COLOUR, code_of
from tests.replay.games import REFERENCE, scenario

SVG = "{http://www.w3.org/2000/svg}"


def after_move(n: int) -> Callable[[Replay], Frame]:
    return lambda r: r.frame_after_move(n)


def last(r: Replay) -> Frame:
    return r.frames[-1]


def forfeit(r: Replay) -> Frame:
    return next(f for f in r.frames if any("forfeits" in m for m in f.marks))


#: Reference name -> (scenario, which frame).
POSITIONS: dict[str, tuple[str, Callable[[Replay], Frame]]] = {
    "tamsk_claimed_ring": ("p01_opening_and_claim", after_move(7)),
    "tamsk_forfeit_and_second_ring": ("p02_forfeit_adjusted", forfeit),
    "tamsk_dead_glass_blocks": ("s05_dead_glass_blocks_and_never_moves", last),
    "tamsk_full_space_loses": ("s02_full_edge_space_loses", last),
    "tamsk_level1_no_sand": ("s29_level1_tie", last),
    "tantrix_discovery_loop": ("t01_discovery_red_loop", last),
    "tantrix_forced_and_controlled": ("t35_full_game_four_players", after_move(30)),
    "tantrix_open_forced_spaces": ("t36_full_game_open_forced_spaces", last),
}


def drawn(name: str) -> tuple[Replay, Frame, Image.Image]:
    scenario_name, pick = POSITIONS[name]
    replay = load(scenario(scenario_name))
    frame = pick(replay)
    return replay, frame, picture(replay, frame)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_known_positions_are_drawn_exactly_as_the_reference(name: str) -> None:
    _, _, image = drawn(name)
    path = REFERENCE / f"{name}.png"
    if os.environ.get("COMPANION_REDRAW_REFERENCE"):
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
    assert path.exists(), f"no reference image {path}: draw it (see this module's docstring)"
    with Image.open(path) as ref:
        ref.load()
        assert ref.size == image.size
        diff = ImageChops.difference(ref.convert("RGB"), image.convert("RGB")).getbbox()
        assert diff is None, f"{name} differs from its reference in the box {diff}"


def test_a_picture_is_the_same_drawn_from_scratch_or_from_cached_sprites() -> None:
    replay, frame, first = drawn("tantrix_forced_and_controlled")
    shapes._SPRITES.clear()
    again = picture(replay, frame)
    assert first.tobytes() == again.tobytes()


# ---------------------------------------------------------------------------------- Tamsk


def pixel(image: Image.Image, x: float, y: float) -> int:
    value = image.getpixel((round(x), round(y)))
    assert isinstance(value, int)
    return value


def test_each_glass_stands_on_its_space_in_its_colour() -> None:
    _, frame, image = drawn("tamsk_forfeit_and_second_ring")
    for name, glass in frame.state["glasses"].items():
        x, y = centre(glass["space"])
        ink = Ink.RED if name.startswith("r") else Ink.BLACK
        assert pixel(image, x, y + GLASS_DY + 10) == ink, name


def test_a_lost_glass_is_grey_and_crossed_out() -> None:
    _, frame, image = drawn("tamsk_dead_glass_blocks")
    lost = [g for g in frame.state["glasses"].values() if g["dead"]]
    assert lost
    for glass in lost:
        x, y = centre(glass["space"])
        assert pixel(image, x, y + GLASS_DY + 10) == Ink.PALE
        assert pixel(image, x - 10, y + GLASS_DY - 10) == Ink.DEAD


def test_each_space_shows_its_rings_out_of_its_capacity() -> None:
    _, frame, image = drawn("tamsk_claimed_ring")
    occupied = {g["space"] for g in frame.state["glasses"].values()}
    for space, capacity in CAPACITY.items():
        rings = frame.state["spaces"].get(space, 0)
        dots = [pixel(image, x, y) for x, y in pips(space, capacity)]
        assert dots == [Ink.RING] * rings + [Ink.SPACE] * (capacity - rings), space
        if space not in occupied:
            assert f"{rings}/{capacity}" in {t.text for t in _texts(frame)}


def _texts(frame: Frame) -> list[shapes.Text]:
    out: list[shapes.Text] = []

    def walk(items: tuple[shapes.Shape, ...] | list[shapes.Shape]) -> None:
        for s in items:
            if isinstance(s, shapes.Text):
                out.append(s)
            elif isinstance(s, shapes.Sprite):
                walk(s.shapes)
            elif isinstance(s, shapes.Group):
                walk(s.children)

    walk(tamsk_pic.shapes(frame))
    return out


def test_a_full_space_is_shaded() -> None:
    _, frame, image = drawn("tamsk_full_space_loses")
    full = [s for s, n in frame.state["spaces"].items() if n >= CAPACITY[s]]
    assert full
    for space in full:
        x, y = centre(space)
        assert pixel(image, x - 14, y + 12) == Ink.FULL  # clear of glass, pips and arrow


def test_the_arc_around_a_glass_shows_the_sand_left() -> None:
    _, frame, image = drawn("tamsk_forfeit_and_second_ring")
    for name, glass in frame.state["glasses"].items():
        fraction = glass["sand"] / glass["period"]
        assert 0.1 < fraction < 0.9, name
        x, y = centre(glass["space"])
        for share, ink in ((fraction / 2, Ink.SAND), ((1 + fraction) / 2, Ink.PALE)):
            angle = math.radians(-90 + 360 * share)
            assert pixel(image, x + 22 * math.cos(angle), y + 22 * math.sin(angle)) == ink


def test_level_1_glasses_have_no_sand_arc() -> None:
    _, frame, image = drawn("tamsk_level1_no_sand")
    for glass in frame.state["glasses"].values():
        x, y = centre(glass["space"])
        assert pixel(image, x, y - 22) != Ink.SAND


def test_the_svg_names_every_space_with_its_rings_and_capacity() -> None:
    replay, frame, _ = drawn("tamsk_claimed_ring")
    root = ET.fromstring(svg(replay, frame))
    spaces = {g.get("data-space"): g for g in root.iter(f"{SVG}g") if g.get("data-space")}
    assert set(spaces) == set(CAPACITY)
    for space, g in spaces.items():
        assert g.get("data-capacity") == str(CAPACITY[space])
        assert g.get("data-rings") == str(frame.state["spaces"].get(space, 0))
    glasses = {g.get("data-glass"): g for g in root.iter(f"{SVG}g") if g.get("data-glass")}
    for name, glass in frame.state["glasses"].items():
        assert glasses[name].get("data-on") == glass["space"]
        assert glasses[name].get("data-dead") == "false"


def test_the_svg_marks_a_lost_glass() -> None:
    replay, frame, _ = drawn("tamsk_dead_glass_blocks")
    root = ET.fromstring(svg(replay, frame))
    dead = {g.get("data-glass") for g in root.iter(f"{SVG}g") if g.get("data-dead") == "true"}
    assert dead == {n for n, g in frame.state["glasses"].items() if g["dead"]}


# ---------------------------------------------------------------------------------- Tantrix


def test_tiles_show_the_colour_of_each_side() -> None:
    replay, frame, image = drawn("tantrix_discovery_loop")
    layout = tantrix_pic.Layout(replay.cells)
    h = layout.side * math.sqrt(3) / 2
    w = max(2, round(layout.side * 0.3))
    for t in frame.state["tiles"]:
        x, y = layout.centre((t["q"], t["r"]))
        code = code_of(t["tile"], t["rot"])
        for side in range(6):
            a = math.radians(-60 + 60 * side)
            px = x + 0.9 * h * math.cos(a) - w / 3 * math.sin(a)
            py = y + 0.9 * h * math.sin(a) + w / 3 * math.cos(a)
            assert pixel(image, px, py) == TANTRIX[COLOURS[SIDE_COLOUR[code][side]]]


def test_each_players_scoring_chain_is_traced_in_white() -> None:
    replay, frame, image = drawn("tantrix_discovery_loop")
    layout = tantrix_pic.Layout(replay.cells)
    h = layout.side * math.sqrt(3) / 2
    for player, chain in frame.state["chains"].items():
        assert chain["cells"]
        for q, r in chain["cells"]:
            tile = next(t for t in frame.state["tiles"] if (t["q"], t["r"]) == (q, r))
            ends = ENDS[code_of(tile["tile"], tile["rot"])][COLOURS.index(player)]
            assert ends is not None
            x, y = layout.centre((q, r))
            a = math.radians(-60 + 60 * ends[0])
            assert pixel(image, x + 0.9 * h * math.cos(a), y + 0.9 * h * math.sin(a)) == Ink.TRACE


def test_forced_spaces_are_shaded_and_controlled_cells_grey() -> None:
    replay, frame, image = drawn("tantrix_forced_and_controlled")
    layout = tantrix_pic.Layout(replay.cells)
    assert frame.state["forced"] and frame.state["controlled"]
    for cells, ink in ((frame.state["forced"], Ink.FORCED),
                       (frame.state["controlled"], Ink.CONTROLLED)):
        for q, r in cells:
            x, y = layout.centre((q, r))
            assert pixel(image, x, y + layout.side // 2) == ink


def test_the_tantrix_svg_holds_tiles_forced_spaces_and_traces() -> None:
    replay, frame, _ = drawn("tantrix_forced_and_controlled")
    root = ET.fromstring(svg(replay, frame))
    groups = list(root.iter(f"{SVG}g"))
    tiles = {g.get("data-tile") for g in groups if g.get("data-tile")}
    assert tiles == {str(t["tile"]) for t in frame.state["tiles"]}
    forced = {g.get("data-cell") for g in groups if g.get("data-kind") == "forced"}
    assert forced == {f"{q},{r}" for q, r in frame.state["forced"]}
    traces = {g.get("data-trace"): g for g in groups if g.get("data-trace")}
    assert set(traces) == set(frame.state["players"])
    for player, g in traces.items():
        assert g.get("data-tiles") == str(len(frame.state["chains"][player]["cells"]))


@pytest.mark.parametrize("name", ["s36_free_start", "s38_positions_unknown_tilt_only"])
def test_a_glass_off_the_board_or_somewhere_unknown_is_not_drawn(name: str) -> None:
    replay = load(scenario(name))
    for frame in replay.frames:
        image = picture(replay, frame)
        assert image.size == tamsk_pic.SIZE
        root = ET.fromstring(svg(replay, frame))
        drawn_on = {g.get("data-glass"): g.get("data-on") for g in root.iter(f"{SVG}g")
                    if g.get("data-glass")}
        known = {n: g["space"] for n, g in frame.state["glasses"].items() if g["space"]}
        assert drawn_on == known


#: Replay pictures in the players' language: reference name -> (language, English position).
IN_LANGUAGES = {
    "fr_tamsk_full_space_loses": ("fr", "tamsk_full_space_loses"),
    "cs_tamsk_forfeit_and_second_ring": ("cs", "tamsk_forfeit_and_second_ring"),
    "fr_tantrix_forced_and_controlled": ("fr", "tantrix_forced_and_controlled"),
    "cs_tantrix_discovery_loop": ("cs", "tantrix_discovery_loop"),
}


@pytest.mark.parametrize("name", sorted(IN_LANGUAGES))
def test_a_replay_picture_speaks_the_players_language(name: str) -> None:
    from companion import i18n

    lang, position = IN_LANGUAGES[name]
    i18n.use(lang)
    _, _, image = drawn(position)
    path = REFERENCE / f"{name}.png"
    if os.environ.get("COMPANION_REDRAW_REFERENCE"):
        image.save(path)
    with Image.open(path) as ref:
        ref.load()
        diff = ImageChops.difference(ref.convert("RGB"), image.convert("RGB")).getbbox()
        assert diff is None, f"{name} differs from its reference in the box {diff}"
