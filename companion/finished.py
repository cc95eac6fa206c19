"""The folder's index of journals that need never be opened again at start-up.

Start-up looks for the game to resume among the journals in the folder; after a season there
are thousands, nearly all finished. Whether a game is over is only known by folding its journal,
so each journal is folded at most once for that: when it is found over (or cannot be resumed at
all), its name goes into ``.finished`` in the journal folder, and later start-ups pass over it
without opening it. The file is a cache, one ``NAME<TAB>why`` line each: if it is lost or
garbled it is rebuilt, one fold per journal, and a line that does not read is ignored.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)

INDEX_NAME = ".finished"
#: Longest index line read (a journal name and a short reason).
MAX_LINE = 512


class FinishedIndex:
    """The names of the finished (or never resumable) journals in one folder."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / INDEX_NAME
        self.names = self._read()

    def _read(self) -> set[str]:
        names: set[str] = set()
        try:
            with open(self.path, "rb") as stream:
                while raw := stream.readline(MAX_LINE):
                    name = raw.split(b"\t", 1)[0].strip()
                    try:
                        names.add(name.decode("utf-8"))
                    except UnicodeDecodeError:
                        continue  # a garbled line: that journal is simply folded again
        except OSError:
            pass
        return names

    def __contains__(self, path: Path) -> bool:
        return path.name in self.names

    def add(self, path: Path, why: str) -> None:
        """Remember ``path`` as not to be resumed; a failure to write only costs a fold later."""
        if path.name in self.names or "\n" in path.name or "\t" in path.name:
            return
        self.names.add(path.name)
        why = " ".join(why.split())[:200]
        try:
            with open(self.path, "a", encoding="utf-8") as out:
                out.write(f"{path.name}\t{why}\n")
        except OSError as exc:
            log.warning("%s: cannot note %s as finished: %s", self.path, path.name, exc)

    def forget(self, names: set[str]) -> None:
        """Drop names (archived journals) by rewriting the index without them."""
        if not names & self.names:
            return
        self.names -= names
        kept: list[str] = []
        try:
            with open(self.path, encoding="utf-8", errors="replace") as stream:
                kept = [line for line in stream if line.split("\t", 1)[0].strip() not in names]
            tmp = self.path.with_name(INDEX_NAME + ".tmp")
            tmp.write_text("".join(kept), encoding="utf-8")
            tmp.replace(self.path)
        except OSError as exc:
            log.warning("%s: cannot rewrite: %s", self.path, exc)
