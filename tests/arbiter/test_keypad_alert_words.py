"""A keypad table's refused input on the arbiter's page, in the arbiter's language: the game's
own words for the rules' reason, a Tantrix cell named as the table's map names it (never by
axial coordinates), a Tokami player's name kept."""

from __future__ import annotations

from pathlib import Path

from companion import i18n
from tests.arbiter.keys import TrustingView
from tests.arbiter.test_web_games import (
    PREFIX,
    TANTRIX_HEADER,
    TANTRIX_MOVES,
    TANTRIX_REFUSED,
    TOKAMI_HEADER,
    TOKAMI_MOVES,
    TOKAMI_REFUSED,
    journal,
    publish,
)


def refused(tmp_path: Path, table: int) -> str:
    view = TrustingView(PREFIX)
    tmp_path = tmp_path / i18n.language()  # a journal of its own for each language
    tmp_path.mkdir()
    if table == 1:
        records = journal(tmp_path / "t.jsonl", TANTRIX_HEADER, [*TANTRIX_MOVES, TANTRIX_REFUSED])
    else:
        records = journal(tmp_path / "k.jsonl", TOKAMI_HEADER, [*TOKAMI_MOVES, TOKAMI_REFUSED])
    publish(view, table, records, now=100.0)
    alerts = view.table_json(table, now=100.0)["alerts"]
    assert [a["kind"] for a in alerts] == ["refused"]
    return str(alerts[0]["text"])


def test_a_refused_tantrix_tile_names_the_cell_as_the_table_s_map_does(tmp_path: Path) -> None:
    # tile 2 on (1, 0), which tile 7 holds: row c, column 3 of the map
    assert refused(tmp_path, 1) == "refused (yellow): c3 already holds tile 7"


def test_a_refused_tantrix_tile_is_said_in_french_and_czech(tmp_path: Path) -> None:
    i18n.use("fr")
    assert refused(tmp_path, 1) == "refusé (jaune) : c3 porte déjà la tuile 7"
    i18n.use("cs")
    assert refused(tmp_path, 1) == "odmítnuto (žlutá): na c3 už leží destička 7"


def test_a_refused_tokami_turn_keeps_its_english_words(tmp_path: Path) -> None:
    assert refused(tmp_path, 2) == ("refused (Anna): 10 red blocks cannot come off the cross: "
                                    "only 3 red left")


def test_a_refused_tokami_turn_is_said_in_french_and_czech_with_the_name_kept(
    tmp_path: Path,
) -> None:
    i18n.use("fr")
    said = refused(tmp_path, 2)
    assert said.startswith("refusé (Anna) : 10 blocs (rouge) ne peuvent pas quitter la croix")
    i18n.use("cs")
    said = refused(tmp_path, 2)
    assert said.startswith("odmítnuto (Anna): 10 kostky") and "kříže" in said
