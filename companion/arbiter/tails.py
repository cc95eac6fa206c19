"""What the arbiter's station saw of each table's journal: the last (seq, hash) of each game.

Signatures stop anyone without the table's key from *changing* a record, but cutting the last
records off leaves a journal whose every record is still genuine. The station (the arbiter's
laptop, which receives every record as it is written) therefore keeps, per table, one small
file ``table-N.json``: for each recent game (its id, the first 16 hex of the header's hash) the
last record applied in order, its hash, and whether the table's final record (a finished game)
was among them. ``companion verify JOURNAL --against table-N.json`` then reports a journal that
ends before what the station saw, and a finished game cut off as such.

The file is rewritten atomically per record (a few hundred bytes; tables write a record every
few seconds); it keeps the last :data:`MAX_GAMES` games of the table, so it never grows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.files import atomic_write

MAX_GAMES = 64
FORMAT = 1


def tail_path(folder: str | Path, table: int) -> Path:
    return Path(folder) / f"table-{int(table)}.json"


def is_final(record: Mapping[str, Any]) -> bool:
    return record.get("ev") == "note" and isinstance(record.get("final"), dict)


class TailStore:
    """Keeps the tail files in one folder; :meth:`saw` is called for each record applied."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._tables: dict[int, dict[str, Any]] = {}

    def _load(self, table: int) -> dict[str, Any]:
        data = self._tables.get(table)
        if data is None:
            try:
                data = read_tail(tail_path(self.folder, table))
            except (OSError, ValueError):
                data = {"format": FORMAT, "table": table, "games": {}}
            self._tables[table] = data
        return data

    def saw(self, table: int, game: str, record: Mapping[str, Any]) -> None:
        """Record that ``record`` (in order, chained) is the latest of ``game`` on ``table``."""
        seq, h = record.get("seq"), record.get("hash")
        if not isinstance(seq, int) or not isinstance(h, str):
            return
        data = self._load(table)
        games: dict[str, Any] = data["games"]
        entry = games.pop(game, None) or {"final_seq": None}
        entry.update(seq=seq, hash=h)
        if is_final(record):
            entry["final_seq"] = seq
        games[game] = entry  # most recent last
        while len(games) > MAX_GAMES:
            games.pop(next(iter(games)))
        atomic_write(tail_path(self.folder, table), json.dumps(data, indent=1) + "\n")


def read_tail(path: str | Path) -> dict[str, Any]:
    """A station's tail file; ValueError (naming it) when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a station record") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path}: not a station record (not JSON)") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("games"), dict)
        or not isinstance(data.get("table"), int)
    ):
        raise ValueError(f"{path}: not a station record")
    return data


def _journal_hashes(path: Path) -> tuple[dict[str, Any] | None, int, dict[int, str]]:
    """(header, the last seq, the hash at each seq) of the journal's complete records."""
    header = None
    hashes: dict[int, str] = {}
    last = -1
    with open(path, "rb") as stream:
        for raw in stream:
            if not raw.endswith(b"\n"):
                break
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(record, dict) or not isinstance(record.get("seq"), int):
                continue
            if header is None:
                header = record
            seq = record["seq"]
            hashes[seq] = str(record.get("hash"))
            last = max(last, seq)
    return header, last, hashes


def check_tail(path: Path, tail: Mapping[str, Any]) -> list[str]:
    """What is wrong with the journal at ``path`` against the station's ``tail`` ([] if all
    the station saw is there, unchanged)."""
    header, last, hashes = _journal_hashes(path)
    if header is None:
        return ["the journal has no header to match with the station's record"]
    game = str(header.get("hash", ""))[:16]
    if header.get("table") != tail.get("table"):
        return [f"the station's record is of table {tail.get('table')}, "
                f"the journal of table {header.get('table')}"]
    entry = tail["games"].get(game)
    if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int):
        return [f"the station never saw this game ({game}) of table {tail.get('table')}"]
    seen, final = entry["seq"], entry.get("final_seq")
    if last < seen:
        text = f"the journal ends at record {last}, but the station saw record {seen}"
        if isinstance(final, int):
            text += (f"; the station saw this game finished (final record {final}): "
                     "a finished game was cut off")
        return [text]
    if hashes.get(seen) != entry.get("hash"):
        return [f"record {seen} is not the one the station saw (its hash differs)"]
    return []
