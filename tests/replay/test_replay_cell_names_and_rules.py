"""A replay names Tantrix cells as its board letters them, and says a refusal's rule in words.

The rule book's players find a cell by the letters down the map's edge and the numbers along its
top (``c4``), never by the engine's axial coordinates; the replay's picture letters its board as
the table's screen letters its map, by the whole game's cells, and every remark (text, terminal,
HTML, picture) names a cell by that board. A refusal's rule (``occupied``, ``forbidden block``)
is a code in the journal and the notation, and words in the players' language on a replay. The
notation file keeps the English remarks with exact coordinates and codes, whatever the language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import say
from companion.replay import load
from companion.replay.html import page
from companion.replay.kinds import of
from companion.replay.model import Replay
from companion.replay.text import frame_text, move_list
from companion.tantrix.picture import Layout
from tests.replay.games import SCENARIOS, scenario

#: How the engine writes a cell: ``(2, -1)`` (a notation label writes ``(2,-1)``, no space).
AXIAL = re.compile(r"\(-?\d+, -?\d+\)")
FULL_GAME = scenario("t36_full_game_open_forced_spaces")
REFUSED = scenario("t44_times_optional")  # (2, 0) touches no tile
UNDONE = scenario("t27_undo_returns_the_turn")  # takes back tile 1 from (0, 0)
TOKAMI = SCENARIOS / "tokami" / "k07_forbidden_block_cannot_be_moved_or_taken.jsonl"
TAMSK = scenario("s05_dead_glass_blocks_and_never_moves")


def fills(replay: Replay) -> list[tuple[tuple[int, int], str]]:
    """Each forced space filled, with the words the replay shows for it."""
    return [(tuple(f.highlight), say(m)) for f in replay.frames for m in f.marks
            if str(m).startswith("fills the forced space")]


def test_a_filled_forced_space_is_named_by_the_letter_and_number_drawn_beside_it() -> None:
    replay = load(FULL_GAME)
    board = Layout(replay.cells).frame
    filled = fills(replay)
    assert len(filled) > 10
    for (q, r), words in filled:
        assert words == f"fills the forced space {board.label_of(q, r)}"


def test_no_remark_of_a_tantrix_replay_shows_axial_coordinates() -> None:
    for path in (FULL_GAME, REFUSED, UNDONE):
        replay = load(path)
        shown = [move_list(replay)] + [frame_text(replay, f) for f in replay.frames]
        data = page(replay).split('id="frames">', 1)[1].split("</script>", 1)[0]
        shown += [m for f in json.loads(data)["frames"] for m in f["marks"]]
        assert [s for s in shown if AXIAL.search(s)] == []
    assert "b4 touches no tile (not touching)" in move_list(load(REFUSED))
    assert "takes back tile 1 from b2" in move_list(load(UNDONE))


def test_the_notation_keeps_the_exact_coordinates_and_the_rule_codes() -> None:
    english = load(REFUSED).notation()
    assert "(2, 0) touches no tile (not touching)" in english
    assert "fills the forced space (" in load(FULL_GAME).notation()
    i18n.use("fr")
    assert load(REFUSED).notation() == english


@pytest.mark.parametrize(("lang", "fill", "refusal", "undo"), [
    ("fr", "remplit l'espace forcé {cell}", "refusé : b4 ne touche aucune tuile (sans contact)",
     "reprend la tuile 1 en b2"),
    ("cs", "zaplňuje vynucené pole {cell}", "odmítnuto: b4 se nedotýká žádné destičky "
     "(nedotýká se)", "bere zpět destičku 1 z b2"),
])
def test_cells_and_rules_are_said_in_french_and_czech(lang: str, fill: str, refusal: str,
                                                       undo: str) -> None:
    i18n.use(lang)
    replay = load(FULL_GAME)
    board = Layout(replay.cells).frame
    for (q, r), words in fills(replay):
        assert words == fill.format(cell=board.label_of(q, r))
    assert refusal in move_list(load(REFUSED))
    assert undo in move_list(load(UNDONE))


def test_the_terminal_map_letters_rows_and_numbers_columns_like_the_picture() -> None:
    replay = load(REFUSED)
    text = frame_text(replay, replay.frames[-1])
    names = Layout(replay.cells).names
    lines = text.splitlines()
    top = next(k for k, line in enumerate(lines) if re.fullmatch(r" +[\d ]+", line))
    numbers = lines[top].split()
    legend = next(k for k, line in enumerate(lines) if "tile numbers on the map" in line)
    rows = lines[top + 1:legend]
    # tile 1 lies at (0, 0): in the row and the column the picture names "b2"
    assert names.name(0, 0) == "b2"
    assert [line.split()[0] for line in rows] == ["a", "b", "c"]
    tile_row = next(line for line in rows if re.search(r"\s1(\s|$)", line))
    assert tile_row.split()[0] == "b" and "2" in numbers
    assert "b4 touches no tile (not touching)" in text  # the refused inputs, named too
    i18n.use("fr")
    replay = load(REFUSED)
    assert "b4 ne touche aucune tuile (sans contact)" in frame_text(replay, replay.frames[-1])


def test_the_replay_picture_writes_the_row_letters_and_column_numbers_on_every_frame(
        ) -> None:
    replay = load(FULL_GAME)
    board = Layout(replay.cells).frame
    game = of("tantrix")
    frame = next(f for f in replay.frames if f.highlight is not None and f.index > 5)
    q, r = frame.highlight
    name = board.label_of(q, r)
    letter, number = name[0], name[1:]
    for svg in (game.svg(replay, replay.frames[0]), game.svg(replay, frame)):
        texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg.split('data-names=', 1)[1]
                           .split("</g>", 1)[0])
        assert letter in texts and number in texts
    static = page(replay).split('<g id="static">', 1)[1].split('<g id="dyn">', 1)[0]
    assert f">{letter}</text>" in static and f">{number}</text>" in static


@pytest.mark.parametrize(("path", "english", "fr", "cs"), [
    (REFUSED, "(not touching)", "(sans contact)", "(nedotýká se)"),
    (TOKAMI, "(forbidden block)", "(bloc interdit)", "(zakázaná kostka)"),
    (TAMSK, "(dead-glass)", "(sablier perdu)", "(ztracené hodiny)"),
])
def test_a_refusals_rule_is_said_in_the_players_language(path: Path, english: str, fr: str,
                                                          cs: str) -> None:
    assert english in move_list(load(path))
    for lang, words in (("fr", fr), ("cs", cs)):
        i18n.use(lang)
        shown = move_list(load(path))
        assert words in shown and english not in shown
