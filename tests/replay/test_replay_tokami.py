"""Tokami replays: the turns folded through the engine, the score sheet drawn, the notation.

The reference PNGs ``tests/reference/replay/tokami_*.png`` were drawn by this code and checked
by eye, enlarged. After a deliberate change of the drawing, redraw them with
``COMPANION_REDRAW_REFERENCE=1 pytest tests/replay/test_replay_tokami.py`` and look at them
again before committing.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion import notation
from companion.replay import Frame, Replay, build, load
from companion.replay.cli import frame_text, main, step_through
from companion.replay.html import page
from companion.replay.palette import Ink
from companion.scenario import MalformedInput
from companion.simulate import load as load_file
from companion.simulate import simulate_file, simulator_for
from companion.tokami import notation as tokami_notation
from companion.tokami import picture as pic
from tests.replay.games import REFERENCE, SCENARIOS
from tests.tables.driving import seat

TOKAMI = sorted((SCENARIOS / "tokami").glob("*.jsonl"))
SVG = "{http://www.w3.org/2000/svg}"
CONTRACT = {"t", "ev", "player", "block", "bonus", "fallen", "in_hand"}
RIGHT, LEFT, END = "\x1b[C", "\x1b[D", "\x1b[F"


def tokami(name: str) -> Path:
    return SCENARIOS / "tokami" / f"{name}.jsonl"


def ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


# ---------------------------------------------------------------------------------- the fold


@pytest.mark.parametrize("path", TOKAMI, ids=ids(TOKAMI))
def test_the_last_frame_is_what_companion_simulate_reports(path: Path) -> None:
    assert load(path).frames[-1].state == simulate_file(path)


@pytest.mark.parametrize("path", TOKAMI, ids=ids(TOKAMI))
def test_every_input_is_one_line_and_one_frame(path: Path) -> None:
    replay = load(path)
    assert replay.records == len(load_file(path).scenario.events)
    assert len(replay.frames) == replay.records + 1
    assert [f.record for f in replay.frames] == [None, *range(1, replay.records + 1)]


def test_each_frame_is_the_simulation_of_the_game_up_to_its_line() -> None:
    path = tokami("k17_undo_takes_back_a_turn")
    loaded = load_file(path).scenario
    replay = load(path)
    for k, frame in enumerate(replay.frames[1:], start=1):
        expected = simulator_for("tokami").simulate(loaded.header, loaded.events[:k])
        assert frame.state == expected, k


def test_a_bonus_that_discards_malus_says_so() -> None:
    frame = load(tokami("k04_bonus_discards_malus_of_its_colour")).frames[-1]
    assert "discards 2 blue malus" in frame.marks
    assert "Anna: +3, total 0" in frame.marks


def test_the_end_of_a_round_and_of_the_game_are_marked() -> None:
    replay = load(tokami("k11_several_rounds_add_up"))
    marks = [m for f in replay.frames for m in f.marks]
    assert "round 1 over (Anna 1, Ben -1); round 2: Anna starts" in marks
    assert "game over: Anna wins (Anna 0, Ben -2)" in marks


def test_a_refused_turn_is_a_refused_frame_that_changes_nothing() -> None:
    replay = load(tokami("k07_forbidden_block_cannot_be_moved_or_taken"))
    refused = [f for f in replay.frames if f.refused]
    assert refused and all(m.startswith("refused:") for f in refused for m in f.marks)
    for frame in refused:
        before = replay.frames[frame.index - 1].state
        unchanged = {k: v for k, v in frame.state.items() if k not in ("t", "violations")}
        assert unchanged == {k: v for k, v in before.items() if k not in ("t", "violations")}


def test_an_undo_says_which_turn_it_takes_back() -> None:
    replay = load(tokami("k17_undo_takes_back_a_turn"))
    assert "takes back Anna's turn (fell: blue green)" in replay.frames[2].marks


def test_the_position_at_a_time_is_the_one_after_the_last_turn_before_it() -> None:
    replay = load(tokami("k11_several_rounds_add_up"))
    at = replay.at_time(2.5)
    assert at.record == 2
    assert {k: v for k, v in at.state.items() if k != "t"} == {
        k: v for k, v in replay.frame_of_record(2).state.items() if k != "t"
    }


def test_a_header_that_cannot_be_played_is_an_error_on_line_1() -> None:
    with pytest.raises(MalformedInput, match="players") as err:
        build({"game": "tokami"}, [])
    assert err.value.line == 1


def test_lines_that_cannot_be_replayed_are_skipped_with_a_note() -> None:
    events = [
        (2, {"t": 1.0, "ev": "higher", "player": "Anna", "block": "blue"}),
        (3, {"t": 2.0, "ev": "juggle", "player": "Ben"}),
        (4, {"t": 3.0, "ev": "fell", "player": "Ben", "fallen": "blue"}),
        (5, {"t": 0.5, "ev": "declined", "player": "Ben"}),
        (6, {"t": 4.0, "ev": "declined", "player": "Ben"}),
    ]
    replay = build({"game": "tokami", "players": ["Anna", "Ben"]}, events)
    assert [n.split(":")[0] for n in replay.notes] == ["line 3", "line 4", "line 5"]
    assert "newer version" in replay.notes[0]
    assert replay.records == 2 and replay.frames[-1].state["held"]["Ben"]["malus"]["blue"] == 1


# ---------------------------------------------------------------------------------- pictures


def last(r: Replay) -> Frame:
    return r.frames[-1]


def after_line(n: int) -> Callable[[Replay], Frame]:
    """The frame of notation line ``n`` (a refused turn is a line, not a move)."""
    return lambda r: r.frame_of_record(n)


#: Reference name -> (scenario, which frame).
POSITIONS: dict[str, tuple[str, Callable[[Replay], Frame]]] = {
    "tokami_bonus_discards_malus": ("k04_bonus_discards_malus_of_its_colour", last),
    "tokami_two_rounds_game_over": ("k11_several_rounds_add_up", last),
    "tokami_refused_and_forbidden": ("k07_forbidden_block_cannot_be_moved_or_taken",
                                     after_line(3)),
    "tokami_five_players": ("k22_five_players_in_turn_order", last),
}


def drawn(name: str) -> tuple[Replay, Frame, Image.Image]:
    scenario_name, pick = POSITIONS[name]
    replay = load(tokami(scenario_name))
    frame = pick(replay)
    return replay, frame, pic.picture(replay, frame)


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


#: The score sheet in the players' language: reference name -> (language, English position).
IN_LANGUAGES = {
    "fr_tokami_refused_and_forbidden": ("fr", "tokami_refused_and_forbidden"),
    "cs_tokami_two_rounds_game_over": ("cs", "tokami_two_rounds_game_over"),
}


@pytest.mark.parametrize("name", sorted(IN_LANGUAGES))
def test_the_score_sheet_speaks_the_players_language(name: str) -> None:
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


def test_a_picture_is_the_same_every_time_it_is_drawn() -> None:
    replay, frame, first = drawn("tokami_two_rounds_game_over")
    assert pic.picture(replay, frame).tobytes() == first.tobytes()


def _groups(svg: str, attr: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if g.get(f"data-{attr}") is not None]


@pytest.mark.parametrize("path", TOKAMI, ids=ids(TOKAMI))
def test_each_row_shows_the_total_and_the_blocks_held_by_colour(path: Path) -> None:
    replay = load(path)
    frame = replay.frames[-1]
    rows = _groups(pic.picture_svg(replay, frame), "player")
    assert [g.get("data-player") for g in rows] == frame.state["players"]
    for row in rows:
        player = str(row.get("data-player"))
        assert row.get("data-total") == str(frame.state["scores"][player]["total"])
        chips = {(g.get("data-held"), g.get("data-colour")): int(g.get("data-count") or -1)
                 for g in row.iter(f"{SVG}g") if g.get("data-held")}
        held = frame.state["held"][player]
        assert chips == {(pile, colour): n for pile in ("bonus", "malus")
                         for colour, n in held[pile].items()}


def test_the_cross_shows_the_blocks_left_and_rings_the_forbidden_one() -> None:
    replay, frame, image = drawn("tokami_refused_and_forbidden")
    assert frame.state["forbidden"] == "blue"
    crosses = {g.get("data-cross"): g.get("data-left")
               for g in _groups(pic.picture_svg(replay, frame), "cross")}
    assert crosses == {c: str(n) for c, n in frame.state["on_cross"].items()}
    assert Ink.HIGHLIGHT in {value for _, value in image.getcolors() or []}


def test_a_held_colour_is_drawn_in_its_colour() -> None:
    replay, frame, image = drawn("tokami_bonus_discards_malus")
    colours = {value for _, value in image.getcolors() or []}
    assert {Ink.T_RED, Ink.T_YELLOW, Ink.T_GREEN, Ink.T_BLUE} <= colours


def test_colours_the_palette_does_not_know_get_inks_of_their_own() -> None:
    inks = pic.block_inks(["natural", "black", "red", "mauve", "teal"])
    assert inks["natural"] == Ink.PLATE and inks["red"] == Ink.T_RED
    assert inks["mauve"] != inks["teal"]


# ---------------------------------------------------------------------------------- GIF, HTML


def gif_frames(path: Path) -> int:
    with Image.open(path) as im:
        return int(im.n_frames)


def test_the_gif_has_one_frame_per_turn_and_the_start(tmp_path: Path) -> None:
    replay = load(tokami("k22_five_players_in_turn_order"))
    plan = pic.write_gif(replay, tmp_path / "game.gif")
    assert gif_frames(tmp_path / "game.gif") == len(plan.frames) == len(replay.frames)


def test_a_real_time_gif_holds_the_last_turn_until_the_next(tmp_path: Path) -> None:
    replay = load(tokami("k11_several_rounds_add_up"))
    plan = pic.write_gif(replay, tmp_path / "game.gif", speed=1.0, fps=2.0)
    assert gif_frames(tmp_path / "game.gif") == len(plan.frames) > len(replay.frames)
    assert sum(plan.durations[:-1]) == round(replay.duration * 1000)


def test_the_page_draws_every_frame_and_charts_each_players_total() -> None:
    replay = load(tokami("k11_several_rounds_add_up"))
    html = page(replay)
    assert html.count('data-frame="') == len(replay.frames) + 1  # the items and <body>
    assert 'data-player="Anna"' in html and 'data-player="Ben"' in html
    assert 'id="cursor"' in html and "http://" not in html.replace(
        "http://www.w3.org/2000/svg", "")


def test_a_record_without_times_is_charted_by_move() -> None:
    header = {"game": "tokami", "players": ["Anna", "Ben"]}
    events = [(2, {"ev": "higher", "player": "Anna", "block": "blue"}),
              (3, {"ev": "fell", "player": "Ben", "fallen": ["red"]})]
    replay = build(header, events)
    assert pic.axis(replay) == [0.0, 1.0, 2.0]
    assert "by move" in pic.chart(replay)


# ---------------------------------------------------------------------------------- notation


def contract(events: list[tuple[int, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in dict(e).items() if k in CONTRACT} for _, e in events]


@pytest.mark.parametrize("path", TOKAMI, ids=ids(TOKAMI))
def test_the_notation_reads_back_to_the_same_inputs_and_the_same_game(path: Path) -> None:
    loaded = load_file(path).scenario
    text = load(path).notation()
    back = notation.parse(text)
    assert contract(back.events) == contract(loaded.events)
    assert simulator_for("tokami").simulate(back.header, back.events) == simulate_file(path)


def test_the_lines_read_as_a_player_says_them() -> None:
    body = (
        '[game "tokami"]\n[players ["Anna", "Ben"]]\n'
        "1. Anna: blue up, +green @0:12.0\n"
        "2. Ben: fell red,blue (in hand yellow)  ; Ben: -3\n"
        "3. Anna: red not higher @0:20\n"
        "4. Ben: blue up\n"
        "5. Anna: declined\n"
        "6. undo @0:31\n"
        "7. end\n"
    )
    assert [dict(e) for _, e in notation.parse(body).events] == [
        {"t": 12.0, "ev": "bonus", "player": "Anna", "block": "blue", "bonus": "green"},
        {"ev": "fell", "player": "Ben", "fallen": ["red", "blue"], "in_hand": "yellow"},
        {"t": 20.0, "ev": "not_higher", "player": "Anna", "block": "red"},
        {"ev": "higher", "player": "Ben", "block": "blue"},
        {"ev": "declined", "player": "Anna"},
        {"t": 31.0, "ev": "undo"},
        {"ev": "end"},
    ]


def test_names_and_colours_that_are_not_plain_words_are_quoted() -> None:
    event = {"t": 3.0, "ev": "bonus", "player": "Anna Maria", "block": "light blue",
             "bonus": "up"}
    line = tokami_notation.text(event, "bonus")
    assert line == '"Anna Maria": "light blue" up, +"up" @0:03.0'
    text = f'[game "tokami"]\n{line}\n'
    assert [dict(e) for _, e in notation.parse(text).events] == [event]


@pytest.mark.parametrize("line", [
    "Anna: blue sideways", "Anna: fell red blue", "Anna: fell red, (in hand)",
    "Anna: blue up, +", "Anna: declined @0:01 @0:02", "Anna:", '"Anna: blue up',
])
def test_a_line_that_is_not_a_turn_is_refused_with_its_number(line: str) -> None:
    with pytest.raises(MalformedInput) as err:
        notation.parse(f'[game "tokami"]\n[players ["Anna", "Ben"]]\n\n{line}\n')
    assert err.value.line == 4


COLOURS = st.sampled_from(["red", "blue", "green", "yellow", "purple", "light blue", "fell",
                           "12.", 'a"b', "é"])
NAMES = st.sampled_from(["Anna", "Ben", "Chloé", "Anna Maria", "x:y", "raw", "undo", "12."])


@st.composite
def tokami_events(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Tokami inputs as a table may record them, legal or not."""
    out: list[dict[str, Any]] = []
    t = 0.0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["bonus", "higher", "fell", "not_higher", "declined",
                                     "undo", "end"]))
        e: dict[str, Any] = {}
        if draw(st.booleans()):
            t += draw(st.sampled_from([0.0, 0.1 + 0.2, 1.5, 83.057305]))
            e["t"] = t
        e["ev"] = kind
        if kind not in ("undo", "end") or draw(st.booleans()):
            e["player"] = draw(NAMES)
        if kind in ("bonus", "higher", "not_higher"):
            e["block"] = draw(COLOURS)
        if kind == "bonus":
            e["bonus"] = draw(COLOURS)
        if kind == "fell":
            e["fallen"] = draw(st.lists(COLOURS, max_size=4))
            if draw(st.booleans()):
                e["in_hand"] = draw(COLOURS)
        out.append(e)
    return out


