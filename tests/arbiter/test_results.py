"""Signed result records and `companion dispute`: records nobody can argue with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.arbiter.dispute import DisputeError, account, parse_at
from companion.arbiter.results import (
    ResultError,
    result_from_journal,
    verify_result,
    write_signed,
)
from companion.journal import JournalWriter
from companion.keys import SigningKey

#: The arbiter's key pair: it signs result records, anyone holding the public half checks them.
KEY = SigningKey.generate()
WALL0 = 1_790_000_000.0


def write(path: Path, header: dict[str, Any], events: list[dict[str, Any]],
          key: SigningKey | None = None) -> Path:
    with JournalWriter.create(path, header, signer=key) as w:
        for body in events:
            w.append({**body, "wall": WALL0 + body.get("t", 0.0), "src": "table"})
    return path


def tamsk_game(tmp_path: Path, *, result: dict[str, Any] | None = None,
               key: SigningKey | None = None) -> Path:
    """Ann (red) against Bob at table 2, round 1: red drops a ring and wins on rings (signed
    with ``key``, table 2's, when given)."""
    header = {"game": "tamsk", "level": 3, "table": 2, "round": 1, "wall0": WALL0,
              "names": {"red": "Ann", "black": "Bob"}}
    events: list[dict[str, Any]] = [
        {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
        {"t": 3.5, "ev": "ring", "player": "red"},
        {"t": 6.0, "ev": "release", "glass": "b1", "to": "c1"},
    ]
    events.append(result or {"t": 30.0, "ev": "end"})
    if key is not None:  # as a table writes it: the final record ends a finished game
        events.append({"t": 30.0, "ev": "note", "text": "game over: the journal is complete",
                       "final": {"winner": "red", "reason": "rings"}})
    return write(tmp_path / "game.jsonl", header, events, key)


def test_a_result_is_worked_out_from_the_journal(tmp_path: Path) -> None:
    record = result_from_journal(tamsk_game(tmp_path))
    assert record["winner"] == "red" and record["reason"] == "rings"
    assert record["score"] == {"red": 31, "black": 32}
    assert record["margin"] == {"red": 1, "black": -1}
    assert record["trf"] == {"red": "1", "black": "0"}
    assert [p["name"] for p in record["players"]] == ["Ann", "Bob"]
    assert record["round"] == 1 and record["table"] == 2


def test_forfeit_and_draw_use_the_trf_codes(tmp_path: Path) -> None:
    forfeit = tamsk_game(tmp_path, result={"t": 9.0, "ev": "correct", "what": "result",
                                           "winner": "black", "forfeit": True,
                                           "reason": "red absent", "by": "arbiter"})
    assert result_from_journal(forfeit)["trf"] == {"red": "-", "black": "+"}
    draw = tmp_path / "draw"
    draw.mkdir()
    tie = tamsk_game(draw, result={"t": 9.0, "ev": "correct", "what": "result", "winner": "tie",
                                   "reason": "agreed", "by": "arbiter"})
    assert result_from_journal(tie)["trf"] == {"red": "=", "black": "="}


def test_an_unfinished_game_has_no_result_to_sign(tmp_path: Path) -> None:
    path = write(tmp_path / "open.jsonl", {"game": "tamsk"}, [
        {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"}])
    with pytest.raises(ResultError, match="not over"):
        result_from_journal(path)


def test_a_signed_result_verifies_with_its_journal(tmp_path: Path) -> None:
    out = write_signed(tamsk_game(tmp_path), KEY)
    verdict = verify_result(out, KEY.public)
    assert verdict.ok, verdict.report()


def test_an_edited_result_file_is_refused(tmp_path: Path) -> None:
    out = write_signed(tamsk_game(tmp_path), KEY)
    record = json.loads(out.read_text())
    record["winner"] = "black"
    out.write_text(json.dumps(record, indent=2))
    verdict = verify_result(out, KEY.public)
    assert not verdict.ok and "refused" in verdict.report()


def test_a_pretty_printed_result_file_still_verifies(tmp_path: Path) -> None:
    out = write_signed(tamsk_game(tmp_path), KEY)
    record = json.loads(out.read_text())
    out.write_text(json.dumps(dict(reversed(list(record.items()))), indent=4))
    assert verify_result(out, KEY.public).ok


def test_a_result_signed_with_another_key_is_refused(tmp_path: Path) -> None:
    out = write_signed(tamsk_game(tmp_path), SigningKey.generate())
    assert not verify_result(out, KEY.public).ok


def test_a_result_whose_journal_was_edited_is_refused(tmp_path: Path) -> None:
    path = tamsk_game(tmp_path)
    out = write_signed(path, KEY)
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"red"', '"black"')
    path.write_text("\n".join(lines) + "\n")
    verdict = verify_result(out, KEY.public)
    assert not verdict.ok and "damaged" in verdict.report()


def test_notes_written_after_signing_keep_the_result_valid(tmp_path: Path) -> None:
    path = tamsk_game(tmp_path)
    out = write_signed(path, KEY)
    w, _ = JournalWriter.resume(path)
    w.append({"t": 40.0, "ev": "note", "text": "players signed the sheet"})
    w.close()
    assert verify_result(out, KEY.public).ok


def test_a_tantrix_result_counts_the_score_margin(tmp_path: Path) -> None:
    path = write(tmp_path / "tx.jsonl", {"game": "tantrix", "players": ["red", "yellow"]}, [
        {"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0},
        {"ev": "done"},
        {"ev": "end"},
    ])
    record = result_from_journal(path)
    red, yellow = record["score"]["red"], record["score"]["yellow"]
    assert record["margin"] == {"red": red - yellow, "yellow": yellow - red}


# ---------------------------------------------------------------------- disputes


def overrun(tmp_path: Path, key: SigningKey | None = None) -> Path:
    """Red moves; red turns the 15 s timer against black at 4.0; black never lifts (table 2's
    game, signed with ``key`` when given)."""
    header = {"game": "tamsk", "level": 3, "table": 2, "wall0": WALL0}
    return write(tmp_path / "overrun.jsonl", header, [
        {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
        {"t": 4.0, "ev": "timer15", "player": "red"},
        {"t": 21.0, "ev": "release", "glass": "b1", "to": "c1"},
    ], key)


def test_dispute_shows_every_input_with_its_time_and_seq(tmp_path: Path) -> None:
    text = account(overrun(tmp_path), "0:19", window=5.0)
    assert "seq    3  0:21.000" in text and "release glass=b1, to=c1" in text
    assert "REFUSED (out-of-turn)" in text  # black moved after his turn was forfeited
    assert "seq    1" not in text  # red's move at 0:03 is outside the window


def test_dispute_shows_the_15_second_timer_and_the_overrun(tmp_path: Path) -> None:
    path = overrun(tmp_path)
    text = account(path, 18.0, window=4.0)
    assert "----  0:19.000  the 15 s timer ran out: black forfeit" in text
    early = account(path, 5.0, window=1.5)
    assert "15 s timer 15.00 s left against black" in early  # just turned, at 0:04
    assert "15 s timer 12.50 s left against black" in early  # at the end of the window, 0:06.5


def test_dispute_shows_each_glass_s_sand_at_each_input(tmp_path: Path) -> None:
    text = account(overrun(tmp_path), 4.0, window=0.5)
    assert "r1@a2 179.00s" in text and "b1@d1 0.00s (not running)" in text


def test_dispute_refuses_a_time_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(DisputeError):
        account(overrun(tmp_path), "yesterday")


def test_times_are_read_as_seconds_game_clock_or_time_of_day() -> None:
    assert parse_at("212.5", None) == 212.5
    assert parse_at("3:32.5", None) == 212.5
    from datetime import datetime

    start = datetime.fromtimestamp(WALL0)
    later = start.replace(microsecond=0).timestamp() + 65 - WALL0
    text = datetime.fromtimestamp(WALL0 + later).strftime("%H:%M:%S")
    assert parse_at(text, WALL0) == pytest.approx(later)


def test_dispute_warns_about_an_altered_journal(tmp_path: Path) -> None:
    path = overrun(tmp_path)
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace("timer15", "pass")
    path.write_text("\n".join(lines) + "\n")
    assert "ALTERED OR DAMAGED" in account(path, 5.0)
