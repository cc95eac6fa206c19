"""The tournament file: JSON beside the arbiter's journals, written atomically.

A change is written whole with :func:`companion.files.atomic_write` (a temporary file, fsynced,
renamed over the old one, the folder fsynced), so a power cut leaves either the old tournament
or the new one, never half of each.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.files import atomic_write
from companion.tournament.model import Tournament, TournamentError, from_dict, slug

SUFFIX = ".tournament.json"
MAX_BYTES = 4_000_000


def path_for(name: str, directory: str | Path = ".") -> Path:
    """The file of the tournament called ``name`` (or ``name`` itself when it is a file)."""
    if name.endswith(SUFFIX):
        return Path(name)
    return Path(directory) / (slug(name) + SUFFIX)


def load(path: str | Path) -> Tournament:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise TournamentError(f"{path}: too big for a tournament file")
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such tournament (make it with "
                              "`companion tournament new`)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TournamentError(f"{path}: not a readable tournament file ({exc})") from None
    try:
        return from_dict(data)
    except TournamentError as exc:
        raise TournamentError(f"{path}: {exc}") from None


def save(t: Tournament, path: str | Path) -> Path:
    text = json.dumps(t.to_dict(), indent=1, ensure_ascii=False) + "\n"
    return atomic_write(path, text)
