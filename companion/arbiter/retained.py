"""What the arbiter's page last verified of each table, kept on the laptop across its restarts.

Why: the broker's retained messages (each table's status, state and result) are what a page
started later sees first, and anyone with a table's broker password can overwrite them, with an
unsigned message or with the table's own older signed one. A page that knew only the broker
would then start with the table unverified, without its game, its result gone, or a replayed
"offline" over a live table. So the page keeps, per table, the last signed status and state it
accepted and every signed result, exactly as received (the bytes, signature and all), in one
small file ``table-N.json``; a restarted page checks them again against the keyring (a file
edited on the laptop, or a table enrolled since with another key, is simply not taken back) and
starts from them, and what the broker holds then counts only when it is signed and newer.

The status and results are written as they come (rare). A table's state changes with every
record, so it is written when its game changes and otherwise at most every
:data:`STATE_EVERY_S` seconds (and when the page stops): after a crash the page starts from a
state a few seconds old, which still names the game and asks the table for what is missing.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from companion.files import atomic_write

log = logging.getLogger(__name__)

FORMAT = 1
#: Results kept per table (a table's later rounds add more; the oldest are dropped).
MAX_RESULTS = 64
STATE_EVERY_S = 10.0
KINDS = ("status", "state", "result")


def store_path(folder: str | Path, table: int) -> Path:
    return Path(folder) / f"table-{int(table)}.json"


class RetainedStore:
    """The page's last verified status, state and results of each table, in ``folder``."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._tables: dict[int, dict[str, Any]] = {}
        self._written_at: dict[int, float] = {}
        self._dirty: set[int] = set()

    # ------------------------------------------------------------------ reading

    def load(self) -> list[tuple[int, str, bytes]]:
        """Every kept message as ``(table, kind, payload)``: statuses and states first, then
        the results. A file that is not one of ours is skipped (and logged), never fatal."""
        out: list[tuple[int, str, bytes]] = []
        results: list[tuple[int, str, bytes]] = []
        try:
            paths = sorted(self.folder.glob("table-*.json"))
        except OSError:
            return []
        for path in paths:
            data = _read(path)
            if data is None:
                log.warning("arbiter: %s is not a page's kept state; ignored", path)
                continue
            table = data["table"]
            self._tables[table] = data
            for kind in ("status", "state"):
                text = data.get(kind)
                if isinstance(text, str):
                    out.append((table, kind, text.encode("utf-8")))
            kept = data.get("results")
            for text in kept.values() if isinstance(kept, dict) else ():
                if isinstance(text, str):
                    results.append((table, "result", text.encode("utf-8")))
        return out + results

    # ------------------------------------------------------------------ writing

    def keep(self, table: int, kind: str, payload: bytes, now: float, game: str = "") -> None:
        """Keep one message the page verified and took (``game``: a result's game)."""
        if kind not in KINDS:
            return
        data = self._tables.setdefault(table, {"format": FORMAT, "table": table, "results": {}})
        text = payload.decode("utf-8", "replace")
        if kind == "result":
            results: dict[str, str] = data.setdefault("results", {})
            results.pop(game, None)
            results[game] = text  # the latest last
            while len(results) > MAX_RESULTS:
                results.pop(next(iter(results)))
        elif kind == "state":
            same_game = _game_of(data.get("state")) == _game_of(text)
            data["state"] = text
            if same_game and now - self._written_at.get(table, float("-inf")) < STATE_EVERY_S:
                self._dirty.add(table)
                return
        else:
            data[kind] = text
        self._write(table, now)

    def flush(self, now: float) -> None:
        """Write every table whose latest state is not on disk yet (the page stops)."""
        for table in sorted(self._dirty):
            self._write(table, now)

    def _write(self, table: int, now: float) -> None:
        self._dirty.discard(table)
        self._written_at[table] = now
        try:
            atomic_write(store_path(self.folder, table),
                         json.dumps(self._tables[table], ensure_ascii=False) + "\n")
        except OSError as exc:
            log.warning("arbiter: cannot keep table %s's state in %s: %s", table, self.folder,
                        exc)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    if (not isinstance(data, dict) or data.get("format") != FORMAT
            or isinstance(data.get("table"), bool) or not isinstance(data.get("table"), int)):
        return None
    if not isinstance(data.get("results"), dict):
        data["results"] = {}
    return data


def _game_of(text: object) -> object:
    """The game a kept state names (None when it names none)."""
    if not isinstance(text, str):
        return None
    try:
        message = json.loads(text)
    except ValueError:
        return None
    return message.get("game") if isinstance(message, dict) else None
