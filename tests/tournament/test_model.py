"""The tournament is a pure fold over its records: each record kind by its rule, a refused
record names its line, and what is derived (entries, points) follows from the records alone."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.model import (
    Result,
    Settings,
    Source,
    Tournament,
    TournamentError,
    fold,
    header,
    initial_numbers,
    result_record,
)
from companion.tournament.pairing import pair_records

HEADER = header("Club Cup", "tamsk", "swiss", 4, Settings(), 1.0)


def rec(ev: str, **fields: Any) -> dict[str, Any]:
    return {"ev": ev, **fields, "wall": 2.0, "via": "cli"}


def players(*names: str, rating: int = 0) -> list[dict[str, Any]]:
    return [rec("player", id=i + 1, name=n, rating=rating) for i, n in enumerate(names)]


def folded(records: list[dict[str, Any]], head: dict[str, Any] = HEADER) -> Tournament:
    return fold(head, [(i + 2, r) for i, r in enumerate(records)])


def refused(records: list[dict[str, Any]], match: str) -> TournamentError:
    with pytest.raises(TournamentError, match=match) as caught:
        folded(records)
    return caught.value


def paired(*names: str) -> list[dict[str, Any]]:
    """Players, their numbers and round 1 (one board per two players, in entry order)."""
    out = players(*names)
    out.append(rec("numbers", numbers={str(i + 1): i + 1 for i in range(len(names))}))
    games = [{"board": b + 1, "first": 2 * b + 1, "second": 2 * b + 2}
             for b in range(len(names) // 2)]
    byes = [{"player": len(names), "kind": "pab"}] if len(names) % 2 else []
    out.append(rec("pair", round=1, games=games, byes=byes, engine="manual"))
    return out


WIN = Result("first", False, (20, 25), "rings")


def result(number: int, board: int, r: Result = WIN, **more: Any) -> dict[str, Any]:
    return rec("result", round=number, board=board, result=r.to_dict(),
               source=Source("arbiter").to_dict(), replaces=None, rounds_after=[], **more)


def test_players_are_entered_one_two_three_with_unique_names() -> None:
    t = folded(players("Ann", "Bob"))
    assert [(p.id, p.name) for p in t.players.values()] == [(1, "Ann"), (2, "Bob")]
    refused([*players("Ann"), rec("player", id=3, name="Bob")], "entered 1, 2, 3")
    refused([*players("Ann"), rec("player", id=2, name=" ann ")], "already a player")


def test_a_refused_record_names_its_line() -> None:
    error = refused([*players("Ann"), rec("player", id=2, name="42")], "^line 3: ")
    assert error.line == 3


def test_the_header_is_checked_like_any_record() -> None:
    with pytest.raises(TournamentError, match="line 1: .*version"):
        fold({**HEADER, "version": 1}, [])
    with pytest.raises(TournamentError, match="line 1: unknown setting"):
        fold({**HEADER, "settings": {"colour": "red"}}, [])


def test_an_unknown_record_is_refused() -> None:
    refused([rec("delete-everything")], "unknown record")


def test_starting_numbers_follow_rating_then_title_then_name() -> None:
    t = folded([rec("player", id=1, name="Zoe", rating=1500),
                rec("player", id=2, name="Ann", rating=1500, title="FM"),
                rec("player", id=3, name="Bob", rating=1700),
                rec("player", id=4, name="Cid", rating=1500)])
    assert initial_numbers(t) == {3: 1, 2: 2, 4: 3, 1: 4}


def test_a_round_pairs_each_player_once_at_a_board_and_a_table() -> None:
    t = folded(paired("Ann", "Bob", "Cid"))
    r = t.played[0]
    assert [(g.board, g.table, g.first, g.second) for g in r.games] == [(1, 1, 1, 2)]
    assert [(b.player, b.kind) for b in r.byes] == [(3, "pab")]
    twice = paired("Ann", "Bob", "Cid")
    twice[-1]["byes"] = [{"player": 1, "kind": "pab"}]
    refused(twice, "paired twice")


def test_the_next_round_waits_for_every_result() -> None:
    records = paired("Ann", "Bob", "Cid", "Dee")
    records.append(rec("pair", round=2, games=[{"board": 1, "first": 1, "second": 3}]))
    refused(records, "round 1 has no result yet at board")


def test_a_result_goes_to_a_paired_board_and_a_second_one_names_what_it_replaces() -> None:
    records = [*paired("Ann", "Bob"), result(1, 1)]
    assert folded(records).played[0].games[0].result == WIN
    refused([*records, result(1, 1, Result("second", True, None, "forfeit"))],
            "names the one it replaces")
    refused([*paired("Ann", "Bob"), result(1, 2)], "no board 2")


def test_a_replacement_says_why_and_lists_the_rounds_paired_since() -> None:
    t = folded([*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1), result(1, 2)])
    nxt = rec("pair", round=2, games=[{"board": 1, "first": 1, "second": 3},
                                      {"board": 2, "first": 4, "second": 2}])
    new = Result("second", True, None, "forfeit")
    body = result_record(folded([*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1),
                                 result(1, 2), nxt]), 1, 1, new, Source("arbiter"),
                         wall=3.0, via="cli", why="the sheet says Bob won")
    assert body["replaces"] == WIN.to_dict() and body["rounds_after"] == [2]
    t = folded([*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1), result(1, 2), nxt, body])
    change = t.trail[-1]
    assert (change.old, change.new, change.rounds_after, change.why) == (
        WIN, new, (2,), "the sheet says Bob won")
    refused([*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1), result(1, 2), nxt,
             {**body, "why": ""}], "says why")
    refused([*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1), result(1, 2), nxt,
             {**body, "rounds_after": []}], "rounds_after")


def test_every_game_shares_rules_a_double_forfeit_has_no_winner_and_no_score() -> None:
    refused([*paired("Ann", "Bob"), result(1, 1, Result("none", False, None, "forfeit"))],
            "rule double-forfeit")
    refused([*paired("Ann", "Bob"), result(1, 1, Result("first", True, (1, 2), "forfeit"))],
            "rule forfeit-no-score")
    t = folded([*paired("Ann", "Bob"), result(1, 1, Result("none", True, None, "forfeit"))])
    assert t.points() == {1: 0.0, 2: 0.0}


def test_a_judge_refuses_what_the_game_does_not_allow() -> None:
    with pytest.raises(TournamentError, match="line 6: no such thing"):
        fold(HEADER, [(i + 2, r) for i, r in enumerate([*paired("Ann", "Bob"), result(1, 1)])],
             judge=lambda r: "no such thing")


def test_a_late_entry_joins_from_the_next_round_with_the_late_points() -> None:
    head = header("Late", "tamsk", "swiss", 3, Settings(late_points=0.5), 1.0)
    records = [*paired("Ann", "Bob"), result(1, 1),
               rec("player", id=3, name="Cid", late_from=2)]
    t = fold(head, [(i + 2, r) for i, r in enumerate(records)])
    assert t.players[3].late_from == 2
    assert t.entries()[3][1].kind == "late" and t.points()[3] == 0.5
    with pytest.raises(TournamentError, match="late_from"):
        fold(head, [(i + 2, r) for i, r in enumerate(
            [*records[:-1], rec("player", id=3, name="Cid", late_from=1)])])


def test_a_withdrawn_player_is_absent_until_reinstated() -> None:
    records = [*paired("Ann", "Bob", "Cid", "Dee"), result(1, 1), result(1, 2),
               rec("withdraw", player=4, **{"from": 2})]
    t = folded(records)
    assert t.players[4].withdrawn and not t.players[4].plays_in(2)
    refused([*records, rec("pair", round=2, games=[{"board": 1, "first": 1, "second": 4}])],
            "cannot be paired in round 2")
    t = folded([*records, rec("reinstate", player=4, **{"from": 3})])
    assert t.players[4].plays_in(3) and not t.players[4].plays_in(2)


def test_a_requested_bye_is_granted_within_the_limits() -> None:
    head = header("Byes", "tamsk", "swiss", 4,
                  Settings(max_byes=1, bye_rounds_closed=(4,)), 1.0)
    base = players("Ann", "Bob", "Cid")

    def f(extra: list[dict[str, Any]]) -> Tournament:
        return fold(head, [(i + 2, r) for i, r in enumerate([*base, *extra])])

    t = f([rec("bye", player=3, round=1, points=0.5)])
    assert t.requested == {(3, 1): 0.5}
    with pytest.raises(TournamentError, match="requested bye"):
        f([rec("bye", player=3, round=1, points=0.5), rec("bye", player=3, round=2, points=0)])
    with pytest.raises(TournamentError, match="no requested bye is granted in round 4"):
        f([rec("bye", player=3, round=4, points=0)])
    assert f([rec("bye", player=3, round=1, points=0.5),
              rec("bye-cancel", player=3, round=1)]).requested == {}


def test_a_pairing_must_give_a_requested_bye_and_no_game_to_who_asked() -> None:
    records = [*players("Ann", "Bob", "Cid"), rec("bye", player=3, round=1, points=0.5),
               rec("numbers", numbers={"1": 1, "2": 2, "3": 3})]
    refused([*records, rec("pair", round=1, games=[{"board": 1, "first": 1, "second": 2}])],
            "asked for a bye in round 1")
    t = folded([*records, rec("pair", round=1, games=[{"board": 1, "first": 1, "second": 2}],
                              byes=[{"player": 3, "kind": "half"}])])
    assert t.entries()[3][1].code == "H" and t.points()[3] == 0.5


def test_the_last_round_is_unpaired_or_paired_again_only_before_its_first_result() -> None:
    records = paired("Ann", "Bob", "Cid", "Dee")
    assert folded([*records, rec("unpair", round=1)]).played == []
    moved = rec("repair", round=1, games=[{"board": 1, "table": 7, "first": 1, "second": 2},
                                          {"board": 2, "first": 3, "second": 4}])
    assert folded([*records, moved]).played[0].games[0].table == 7
    refused([*records, result(1, 1), rec("unpair", round=1)], "has results already")


def test_settings_are_fixed_once_round_1_is_paired_but_the_bye_limits() -> None:
    records = paired("Ann", "Bob")
    assert folded([*records, rec("settings", settings={"max_byes": 2})]).settings.max_byes == 2
    refused([*records, rec("settings", settings={"bye_points": 0.5})], "cannot change")
    refused([rec("settings", settings={"tiebreaks": ["XX"]})], "unknown tie-break")
    t = folded([rec("settings", settings={"tiebreaks": ["game:rings", "BH"]})])
    assert t.settings.tiebreaks == ("game:rings", "BH")


def test_names_and_ratings_are_fixed_once_round_1_is_paired() -> None:
    assert folded([*players("Ann"), rec("player-edit", id=1, rating=1650)]).players[1].rating \
        == 1650
    refused([*paired("Ann", "Bob"), rec("player-edit", id=1, name="Anna")], "fixed once")
    assert folded([*paired("Ann", "Bob"), rec("player-edit", id=1, club="Brno")]).players[1] \
        .club == "Brno"


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.lists(st.sampled_from(["1-0", "0-1", "=", "+-", "--"]),
                                   min_size=12, max_size=12))
def test_points_are_what_the_results_and_byes_give(n: int, typed: list[str]) -> None:
    """Folded again from its records, a Swiss of random results gives every game's points to
    its two players once, and the pairing-allocated bye its bye points."""
    t = folded(players(*[f"P{i}" for i in range(n)]))
    records = players(*[f"P{i}" for i in range(n)])
    codes = {"1-0": Result("first", False, None, "arbiter"),
             "0-1": Result("second", False, None, "arbiter"),
             "=": Result("tie", False, None, "arbiter"),
             "+-": Result("first", True, None, "forfeit"),
             "--": Result("none", True, None, "forfeit")}
    expected = 0.0
    for number in range(1, 4):
        try:
            new = pair_records(t)
        except TournamentError:
            break
        records += [{**r, "wall": 2.0, "via": "cli"} for r in new]
        t = folded(records)
        r = t.played[-1]
        expected += sum(1 for b in r.byes if b.kind == "pab") * t.settings.bye_points
        for g in r.games:
            res = codes[typed[(number * 3 + g.board) % len(typed)]]
            records.append(result(number, g.board, res))
            expected += sum(res.points())
        t = folded(records)
    assert sum(t.points().values()) == expected
    assert folded(records).points() == t.points()  # the same records, the same tournament
