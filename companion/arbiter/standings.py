"""Tournament standings from result records: points, then margin, then head-to-head.

A win is 1 point (also by forfeit), a draw ½, a loss 0. Ties on points are broken by the sum of
margins (rings: the opponent's rings left minus one's own, for Tamsk, where fewer rings left is
better; score: one's points minus the opponent's, for Tantrix), then by the points scored in the
games between the tied players only (head-to-head), then by name so the order is stable.

Exports: CSV, a printable HTML round sheet, and FIDE TRF-16 player lines with their round
results in TRF's codes (``1``, ``0``, ``=``, ``+``, ``-``) so pairing programs can read them.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


class StandingsError(ValueError):
    """A result record that cannot be counted (with what is wrong with it)."""


@dataclass(frozen=True)
class Pairing:
    """One finished game between two players."""

    round: int
    table: int
    game: str
    first: str  # moved first (red in Tamsk, the first seat in Tantrix): TRF colour "w"
    second: str
    codes: tuple[str, str]
    margins: tuple[int, int]

    def points(self, player: str) -> float:
        if player == self.first:
            return POINTS[self.codes[0]]
        if player == self.second:
            return POINTS[self.codes[1]]
        return 0.0

    @property
    def score_text(self) -> str:
        a, b = self.codes
        if "+" in self.codes or "-" in self.codes:
            return f"{a} / {b}"
        text = {"1": "1", "0": "0", "=": "½"}
        return f"{text[a]}–{text[b]}"


def pairing_from_result(record: Mapping[str, Any]) -> Pairing:
    """The pairing a result record describes (see :mod:`companion.arbiter.results`)."""
    try:
        players = record["players"]
        (c1, n1), (c2, n2) = ((p["colour"], p["name"]) for p in players)
        codes = (str(record["trf"][c1]), str(record["trf"][c2]))
        margins = (int(record["margin"][c1]), int(record["margin"][c2]))
        number = record.get("round")
        table = record.get("table")
    except (KeyError, TypeError, ValueError) as exc:
        raise StandingsError(f"not a two-player result record ({exc})") from None
    if not all(c in POINTS for c in codes):
        raise StandingsError(f"unknown result codes {codes}")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        number = 0  # a game started without --round: numbered by :func:`number_rounds`
    return Pairing(number, int(table or 0), str(record.get("game")), str(n1), str(n2), codes,
                   margins)


def number_rounds(pairings: Iterable[Pairing]) -> list[Pairing]:
    """The games with a round number for each: a game whose record has none (round 0) gets the
    first round in which neither of its players has a game, in the order given, so that every
    real game counts in the standings and in TRF (where each player has one game a round)."""
    games = list(pairings)
    busy: dict[str, set[int]] = {}
    for g in games:
        if g.round:
            busy.setdefault(g.first, set()).add(g.round)
            busy.setdefault(g.second, set()).add(g.round)
    out = []
    for g in games:
        if not g.round:
            taken = busy.setdefault(g.first, set()) | busy.setdefault(g.second, set())
            n = next(n for n in range(1, len(taken) + 2) if n not in taken)
            g = replace(g, round=n)
            busy[g.first].add(n)
            busy[g.second].add(n)
        out.append(g)
    return out


@dataclass
class Row:
    name: str
    points: float = 0.0
    margin: int = 0
    played: int = 0
    h2h: float = 0.0
    rank: int = 0
    start: int = 0  # starting number for TRF (alphabetical)
    results: dict[int, tuple[str, str, str]] = field(default_factory=dict)  # round -> opp, c, r


def standings(pairings: Iterable[Pairing]) -> list[Row]:
    """The ranking after these games."""
    games = number_rounds(pairings)
    rows: dict[str, Row] = {}
    for g in games:
        for i, (name, opp) in enumerate(((g.first, g.second), (g.second, g.first))):
            row = rows.setdefault(name, Row(name))
            row.points += POINTS[g.codes[i]]
            row.margin += g.margins[i]
            row.played += 1
            row.results[g.round] = (opp, "w" if i == 0 else "b", g.codes[i])
    for n, name in enumerate(sorted(rows), start=1):
        rows[name].start = n
    groups: dict[tuple[float, int], list[Row]] = {}
    for row in rows.values():
        groups.setdefault((row.points, row.margin), []).append(row)
    for tied in groups.values():
        names = {r.name for r in tied}
        if len(tied) < 2:
            continue
        between = [g for g in games if {g.first, g.second} <= names]
        for r in tied:
            r.h2h = sum(g.points(r.name) for g in between)
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.margin, -r.h2h, r.name))
    for i, row in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        same = prev is not None and (prev.points, prev.margin, prev.h2h) == (
            row.points, row.margin, row.h2h
        )
        row.rank = prev.rank if same and prev is not None else i + 1
    return ordered


def margin_unit(pairings: Iterable[Pairing]) -> str:
    """What the margins of these games count (each game's arbiter facet says: rings in one,
    score points in another); "points" when no game says."""
    from companion import registry

    units = set()
    for game in {p.game for p in pairings}:
        try:
            facet = registry.get(game).arbiter()
        except registry.UnknownGame:
            facet = None
        units.add(str(getattr(facet, "MARGIN_UNIT", "points")))
    return " or ".join(sorted(units)) or "points"


def to_csv(rows: Sequence[Row], pairings: Iterable[Pairing] = ()) -> str:
    """The standings as CSV, each column's unit in its heading as in the tournament's."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "name", "points (game points)", f"margin ({margin_unit(pairings)})",
                "head_to_head (game points)", "played (games)"])
    for r in rows:
        w.writerow([r.rank, r.name, f"{r.points:g}", r.margin, f"{r.h2h:g}", r.played])
    return out.getvalue()


