"""Journals of finished games of every kind, written the way tables write them."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.journal import JournalWriter
from companion.tournament.cli import add_commands

WALL0 = 1_760_000_000.0


def write(path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> Path:
    with JournalWriter.create(path, header) as w:
        for i, body in enumerate(events):
            w.append({"t": float(i), **body, "wall": WALL0 + i, "src": "table"})
    return path


def tamsk(path: Path, red: str, black: str, *, round_no: int | None = 1, table: int = 1,
          ) -> Path:
    """Red moves and drops a ring, black moves, then the game is ended: red wins on rings."""
    header: dict[str, Any] = {"game": "tamsk", "level": 3, "table": table, "wall0": WALL0,
                              "names": {"red": red, "black": black}}
    if round_no is not None:
        header["round"] = round_no
    events: list[dict[str, Any]] = [{"ev": "release", "glass": "r1", "to": "a2"},
                                    {"ev": "ring", "player": "red"},
                                    {"ev": "release", "glass": "b1", "to": "c1"}]
    return write(path, header, [*events, {"ev": "end"}])


def tantrix(path: Path, red: str, yellow: str, *, round_no: int = 1) -> Path:
    """One tile, then the arbiter stops the game: the score as it stands decides."""
    return write(path, {"game": "tantrix", "players": ["red", "yellow"], "round": round_no,
                        "table": 1, "names": {"red": red, "yellow": yellow}},
                 [{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0}, {"ev": "done"},
                  {"ev": "end"}])


def tokami(path: Path, players: list[str], turns: list[dict[str, Any]]) -> Path:
    return write(path, {"game": "tokami", "players": players}, [*turns, {"ev": "end"}])


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))
