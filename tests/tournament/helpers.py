"""Journals of finished games of every kind, written (and signed) the way tables write them, and
an arbiter's laptop in a temporary folder: his key and keyring where the commands look."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from companion import journal as journal_mod
from companion.journal import JournalWriter
from companion.keys import Keyring, SigningKey
from companion.tournament.cli import add_commands
from companion.tournament.record import GameRecord
from tests.arbiter.keys import TABLES

WALL0 = 1_760_000_000.0
FINAL = "game over: the journal is complete"


def write(path: Path, header: dict[str, Any], events: list[dict[str, Any]],
          key: SigningKey | None = None) -> Path:
    with JournalWriter.create(path, header, signer=key) as w:
        for i, body in enumerate(events):
            w.append({"t": float(i), **body, "wall": WALL0 + i, "src": "table"})
    return path


def final(winner: str | None, reason: str | None) -> dict[str, Any]:
    return {"ev": "note", "text": FINAL, "final": {"winner": winner, "reason": reason}}


def seats(header: dict[str, Any], tournament: str | None, round_no: int | None,
          table: int, board: int | None, created: str) -> dict[str, Any]:
    header["table"] = table
    header["created"] = created  # each game its own header, so its own identity
    if round_no is not None:
        header["round"] = round_no
    if tournament is not None:
        header["tournament"] = tournament
        header["board"] = board if board is not None else table
    return header


def tamsk(path: Path, red: str, black: str, *, round_no: int | None = 1, table: int = 1,
          board: int | None = None, tournament: str | None = None,
          key: SigningKey | None = None, winner: str = "red", finished: bool = True) -> Path:
    """A Tamsk game: the winner drops a ring, the arbiter ends the game: he wins on rings."""
    header = seats({"game": "tamsk", "level": 3, "wall0": WALL0,
                    "names": {"red": red, "black": black}}, tournament, round_no, table, board,
                   path.name)
    if winner == "red":
        moves = [{"ev": "release", "glass": "r1", "to": "a2"}, {"ev": "ring", "player": "red"},
                 {"ev": "release", "glass": "b1", "to": "c1"}]
    else:
        moves = [{"ev": "release", "glass": "r1", "to": "a2"},
                 {"ev": "release", "glass": "b1", "to": "c1"}, {"ev": "ring", "player": "black"}]
    events = [*moves, {"ev": "end"}] + ([final(winner, "rings")] if finished else [])
    return write(path, header, events, key)


def tantrix(path: Path, red: str, yellow: str, *, round_no: int | None = 1, table: int = 1,
            board: int | None = None, tournament: str | None = None,
            key: SigningKey | None = None) -> Path:
    """One tile, then the arbiter stops the game: the score as it stands decides (a tie)."""
    header = seats({"game": "tantrix", "players": ["red", "yellow"],
                    "names": {"red": red, "yellow": yellow}}, tournament, round_no, table, board,
                   path.name)
    return write(path, header, [{"ev": "place", "tile": 1, "q": 0, "r": 0, "rot": 0},
                                {"ev": "done"}, {"ev": "end"}, final("tie", "score at end")],
                 key)


def tokami(path: Path, players: list[str], turns: list[dict[str, Any]]) -> Path:
    return write(path, {"game": "tokami", "players": players}, [*turns, {"ev": "end"}])


def signed(table: int) -> SigningKey:
    """Table ``table``'s own key (enrolled by :func:`laptop`)."""
    return TABLES[table]


def record_of(path: Path) -> GameRecord:
    """The result a journal's fold gives (no trust in it: what a test looks at)."""
    from companion.simulate import simulator_for
    from companion.tournament.standings import facet

    j = journal_mod.read_path(path)
    assert j.header is not None
    game = str(j.header["game"])
    state = simulator_for(game).simulate(dict(j.header), list(j.events))
    return facet(game).record(j.header, state)


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rewrite(path: Path, lines: list[Mapping[str, Any]]) -> None:
    path.write_text("".join(journal_mod.canonical(r) + "\n" for r in lines), encoding="utf-8")


def rechain(path: Path, change: Any) -> None:
    """Edit a journal and chain it again (hashes recomputed, signatures left as they were):
    what a forger without the table's key can do."""
    out: list[dict[str, Any]] = []
    prev = journal_mod.GENESIS
    for r in records(path):
        body = {k: v for k, v in r.items() if k not in journal_mod.SEAL_KEYS}
        body = change(body) or body
        line, h = journal_mod.seal(body, len(out), prev)
        sealed = json.loads(line)
        if "sig" in r:
            sealed["sig"] = r["sig"]
        out.append(sealed)
        prev = h
    rewrite(path, out)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command")
    add_commands(sub)
    from companion.arbiter.cli import add_commands as add_arbiter

    add_arbiter(sub)
    args = parser.parse_args(argv)
    return int(args.func(args))


def laptop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The arbiter's laptop: his data folder (key made on first use, keyring with tables 1-9
    enrolled) in ``tmp_path``, and no /etc/companion/config.toml; returns the data folder."""
    from companion import config

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "no-config.toml")
    folder = tmp_path / "data" / "companion" / "arbiter"
    folder.mkdir(parents=True)
    ring = Keyring(folder / "keyring.json")
    for n, key in TABLES.items():
        ring.enroll(str(n), key.public, "2026-11-24T20:00:00")
    ring.save()
    return folder


def club(folder: Path, *, game: str = "tamsk", system: str = "round-robin", rounds: int = 3,
         names: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dee"), name: str = "Club Cup",
         ratings: bool = True) -> Path:
    """A tournament made and filled through the command line; its file."""
    d = str(folder)
    assert run(["tournament", "new", name, "--game", game, "--system", system,
                "--rounds", str(rounds), "--dir", d]) == 0
    for i, who in enumerate(names):
        extra = ["--rating", str(1800 - 10 * i)] if ratings else []
        assert run(["tournament", "add-player", "--club", "Brno", "--dir", d, *extra, "--",
                    name, who]) == 0
    return folder / (name.replace(" ", "-") + ".tournament.jsonl")