def to_trf(rows: Sequence[Row], *, tournament: str = "", rounds: int | None = None) -> str:
    """FIDE TRF-16 lines: ``012`` (name) and one ``001`` line per player with his rounds."""
    by_name = {r.name: r for r in rows}
    last = rounds or max((max(r.results, default=0) for r in rows), default=0)
    lines = [f"012 {tournament}".rstrip()]
    for r in sorted(rows, key=lambda r: r.start):
        line = (
            f"001 {r.start:4d} {'':1}{'':>3} {r.name:<33.33} {'':4} {'':3} {'':>11} {'':10} "
            f"{r.points:4.1f} {r.rank:4d}"
        )
        for n in range(1, last + 1):
            played = r.results.get(n)
            if played is None:
                line += " " * 10  # not paired that round
                continue
            opp, colour, code = played
            line += f"  {by_name[opp].start:4d} {colour} {code}"
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { border: 1px solid #444; padding: 0.3em 0.8em; text-align: left; }
th { background: #eee; }
@media print { body { margin: 0; } h1 { font-size: 14pt; } }
"""


def round_sheet(
    pairings: Iterable[Pairing], rows: Sequence[Row], *, round_no: int, tournament: str = ""
) -> str:
    """A printable HTML page: the round's pairings and results, then the standings."""
    e = html.escape
    games = sorted((p for p in pairings if p.round == round_no), key=lambda p: p.table)
    out = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>{e(tournament)} round {round_no}</title><style>{_CSS}</style></head><body>",
        f"<h1>{e(tournament) or 'Tournament'}: round {round_no}</h1>",
        "<table><tr><th>Table</th><th>First</th><th>Second</th><th>Result</th>"
        "<th>Margin</th><th>Game</th></tr>",
    ]
    for p in games:
        out.append(
            f"<tr><td>{p.table}</td><td>{e(p.first)}</td><td>{e(p.second)}</td>"
            f"<td>{e(p.score_text)}</td><td>{p.margins[0]:+d}</td><td>{e(p.game)}</td></tr>"
        )
    out.append("</table><h2>Standings</h2><table><tr><th>Rank</th><th>Name</th><th>Points</th>"
               "<th>Margin</th><th>Head-to-head</th><th>Played</th></tr>")
    for r in rows:
        out.append(
            f"<tr><td>{r.rank}</td><td>{e(r.name)}</td><td>{r.points:g}</td><td>{r.margin:+d}</td>"
            f"<td>{r.h2h:g}</td><td>{r.played}</td></tr>"
        )
    out.append("</table></body></html>")
    return "\n".join(out)
