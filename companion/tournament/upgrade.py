"""``companion tournament upgrade OLD.tournament.json``: a version 1 file into the signed journal.

Version 1 was one JSON object rewritten whole at every change, unsigned. Its facts become the
records of a version 2 file, one per fact, each written ``via`` ``upgrade``: the players (their
entry numbers kept, and as starting numbers), each round's pairing (a bye as a
pairing-allocated bye), each result (its source ``upgrade``: "upgraded from an unsigned
version 1 file"), a withdrawal from the round after the last paired. Every result is judged by
its game's rules as any new one is; the old file is left as it was.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.keys import SigningKey
from companion.remark import N_
from companion.tournament import store
from companion.tournament.model import (
    Result,
    Settings,
    Source,
    TournamentError,
    header,
    refuse,
    result_from,
)
from companion.tournament.outcome import default_reason

MAX_BYTES = 4_000_000


def _dict(v: object) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise refuse(N_("not a version 1 tournament file"))
    return v


def records_of(old: Mapping[str, Any], wall: float) -> tuple[dict[str, Any], list[dict[str,
                                                                                         Any]]]:
    """The header and the records of the version 2 file for a version 1 tournament."""
    if old.get("kind") != "companion-tournament" or old.get("version") != 1:
        raise refuse(N_("not a version 1 tournament file"))
    bye = old.get("bye_points", 1.0)
    system = "swiss-simple" if old.get("system") == "swiss" else old.get("system")
    head = header(str(old.get("name")), str(old.get("game")), str(system),
                  int(old.get("rounds") or 0),
                  Settings(bye_points=float(bye) if isinstance(bye, (int, float)) else 1.0),
                  wall)
    out: list[dict[str, Any]] = []
    tag = {"wall": wall, "via": "upgrade"}
    players = [_dict(p) for p in old.get("players", []) or []]
    for p in players:
        out.append({"ev": "player", "id": p.get("number"), "name": p.get("name"),
                    "rating": p.get("rating", 0), "club": p.get("club", ""), **tag})
    if players:
        out.append({"ev": "numbers", "numbers": {str(p.get("number")): p.get("number")
                                                 for p in players}, **tag})
    played = [_dict(r) for r in old.get("played", []) or []]
    for r in played:
        games = [_dict(g) for g in r.get("games", []) or []]
        pairs = [g for g in games if g.get("second") is not None]
        out.append({"ev": "pair", "round": r.get("number"),
                    "games": [{"board": g.get("table"), "table": g.get("table"),
                               "first": g.get("first"), "second": g.get("second")}
                              for g in pairs],
                    "byes": [{"player": g.get("first"), "kind": "pab"} for g in games
                             if g.get("second") is None],
                    "engine": "manual", **tag})
        for g in pairs:
            if g.get("result") is None:
                continue
            given = _dict(g["result"])
            result: Result = result_from({k: given.get(k) for k in
                                          ("winner", "forfeit", "score", "reason")})
            if not result.reason:  # version 1 kept no reason: the one a typed result gets
                result = replace(result, reason=default_reason(
                    str(head["game"]), result.winner, result.forfeit, result.score))
            out.append({"ev": "result", "round": r.get("number"), "board": g.get("table"),
                        "result": result.to_dict(), "source": Source("upgrade").to_dict(),
                        "replaces": None, "rounds_after": [], **tag,
                        "why": f"upgraded from an unsigned version 1 file ({given.get('source')})"})
    for p in players:
        if p.get("withdrawn"):
            out.append({"ev": "withdraw", "player": p.get("number"), "from": len(played) + 1,
                        **tag})
    return head, out


def upgrade(old_path: Path, directory: Path, key: SigningKey, wall: float) -> Path:
    """Write the version 2 file of the version 1 file at ``old_path`` into ``directory``."""
    try:
        if old_path.stat().st_size > MAX_BYTES:
            raise refuse(N_("{file}: too big for a tournament file"), file=str(old_path))
        old = json.loads(old_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise refuse(N_("{file}: no such file"), file=str(old_path)) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise refuse(N_("{file}: not a readable tournament file ({problem})"),
                     file=str(old_path), problem=str(exc)) from None
    head, records = records_of(_dict(old), wall)
    path = store.path_for(str(head["name"]), directory)
    store.create(path, head, key)
    try:
        store.append(path, key, lambda t: records)
    except TournamentError:
        path.unlink()  # nothing half-upgraded is left behind
        raise
    return path
