"""The Tantrix screens: golden images of real table situations, and the drawing rules."""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from companion.screens.palette import palette_for
from companion.tantrix.autoplay import random_game
from companion.tantrix.geometry import STEP
from companion.tantrix.screens import (
    BAND_COLOURS,
    chain_text,
    draw_colour_tile,
    hex_centre,
    refusal_title,
    split_refusal,
    tantrix_screen,
)
from tests.tables.driving import play_events, seat
from tests.tables.screen_views import COLOUR, REFERENCE_DIR, TANTRIX_CASES, tantrix_view


def assert_identical_image(reference: Image.Image, drawn: Image.Image, name: str) -> None:
    assert drawn.mode == reference.mode and drawn.size == reference.size, name
    bbox = ImageChops.difference(reference.convert("RGB"), drawn.convert("RGB")).getbbox()
    assert bbox is None, f"{name}: differs from its reference inside {bbox}"


@pytest.mark.parametrize("name", sorted(TANTRIX_CASES))
def test_the_screen_matches_its_reference_image(name: str) -> None:
    path = REFERENCE_DIR / f"{name}.png"
    assert path.exists(), f"no reference for {name}: run tests/tables/screen_views.py"
    with Image.open(path) as reference:
        reference.load()
        assert_identical_image(reference, TANTRIX_CASES[name](), name)


def test_every_tantrix_reference_image_has_a_case() -> None:
    drawn = REFERENCE_DIR.glob("tantrix_*.png")
    stale = sorted(p.stem for p in drawn if p.stem not in TANTRIX_CASES)
    assert stale == []


def test_a_loop_is_shown_when_it_scores_at_least_the_line() -> None:
    assert chain_text({"line": 5, "loop": 3}) == "loop 3"  # 6 points beat 5
    assert chain_text({"line": 6, "loop": 3}) == "loop 3"  # equal: the loop is named
    assert chain_text({"line": 7, "loop": 3}) == "line 7"
    assert chain_text({"line": 1, "loop": 0}) == "line 1"


def test_a_refusal_is_titled_by_the_rule_it_breaks() -> None:
    detail = "(1, 1) touches the forced space at (1, 0), which must be filled first"
    assert split_refusal(f"restriction 2: {detail}") == ("restriction 2", detail)
    assert refusal_title(f"golden rule: {detail}")[0] == "No: golden rule"
    assert refusal_title("there is no tile 57: tiles are 1 to 56") == (
        "Not possible",
        "there is no tile 57: tiles are 1 to 56",
    )


def test_each_side_of_a_drawn_hexagon_faces_the_neighbour_the_engine_puts_there() -> None:
    for side, (dq, dr) in enumerate(STEP):
        x, y = hex_centre(dq, dr, 10.0)
        angle = math.degrees(math.atan2(y, x))
        assert round(angle) % 360 == (-60 + 60 * side) % 360
        assert math.isclose(math.hypot(x, y), 10.0 * math.sqrt(3))


def test_a_tile_is_drawn_with_each_band_in_its_colour_at_its_sides() -> None:
    sides = ("red", "red", "blue", "yellow", "yellow", "blue")
    image = Image.new("RGB", (40, 40))
    draw_colour_tile(ImageDraw.Draw(image), 20, 20, 14.0, sides)
    for side, colour in enumerate(sides):
        a = math.radians(-60 + 60 * side)
        d = 14.0 * math.sqrt(3) / 2 - 1.5
        x, y = round(20 + d * math.cos(a)), round(20 + d * math.sin(a))
        near = {image.getpixel((x + i, y + j)) for i in (-1, 0, 1) for j in (-1, 0, 1)}
        assert BAND_COLOURS[colour] in near, (side, colour)


def _warning_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    amber = palette_for("RGB").warning
    colours = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return sum(count for count, colour in colours if colour == amber)


def test_the_candidate_spot_is_rimmed_white_when_it_fits_and_amber_when_it_clashes() -> None:
    size, mode = COLOUR
    fits = tantrix_screen(tantrix_view("place"), size=size, mode=mode)
    clash = tantrix_screen(tantrix_view("clash"), size=size, mode=mode)
    the_map = (0, 12, 82, 84)
    assert _warning_pixels(fits, the_map) == 0
    assert _warning_pixels(clash, the_map) > 0


