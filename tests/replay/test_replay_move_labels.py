"""A replay shows each line of the game in the players' language; the notation file stays the
record.

The move list (``--list``), the headings, the HTML viewer's list and readout and the pictures'
titles show a line as the players read it: ``r1 b2-c3 +anneau`` in French, a Tantrix cell by the
row letter and column number drawn on the replay's board (``#55 c4 r1``), as its remarks name
it. The notation file (``companion notation``) is the record that readers parse and journals
and tests compare byte for byte: it keeps the English words and the engine's coordinates in
every language. In English a Tamsk or Tokami line is shown exactly as the notation writes it.
"""

from __future__ import annotations

import json
import re

import pytest

from companion import i18n
from companion.replay import load
from companion.replay.cli import main
from companion.replay.html import page
from companion.replay.kinds import of
from companion.replay.model import Replay
from companion.replay.text import move_list
from companion.tantrix.picture import Layout
from tests.replay.games import SCENARIOS, TAMSK, TANTRIX, scenario

FORFEIT = scenario("p02_forfeit_adjusted")  # rings, a T15, a forfeit and a second ring, end
LOOP = scenario("t01_discovery_red_loop")
TOKAMI = SCENARIOS / "tokami" / "k11_several_rounds_add_up.jsonl"
TOKAMI_GAMES = sorted((SCENARIOS / "tokami").glob("*.jsonl"))
#: A placement as a replay shows it: colour, tile, cell name, rotation.
PLACED = re.compile(r"#(\d+) ([a-z]+\d+) r[0-5]")


def listed(path: object, lang: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    i18n.use(lang)
    assert main(["replay", str(path), "--list"]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(
    ("lang", "tamsk", "tantrix", "tokami"),
    [
        ("fr", ["  1. r1 a1-a2 +anneau @0:03.0", "       noir T15 @0:30.0",
                "       -- rouge perd son tour, noir 2 anneaux @0:45.0"],
         ["  2. bleu #2 b3 r4 @0:02.0 a fini son tour@0:03.0"],
         ["  1. Anna: rouge monté, +bleu @0:01.0", "  2. Ben: tombés rouge @0:02.0",
          "  3. Anna: bleu pas monté @0:03.0"]),
        ("cs", ["  1. r1 a1-a2 +kroužek @0:03.0", "       černý T15 @0:30.0",
                "       -- červený ztrácí tah, černý 2 kroužky @0:45.0"],
         ["  2. modrá #2 b3 r4 @0:02.0 ukončila tah@0:03.0"],
         ["  1. Anna: červená výš, +modrá @0:01.0", "  2. Ben: spadly červená @0:02.0",
          "  3. Anna: modrá ne výš @0:03.0"]),
    ],
)
def test_the_move_list_is_in_the_players_language(
    lang: str, tamsk: list[str], tantrix: list[str], tokami: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    for path, lines in ((FORFEIT, tamsk), (LOOP, tantrix), (TOKAMI, tokami)):
        shown = [line.split("  ;")[0] for line in listed(path, lang, capsys)]
        assert set(lines) <= set(shown), (lang, path)


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_the_notation_file_stays_the_english_record_in_every_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (FORFEIT, LOOP, TOKAMI):
        i18n.use("en")
        assert main(["notation", str(path)]) == 0
        english = capsys.readouterr().out
        i18n.use(lang)
        assert main(["notation", str(path)]) == 0
        assert capsys.readouterr().out == english
    assert main(["notation", str(LOOP)]) == 0
    record = capsys.readouterr().out
    assert "2. blue #2 (1,0) r4 @0:02.0 done@0:03.0\n" in record


def test_a_tantrix_line_names_its_cell_as_the_picture_letters_that_tile() -> None:
    for path in TANTRIX:
        replay = load(path)
        board = Layout(replay.cells).frame
        for frame in replay.frames:
            if frame.move and frame.highlight is not None and PLACED.search(frame.shown):
                q, r = frame.highlight
                assert PLACED.search(frame.shown).group(2) == board.label_of(q, r), path


def test_no_shown_tantrix_line_has_axial_coordinates_but_the_notation_does() -> None:
    replay = load(LOOP)
    assert [f.shown for f in replay.frames if re.search(r"\(-?\d+,-?\d+\)", f.shown)] == []
    assert "(0,0)" in replay.notation()


@pytest.mark.parametrize("path", TAMSK + TOKAMI_GAMES, ids=lambda p: p.stem)
def test_an_english_tamsk_or_tokami_line_is_shown_as_the_notation_writes_it(path: object) -> None:
    replay = load(str(path))
    assert [f.shown for f in replay.frames[1:]] == [str(f.label) for f in replay.frames[1:]]


def test_an_english_tamsk_list_is_unchanged() -> None:
    assert move_list(load(FORFEIT)).splitlines()[:8] == [
        "  1. r1 a1-a2 +ring @0:03.0",
        "  2. b3 a4-b5 +ring @0:07.0",
        "  3. r3 g1-f1 +ring @0:11.0",
        "  4. b1 d1-e1 +ring @0:15.0",
        "  5. r2 d7-c6 +ring @0:19.0",
        "  6. b2 g4-g3 +ring @0:23.0",
        "       black T15 @0:30.0",
        "       -- red forfeit, black 2 rings @0:45.0  ; red forfeits the turn: the 15 s ran "
        "out at 0:45.0; black may drop a second ring on any space not full",
    ]


def viewer(replay: Replay) -> tuple[str, list[str]]:
    """The HTML viewer's page and the readout label of each frame."""
    html = page(replay)
    data = html.split('id="frames">', 1)[1].split("</script>", 1)[0]
    return html, [f["label"] for f in json.loads(data)["frames"]]


@pytest.mark.parametrize(("lang", "word"), [("fr", "+anneau"), ("cs", "+kroužek")])
def test_the_html_viewer_lists_and_reads_out_lines_in_the_players_language(
    lang: str, word: str
) -> None:
    i18n.use(lang)
    replay = load(FORFEIT)
    html, labels = viewer(replay)
    first = f"r1 a1-a2 {word} @0:03.0"
    assert labels[1] == first
    assert f'<span class="label">{first}</span>' in html
    assert "+ring" not in html.split('id="frames">', 1)[0]


@pytest.mark.parametrize(("lang", "shown"), [("fr", "bleu #2 b3 r4"), ("cs", "modrá #2 b3 r4")])
def test_a_picture_title_is_in_the_players_language(lang: str, shown: str) -> None:
    i18n.use(lang)
    replay = load(LOOP)
    frame = replay.frame_after_move(2)
    svg = of(replay.game).svg(replay, frame)
    assert f"<title>{shown} @0:02.0" in svg
    assert f">{shown}<" in svg  # the panel's heading, without its time
