"""TRF-2016 both ways: every field in its columns, names as written, round trips, and files
as Swiss Manager and Vega write them (typed here by hand from the TRF-2016 layout and those
programs' exports: header lines 012-132, CRLF or CR, Windows-1252 names, cut lines)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.tournament.fide import trf
from companion.tournament.fide.history import (
    Bye,
    Entrant,
    FideError,
    Game,
    History,
    Round,
    Scoring,
    records,
)


def _line(no: int, name: str, rating: int | str, pts: str, rank: int | str,
          *rounds: str, sex: str = "", fed: str = "") -> str:
    """A 001 line, each field at its TRF-2016 column (typed the way the exports lay it out)."""
    text = (f"001 {no:4d} {sex:1}{'':>3} {name:<33} {rating:>4} {fed:<3} {'':>11} {'':<10} "
            f"{pts:>4} {rank:>4}")
    return (text + "".join("  " + r for r in rounds)).rstrip()


def _history() -> History:
    players = (
        Entrant(1, "Müller, Zoë", 2312, "WIM", "w", "GER", "24601234", "1999/04/02", 1),
        Entrant(2, "Łukasz Żółć", 2250, "FM", "m", "POL", "1170000", "2001", 2),
        Entrant(3, "Novák, Jiří", 1980, "", "m", "CZE", "", "", 3),
        Entrant(4, "Podzimní, Eliška", 0, "", "w", "", "", "", 4),
        Entrant(5, "Späť, Ondřej", 0, "", "m", "SVK", "", "", 5, late_from=2),
    )
    r1 = Round((Game(1, 3, "1-0"), Game(4, 2, "+-")), (Bye(5, "zero"),))
    r2 = Round((Game(2, 1, "1/2"), Game(3, 5, "0-1")), (Bye(4, "pab"),))
    r3 = Round((Game(1, 5, "--"), Game(4, 3, "0-1")), (Bye(2, "half"),))
    return History(players, (r1, r2, r3), 5, Scoring(pab=0.5))


def test_player_line_fields_in_their_columns() -> None:
    text = trf.write(_history(), trf.Header(name="Podzimní Tamsk"))
    line = next(ln for ln in text.split("\r\n") if ln.startswith("001    1"))
    assert line[0:3] == "001" and line[4:8] == "   1"
    assert line[9] == "w" and line[10:13] == "WIM"
    assert line[14:47].rstrip() == "Müller, Zoë"
    assert line[48:52] == "2312" and line[53:56] == "GER"
    assert line[57:68].strip() == "24601234" and line[69:79] == "1999/04/02"
    assert line[80:84] == " 1.5" and line[85:89] == "   1"
    # rounds from column 92, ten columns each: opponent, colour, result
    assert line[91:99] == "   3 w 1" and line[101:109] == "   2 b =" and line[111:119] == "   5 w -"


def test_names_are_written_as_they_are_in_utf8() -> None:
    text = trf.write(_history(), trf.Header(name="Podzimní Tamsk", city="Brno"))
    assert "012 Podzimní Tamsk" in text and "Łukasz Żółć" in text and "?" not in text


def test_header_and_engine_lines() -> None:
    text = trf.write(_history(), trf.Header(name="T", city="Brno", federation="CZE",
                                            start="2026/11/01", end="2026/11/02",
                                            kind="Individual: Swiss-System",
                                            arbiter="Novák, Jan", deputies=("A", "B"),
                                            time_control="60 min",
                                            round_dates=("26/11/01", "26/11/01")))
    lines = text.split("\r\n")
    for expected in ("012 T", "022 Brno", "032 CZE", "042 2026/11/01", "052 2026/11/02",
                     "062 5", "072 3", "092 Individual: Swiss-System", "102 Novák, Jan",
                     "112 A", "112 B", "122 60 min", "XXR 5", "XXC white1", "BBU  0.5"):
        assert expected in lines
    dates = next(ln for ln in lines if ln.startswith("132"))
    assert dates[91:99] == "26/11/01" and dates[101:109] == "26/11/01"


def test_byes_and_unplayed_rounds_codes() -> None:
    lines = trf.write(_history()).split("\r\n")
    four = next(ln for ln in lines if ln.startswith("001    4"))
    five = next(ln for ln in lines if ln.startswith("001    5"))
    assert four[91:99] == "   2 w +" and four[101:109] == "0000 - U"
    assert five[91:99] == "0000 - Z" and five[111:119] == "   1 b -"


def test_a_round_to_pair_carries_its_byes_and_absences() -> None:
    h = _history()
    text = trf.write_pairing_input(h, [Bye(1, "half"), Bye(2, "absent"), Bye(3, "full")])
    lines = text.split("\r\n")
    col = {int(ln[4:8]): ln[121:129] for ln in lines if ln.startswith("001")}
    assert col[1] == "0000 - H" and col[2] == "0000 - Z" and col[3] == "0000 - F"
    assert col[4] == "" and col[5] == ""


def test_points_match_the_results() -> None:
    t = trf.read(trf.write(_history()))
    assert t.problems() == []
    assert t.points == {1: 1.5, 2: 1.0, 3: 1.0, 4: 1.5, 5: 1.0}


def test_round_trip_keeps_players_rounds_and_settings() -> None:
    h = _history()
    header = trf.Header(name="Podzimní Tamsk", city="Brno", round_dates=("26/11/01",))
    t = trf.read(trf.write(h, header))
    assert t.header == header
    assert [(e.name, e.rating, e.title, e.sex, e.federation, e.fide_id, e.birth, e.number)
            for e in t.history.players] == [
        (e.name, e.rating, e.title, e.sex, e.federation, e.fide_id, e.birth, e.number)
        for e in h.players]
    assert t.history.total_rounds == 5 and t.history.scoring == Scoring(pab=0.5)
    mine, theirs = records(h), records(t.history)
    for pid in mine:
        assert [(s.code, s.opponent, s.colour, s.points) for s in mine[pid].slots] == [
            (s.code, s.opponent, s.colour, s.points) for s in theirs[pid].slots]
    assert trf.write(t.history, t.header) == trf.write(h, header).replace(
        "0000 - Z", "0000 - Z")


def test_round_trip_of_the_requested_byes_of_the_round_to_pair() -> None:
    text = trf.write_pairing_input(_history(), [Bye(1, "half"), Bye(2, "absent")])
    t = trf.read(text)
    assert t.requested == (Bye(1, "half"), Bye(2, "zero"))
    assert len(t.history.rounds) == 3


def test_a_hostile_name_cannot_break_the_columns() -> None:
    h = History((Entrant(1, "Evil\nname\r" + "x" * 60, 2000, number=1),
                 Entrant(2, "B", 1900, number=2)), (), 3)
    lines = trf.write(h).split("\r\n")
    assert sum(1 for ln in lines if ln.startswith("001")) == 2
    assert all(len(ln) <= 89 for ln in lines if ln.startswith("001"))


SWISS_MANAGER = (Path(__file__).parent / "data" / "swiss_manager_open.trf").read_bytes()


def test_reads_a_swiss_manager_export() -> None:
    t = trf.read(SWISS_MANAGER)
    assert t.header.name == "Open Prague 2026" and t.header.arbiter == "IA Novák, Jan 300123"
    assert t.header.round_dates == ("26/07/01", "26/07/02", "26/07/03")
    navara = t.history.entrant(1)
    assert (navara.title, navara.sex, navara.federation, navara.fide_id, navara.birth) == (
        "GM", "m", "CZE", "309095", "1985/03/27")
    assert t.history.entrant(4).name == "Šťastný, Jiří"
    assert len(t.history.rounds) == 3
    r3 = t.history.rounds[2]
    assert Game(1, 2, "1-0") in r3.games and Bye(6, "pab") in r3.byes
    assert Game(5, 3, "1/2") in r3.games and r3.byes == (Bye(6, "pab"),)
    assert records(t.history)[4].slots[2].kind == "absent"  # a blank column
    assert t.ranks[1] == 1 and t.points[3] == 2.0 and t.problems() == []


def test_reads_a_vega_export_with_cr_lines_and_windows_1252_names() -> None:
    vega = "\r".join([
        "012 Torneo di Natale", "022 Milano", "092 Swiss Dutch",
        _line(1, "Rossi, Niccolò", 1900, "1.0", 1, "   2 w 1", sex="m", fed="ITA"),
        _line(2, "Bianchi, Chiara", 1850, "0.0", 2, "   1 b 0", sex="w", fed="ITA"),
        "XXR 5", ""]).encode("cp1252")
    t = trf.read(vega)
    assert t.history.entrant(1).name == "Rossi, Niccolò"
    assert t.history.total_rounds == 5
    assert t.history.rounds[0].games == (Game(1, 2, "1-0"),)


def test_reads_the_engines_extensions_and_trf_2026_lines() -> None:
    text = "\n".join(["012 X", "142 7", "152 B", "162  W 3.0    D 1.0    P 1.0",
                      _line(1, "A", 2000, "0.0", 1), _line(2, "B", 1900, "0.0", 2)])
    t = trf.read(text)
    assert t.history.total_rounds == 7 and t.history.first_colour == "black"
    assert (t.history.scoring.win, t.history.scoring.draw, t.history.scoring.pab) == (
        3.0, 1.0, 1.0)


def test_a_game_the_opponent_denies_is_refused_in_one_line() -> None:
    text = "\n".join([_line(1, "A", 2000, "1.0", 1, "   2 w 1"),
                      _line(2, "B", 1900, "0.0", 2, "   3 b 0"),
                      _line(3, "C", 1800, "0.0", 3)])
    with pytest.raises(FideError, match="round 1: player 1 played 2, whose line does not say so"):
        trf.read(text)


def test_two_lines_for_one_start_number_are_refused() -> None:
    line = _line(1, "A", 2000, "0.0", 1)
    with pytest.raises(FideError, match="two lines for start number 1"):
        trf.read(line + "\n" + line)


def test_garbage_in_a_round_column_is_refused() -> None:
    with pytest.raises(FideError, match="line 1: round 1 reads"):
        trf.read(_line(1, "A", 2000, "0.0", 1, "   2 x ?"))