def test_a_refusal_replaces_the_hints_until_the_next_key() -> None:
    size, mode = COLOUR
    refused = tantrix_screen(tantrix_view("refused"), size=size, mode=mode)
    clash = tantrix_screen(tantrix_view("clash"), size=size, mode=mode)
    below_the_map = (0, 86, 128, 128)
    assert _warning_pixels(refused, below_the_map) > _warning_pixels(clash, below_the_map)


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    tiles=st.integers(0, 56),
    keys=st.sampled_from(["", "1", "D", "D3", "D4", "D2", "#"]),
)
def test_any_table_draws_on_every_panel(seed: int, players: int, tiles: int, keys: str) -> None:
    colours = ("red", "yellow", "green", "blue")[:players]
    with tempfile.TemporaryDirectory() as folder:
        s = seat("tantrix", Path(folder))
        s.table.start_game(list(colours))
        play_events(s, random_game(random.Random(seed), colours, stop_after=tiles).events)
        game = s.table.game
        spare = next((t for t in range(1, 57) if game.legal_placements(t)), None)
        views = [s.view]
        s.press(keys)
        views.append(s.view)
        if spare is not None:
            s.press(f"*{spare}#")
            views.append(s.view)
        s.table.close()
    for view in views:
        for size, mode in (((128, 64), "1"), ((128, 128), "RGB"), ((256, 64), "L")):
            image = tantrix_screen(view, size=size, mode=mode)
            assert image.size == size and image.mode == mode
            assert image.crop((0, 0, size[0], 10)).getbbox() is not None  # a title bar


def test_the_screen_names_forced_spaces_and_must_fill_hints_as_its_map_does() -> None:
    """No axial ``q,r`` on the screen: the names are CellNames of the drawn table."""
    from companion.tantrix.cellnames import CellNames
    from companion.tantrix.screens import _forced_cells

    view = tantrix_view("midgame")
    names = CellNames.of_view(view)
    forced = view.get("forced") or []
    assert forced, "the midgame case has a forced space"
    assert _forced_cells(view) == [names.name(q, r) for q, r in forced]
    assert not any("," in cell for cell in _forced_cells(view))


def lines_drawn(view: dict[str, object], monkeypatch: pytest.MonkeyPatch,
                size: tuple[int, int] = (128, 64), mode: str = "1") -> list[str]:
    """Every line of text the Tantrix screen drew itself."""
    from companion.tantrix import screens

    said: list[str] = []
    original = screens.draw_text
    with monkeypatch.context() as m:
        m.setattr(screens, "draw_text",
                  lambda draw, x, y, text, fill: said.append(text) or original(draw, x, y, text,
                                                                              fill))
        screens.tantrix_screen(view, size=size, mode=mode)
    return said


@pytest.mark.parametrize("panel", [((128, 64), "1"), COLOUR])
def test_forced_spaces_that_do_not_fit_the_line_are_counted_not_cut(
    panel: tuple[tuple[int, int], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    view = tantrix_view("midgame")
    view["forced"] = [[q, 9] for q in range(-3, 5)]  # eight open forced spaces
    line = next(t for t in lines_drawn(view, monkeypatch, *panel) if t.startswith("forced: "))
    shown = line.split(": ")[1].split()
    assert shown[-1].startswith("+") and not line.endswith("~")
    assert len(shown) - 1 + int(shown[-1][1:]) == 8  # the names shown and the count: all of them


def test_a_forced_space_line_that_fits_names_every_space() -> None:
    from companion.tantrix.screens import with_cells

    assert with_cells("restricted !", ["d2", "b5"], 21) == "restricted ! d2 b5"
    many = ["j3", "e5", "a1", "k12", "c4"]
    assert with_cells("restricted !", many, 21) == "restricted ! j3 e5 +3"
    assert with_cells("!", [], 21) == "!"
