"""Standings and round sheets as CSV, printable HTML and terminal text (all from one
:func:`~companion.tournament.standings.standings` table).

The CSV is the one writer of standings CSV (``tournament standings --csv`` and the page's
``/standings.csv``). A spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return as a formula, so such a cell is written with a single quote in front
(OWASP's CSV injection advice); a plain number (``-3``, ``2.5``) is left as it is.
"""

from __future__ import annotations

import csv
import html
import io
import re

from companion.i18n import _, language
from companion.tournament import printouts
from companion.tournament.model import Round, Tournament
from companion.tournament.standings import Row, Table

CSS = """
body { font-family: sans-serif; margin: 2em; color: #000; }
h1 { font-size: 18pt; margin-bottom: 0.2em; }
.sub { color: #444; margin-top: 0; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { border: 1px solid #444; padding: 0.3em 0.7em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #eee; }
th small { font-weight: normal; color: #444; display: block; }
.legend { font-size: 10pt; }
@page { size: A4; margin: 15mm; }
@media print {
  body { margin: 0; }
  th { background: #eee !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  tr { page-break-inside: avoid; }
}
"""
#: What a spreadsheet takes for the start of a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def number(v: float) -> str:
    """½ rather than .5: what an arbiter writes (:func:`.printouts.amount`)."""
    return printouts.amount(v)


def cell(row: Row, key: str) -> str:
    """A standings cell: blank where the column has no value for the player (direct
    encounter when he was not tied)."""
    return "" if key in row.blank else number(row.values[key])


def shown_name(row: Row) -> str:
    """The player's name, marked when he has withdrawn."""
    return row.name + (" " + _("(withdrawn)") if row.withdrawn else "")


def neutral(cell: object) -> str:
    """A CSV cell a spreadsheet shows as text, never runs as a formula."""
    text = str(cell)
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def standings_csv(table: Table) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    rows = [["rank", "name", *(f"{c.key} ({c.unit})" for c in table.columns), "played"]]
    for r in table.rows:
        rows.append([str(r.rank), r.name, *("" if c.key in r.blank else f"{r.values[c.key]:g}"
                                            for c in table.columns), str(r.played)])
    for row in rows:
        w.writerow([neutral(cell) for cell in row])
    return out.getvalue()


def _page(title: str, body: list[str]) -> str:
    e = html.escape
    return "\n".join([
        "<!DOCTYPE html>", f"<html lang='{language()}'><head><meta charset='utf-8'>",
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>", *body, "</body></html>",
    ]) + "\n"


def _standings_table(table: Table) -> list[str]:
    e = html.escape
    head = "".join(f"<th>{e(printouts.column_title(c))}<small>{e(printouts.column_unit(c))}"
                   "</small></th>" for c in table.columns)
    rank, name, played = _("Rank"), _("Name"), _("Played")
    out = [f"<table class='standings'><tr><th>{e(rank)}</th><th>{e(name)}</th>"
           f"{head}<th>{e(played)}</th></tr>"]
    for r in table.rows:
        cells = "".join(f"<td class='n' data-col='{e(c.key)}'>{cell(r, c.key)}</td>"
                        for c in table.columns)
        out.append(f"<tr><td class='n'>{r.rank}</td><td>{e(shown_name(r))}</td>{cells}"
                   f"<td class='n'>{r.played}</td></tr>")
    out.append("</table>")
    ranked = _("Ranked by the columns from left to right; players equal on all share a rank.")
    out.append(f"<div class='legend'><p>{e(ranked)}</p><ul>")
    out += [f"<li>{e(line)}</li>" for line in printouts.legend_lines(table.columns)]
    out.append("</ul></div>")
    return out


def standings_html(table: Table) -> str:
    e = html.escape
    heading = _("{tournament}: standings").format(tournament=table.tournament or table.title)
    sub = _("{game}, after round {round}").format(game=table.title, round=table.after)
    return _page(heading, [f"<h1>{e(heading)}</h1>", f"<p class='sub'>{e(sub)}</p>",
                           *_standings_table(table)])


def result_text(t: Tournament, r: Round, board: int) -> str:
    g = r.board(board)
    if g is None or g.result is None:
        return ""
    return g.result.text()


def bye_text(t: Tournament, kind: str) -> str:
    if kind == "pab":
        return _("bye ({points})").format(points=number(t.settings.bye_points))
    if kind == "half":
        return _("requested bye (½)")
    if kind == "zero":
        return _("requested bye (0)")
    return _("absent")


def round_sheet(t: Tournament, r: Round, table: Table | None = None) -> str:
    """The round's pairings (board, table, who moves first, who second, the result when
    known), byes, and the standings after this round when given: the sheet on the wall."""
    e = html.escape
    title = _("{tournament}: round {round} of {rounds}").format(
        tournament=t.name, round=r.number, rounds=t.rounds)
    system = printouts.system_words(t)
    body = [f"<h1>{e(title)}</h1>",
            f"<p class='sub'>{e(table.title if table else t.game)}, {e(system)}</p>",
            "<table class='pairings'><tr>" + "".join(
                f"<th>{e(label)}</th>" for label in (_("Board"), _("Table"), _("Moves first"),
                                                     _("Moves second"), _("Result"))) + "</tr>"]
    for g in r.games:
        body.append(f"<tr><td class='n'>{g.board}</td><td class='n'>{g.table}</td>"
                    f"<td>{e(t.players[g.first].name)}</td><td>{e(t.players[g.second].name)}"
                    f"</td><td>{e(result_text(t, r, g.board))}</td></tr>")
    for b in r.byes:
        body.append(f"<tr><td></td><td></td><td>{e(t.players[b.player].name)}</td>"
                    f"<td>{e(bye_text(t, b.kind))}</td><td></td></tr>")
    body.append("</table>")
    if table is not None:
        after = _("Standings after round {round}").format(round=table.after)
        body.append(f"<h2>{e(after)}</h2>")
        body += _standings_table(table)
    return _page(title, body)


def pairings_text(t: Tournament, r: Round) -> str:
    """The round as the terminal shows it."""
    lines = [_("{tournament}: round {round} of {rounds}").format(
        tournament=t.name, round=r.number, rounds=t.rounds)]
    for g in r.games:
        res = result_text(t, r, g.board)
        lines.append(_("  board {board} (table {table})  {first} (moves first) - {second}")
                     .format(board=g.board, table=g.table, first=t.players[g.first].name,
                             second=t.players[g.second].name) + (f"   {res}" if res else ""))
    for b in r.byes:
        lines.append(f"  {bye_text(t, b.kind)}: {t.players[b.player].name}")
    for w in r.warnings:
        lines.append(_("  warning: {text}").format(text=w))
    return "\n".join(lines)


def standings_text(table: Table) -> str:
    """The standings as the terminal shows them, the columns' words in the reader's language."""
    table, english = printouts.said(table), table
    cols = table.columns
    width = max([4] + [len(shown_name(r)) for r in table.rows])
    head = "  ".join(f"{c.title:>{max(len(c.title), 6)}}" for c in cols)
    rank, name, played = _("rank"), _("name"), _("played")
    lines = [f"{rank:>4}  {name:<{width}}  {head}  {played}"]
    for r in table.rows:
        vals = "  ".join(f"{cell(r, c.key):>{max(len(c.title), 6)}}" for c in cols)
        lines.append(f"{r.rank:>4}  {shown_name(r):<{width}}  {vals}  {r.played:>{len(played)}}")
    lines.append("")
    lines += printouts.legend_lines(english.columns)
    return "\n".join(lines)