@settings(max_examples=60, deadline=None)
@given(tokami_events())
def test_any_recorded_game_reads_back_from_its_notation(events: list[dict[str, Any]]) -> None:
    header = {"game": "tokami", "players": ["Anna", "Ben", "Chloé"]}
    numbered = [(k + 2, e) for k, e in enumerate(events)]
    text = notation.write(header, events)
    back = notation.parse(text)
    assert [dict(e) for _, e in back.events] == events
    assert simulator_for("tokami").simulate(back.header, back.events) == simulator_for(
        "tokami").simulate(header, numbered)


# ---------------------------------------------------------------------------------- the CLI


def table_journal(tmp_path: Path) -> Path:
    """A journal written by the Tokami table from keys typed on a fake clock."""
    s = seat("tokami", tmp_path)
    s.table.start_game(["Anna", "Ben"], blocks={"red": 3, "yellow": 3, "blue": 3})
    s.press("112#")  # Anna: red higher, yellow bonus
    s.press("31#3#")  # Ben: red fell, blue was in his hand
    s.press("A#")  # undo
    s.press("23#")  # Ben again: blue higher, no bonus
    return s.journal


def test_a_journal_from_the_tokami_table_replays_with_no_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = table_journal(tmp_path / "journals")
    replay = load(path)
    assert replay.records >= 2 and replay.frames[-1].state == simulate_file(path)
    out_dir = tmp_path / "out"
    assert main(["replay", str(path), "--png", str(out_dir / "png"), "--gif",
                 str(out_dir / "game.gif"), "--html", str(out_dir / "game.html")]) == 0
    assert len(list((out_dir / "png").glob("frame-*.png"))) == len(replay.frames)
    assert gif_frames(out_dir / "game.gif") == len(replay.frames)
    assert main(["replay", str(path), "--at", "1"]) == 0
    assert main(["replay", str(path), "--list"]) == 0
    assert main(["replay", str(path)]) == 0
    assert main(["notation", str(path), "-o", str(out_dir / "game.txt")]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "Tokami move 1 of" in captured.out
    again = load(out_dir / "game.txt")
    assert again.frames[-1].state == replay.frames[-1].state


def test_at_a_move_prints_the_score_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tokami("k04_bonus_discards_malus_of_its_colour")), "--at",
                 "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tokami move 3 of 3  [0:11.0]  Anna: red up, +blue @0:11.0")
    assert "  * discards 2 blue malus" in out
    assert "Forbidden block: red" in out and "Turn: Ben" in out


def test_the_keys_step_through_a_tokami_game() -> None:
    replay = load(tokami("k11_several_rounds_add_up"))
    screens: list[str] = []
    assert step_through(replay, [RIGHT, RIGHT, LEFT, END, "x", "q", RIGHT],
                        screens.append) == len(replay.frames) - 1
    assert len(screens) == 5
    assert frame_text(replay, replay.frames[-1]) in screens[-1]
