"""Two games started in the same second get two journals, never a crash."""

from __future__ import annotations

from pathlib import Path

from companion.journal import JournalWriter, read_path


def test_two_games_in_one_second_get_distinct_journal_names(tmp_path: Path) -> None:
    first = JournalWriter.create_unique(tmp_path, "tamsk-t1-20261124-200000", {"game": "tamsk"})
    second = JournalWriter.create_unique(tmp_path, "tamsk-t1-20261124-200000", {"game": "tamsk"})
    first.close()
    second.close()
    assert first.path.name == "tamsk-t1-20261124-200000.jsonl"
    assert second.path.name == "tamsk-t1-20261124-200000-2.jsonl"
    assert read_path(second.path).header is not None
