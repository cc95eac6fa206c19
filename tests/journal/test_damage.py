"""Damage never stops the table: a damaged line in the middle of a journal is kept aside byte
for byte, reported by verify with its offset, and the game resumes from what is intact."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import journal
from companion.clock import FakeClock
from companion.config import defaults
from companion.current import game_to_resume
from companion.daemon import take_up
from companion.journal import QUARANTINE_SUFFIX, JournalWriter, read_path
from companion.scenario import MalformedInput
from companion.tables import make_table
from companion.verify import verify_path

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "tamsk", "level": 3, "names": {"red": "Zoë", "black": "Ben"}, "wall0": 1e9}
EVENTS = [
    {"t": 1.0, "ev": "lift", "glass": "r1", "wall": 1e9 + 1},
    {"t": 1.0, "ev": "release", "glass": "r1", "wall": 1e9 + 1.25},
    {"t": 2.0, "ev": "ring", "player": "red", "wall": 1e9 + 2},
    {"t": 5.0, "ev": "lift", "glass": "b1", "wall": 1e9 + 5},
    {"t": 5.0, "ev": "release", "glass": "b1", "wall": 1e9 + 5.25},
]
NOT_UTF8 = b'{"t":3.0,"ev":"ring","player":"bl\xff\xfeck"}'
NOT_JSON = b'{"t":3.0,"ev":"ri#ng",pl}'


def damaged_journal(folder: Path, bad: bytes, *, replacing: int = 3) -> tuple[Path, int]:
    """A journal whose line ``replacing`` (1-based) became ``bad``; its byte offset."""
    path = folder / "tamsk-t1-20010909-014640.jsonl"
    with JournalWriter.create(path, HEADER) as w:
        for e in EVENTS:
            w.append(e)
    lines = path.read_bytes().split(b"\n")
    offset = sum(len(line) + 1 for line in lines[: replacing - 1])
    lines[replacing - 1] = bad
    path.write_bytes(b"\n".join(lines))
    return path, offset


def quarantined(path: Path) -> bytes:
    return path.with_name(path.name + QUARANTINE_SUFFIX).read_bytes()


@pytest.mark.parametrize("bad", [NOT_UTF8, NOT_JSON], ids=["non-UTF-8", "non-JSON"])
def test_a_damaged_line_in_the_middle_is_skipped_and_the_game_resumes_from_the_rest(
    tmp_path: Path, bad: bytes
) -> None:
    path, offset = damaged_journal(tmp_path, bad)
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    assert game_to_resume(tmp_path, "tamsk", 1) == path
    assert take_up(table, path)
    table.close()
    kept = [body for _, body in read_path(path).events]
    assert kept[:-1] == [EVENTS[0], *EVENTS[2:]]  # line 3 (the release of r1) is gone
    assert kept[-1]["ev"] == "note"


@pytest.mark.parametrize("bad", [NOT_UTF8, NOT_JSON], ids=["non-UTF-8", "non-JSON"])
def test_the_quarantine_file_holds_the_damaged_bytes_exactly_and_where_they_were(
    tmp_path: Path, bad: bytes
) -> None:
    path, offset = damaged_journal(tmp_path, bad)
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    assert take_up(table, path)
    table.close()
    held = quarantined(path)
    assert held.startswith(f"# line 3, bytes {offset}-{offset + len(bad) + 1} of".encode())
    assert held.endswith(b"\n" + bad + b"\n")
    assert path.read_bytes()[offset : offset + len(bad)] == bad  # the journal is not rewritten


def test_the_table_says_on_its_screen_that_a_record_was_damaged(tmp_path: Path) -> None:
    path, _ = damaged_journal(tmp_path, NOT_JSON)
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    assert take_up(table, path)
    assert "record damaged" in str(table.view().get("warning"))
    table.close()


def test_a_second_resume_keeps_one_copy_in_quarantine(tmp_path: Path) -> None:
    path, _ = damaged_journal(tmp_path, NOT_JSON)
    for _ in range(2):
        table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
        assert take_up(table, path)
        table.close()
    assert quarantined(path).count(NOT_JSON) == 1


def test_verify_reports_a_damaged_line_with_its_byte_offset(tmp_path: Path) -> None:
    path, offset = damaged_journal(tmp_path, NOT_JSON)
    verdict = verify_path(path)
    assert not verdict.ok
    assert f"line 3 (byte {offset})" in verdict.report()


def test_verify_refuses_a_non_utf8_line_naming_its_line_and_byte(tmp_path: Path) -> None:
    path, offset = damaged_journal(tmp_path, NOT_UTF8)
    with pytest.raises(MalformedInput, match=rf"byte {offset}\b") as caught:
        verify_path(path)
    assert caught.value.line == 3


def test_a_journal_whose_header_is_damaged_starts_a_new_game_instead(tmp_path: Path) -> None:
    path, _ = damaged_journal(tmp_path, b"\xff" * 40, replacing=1)
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    assert game_to_resume(tmp_path, "tamsk", 1) is None
    assert not take_up(table, path)


def test_an_old_record_written_again_after_the_last_is_not_folded(tmp_path: Path) -> None:
    """A stale block of the card (an earlier record, intact in itself) after a power cut."""
    path = tmp_path / "g.jsonl"
    with JournalWriter.create(path, HEADER) as w:
        for e in EVENTS:
            w.append(e)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(path.read_bytes() + lines[2] + b"\n")
    found = read_path(path)
    assert [body for _, body in found.events] == EVENTS
    assert found.torn is not None and found.torn.kind == "torn"


def test_start_up_reads_the_resumed_journal_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = damaged_journal(tmp_path, NOT_JSON)
    reads: list[object] = []
    real = journal.read_stream
    monkeypatch.setattr(journal, "read_stream", lambda s: reads.append(s) or real(s))
    table = make_table(defaults(), FakeClock(wall_start=1e9 + 10), tmp_path)
    found = game_to_resume(tmp_path, "tamsk", 1)
    assert found is not None and take_up(table, found)
    table.close()
    assert len(reads) == 1


def test_the_daemon_starts_on_a_journal_with_a_non_utf8_line_in_the_middle(
    tmp_path: Path,
) -> None:
    """The crash loop of old: the real `companion run` process, mock backend, stdin closed."""
    journals = tmp_path / "journals"
    journals.mkdir()
    path, offset = damaged_journal(journals, NOT_UTF8)
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", "run", "--backend", "mock"]
        + ["--journal-dir", str(journals), "--pins-from-stdin"],
        cwd=ROOT,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert f"resumed {path}" in done.stderr
    assert NOT_UTF8 in quarantined(path)


def test_a_run_of_damaged_lines_is_one_problem_and_one_quarantined_range(tmp_path: Path) -> None:
    """A block of garbage lines (a card's bad block) costs one entry, not one per line."""
    path, offset = damaged_journal(tmp_path, b"\n" * 100_000 + b"x" * 50)
    found = read_path(path)
    assert len(found.problems) == 1 and len(found.damaged) == 1
    assert "100000 lines after it" in str(found.problems[0])
    assert [body for _, body in found.events] == [EVENTS[0], *EVENTS[2:]]
