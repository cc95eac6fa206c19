"""Standings and round sheets as CSV and printable HTML (one page each, print-ready CSS)."""

from __future__ import annotations

import csv
import html
import io

from companion.tournament.model import Round, Tournament
from companion.tournament.standings import Table

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


def number(v: float) -> str:
    """½ rather than .5: what an arbiter writes."""
    whole = int(v)
    if v == whole:
        return str(whole)
    if abs(v - whole) == 0.5:
        return (str(whole) if whole else ("-" if v < 0 else "")) + "½"
    return f"{v:g}"


def standings_csv(table: Table) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "name", *(f"{c.key} ({c.unit})" for c in table.columns), "played"])
    for r in table.rows:
        w.writerow([r.rank, r.name, *(f"{r.values[c.key]:g}" for c in table.columns), r.played])
    return out.getvalue()


def _page(title: str, body: list[str]) -> str:
    e = html.escape
    return "\n".join([
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(title)}</title><style>{CSS}</style></head><body>", *body, "</body></html>",
    ]) + "\n"


def _standings_table(table: Table) -> list[str]:
    e = html.escape
    head = "".join(f"<th>{e(c.title)}<small>{e(c.unit)}</small></th>" for c in table.columns)
    out = [f"<table class='standings'><tr><th>Rank</th><th>Name</th>{head}<th>Played</th></tr>"]
    for r in table.rows:
        cells = "".join(f"<td class='n' data-col='{e(c.key)}'>{number(r.values[c.key])}</td>"
                        for c in table.columns)
        out.append(f"<tr><td class='n'>{r.rank}</td><td>{e(r.name)}</td>{cells}"
                   f"<td class='n'>{r.played}</td></tr>")
    out.append("</table>")
    out.append("<div class='legend'><p>Ranked by the columns from left to right; "
               "players equal on all share a rank.</p><ul>")
    out += [f"<li>{e(line)}</li>" for line in table.legend()]
    out.append("</ul></div>")
    return out


def standings_html(table: Table, *, title: str = "", after: int | None = None) -> str:
    e = html.escape
    heading = title or f"{table.title} standings"
    sub = f"after round {after}" if after else ""
    return _page(heading, [f"<h1>{e(heading)}</h1>", f"<p class='sub'>{e(table.title)}"
                           f"{': ' + e(sub) if sub else ''}</p>", *_standings_table(table)])


def result_text(t: Tournament, r: Round, table_no: int) -> str:
    g = next(g for g in r.games if g.table == table_no)
    if g.second is None:
        return f"bye ({number(t.bye_points)})"
    if g.result is None:
        return ""
    a, b = g.result.codes()
    text = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "−"}
    out = f"{text[a]}–{text[b]}"
    if g.result.score is not None:
        out += f" ({g.result.score[0]}:{g.result.score[1]})"
    return out


def round_sheet(t: Tournament, r: Round, table: Table | None = None) -> str:
    """The round's pairings (table, who moves first, who second, the result when known), and
    the standings when given: the sheet pinned on the wall."""
    e = html.escape
    body = [f"<h1>{e(t.name)}: round {r.number} of {t.rounds}</h1>",
            f"<p class='sub'>{e(table.title if table else t.game)}, {e(t.system)}</p>",
            "<table class='pairings'><tr><th>Table</th><th>Moves first</th>"
            "<th>Moves second</th><th>Result</th></tr>"]
    for g in r.games:
        first = t.player(g.first).name
        second = t.player(g.second).name if g.second is not None else "— bye —"
        label = str(g.table) if g.second is not None else ""
        body.append(f"<tr><td class='n'>{label}</td><td>{e(first)}</td><td>{e(second)}</td>"
                    f"<td>{e(result_text(t, r, g.table))}</td></tr>")
    body.append("</table>")
    if table is not None:
        body.append("<h2>Standings</h2>")
        body += _standings_table(table)
    return _page(f"{t.name} round {r.number}", body)


def pairings_text(t: Tournament, r: Round) -> str:
    """The round as the terminal shows it."""
    lines = [f"{t.name}: round {r.number} of {t.rounds}"]
    for g in r.games:
        first = t.player(g.first).name
        if g.second is None:
            lines.append(f"  bye       {first} ({number(t.bye_points)} point)")
            continue
        second = t.player(g.second).name
        res = result_text(t, r, g.table)
        lines.append(f"  table {g.table:2d}  {first} (moves first) - {second}"
                     + (f"   {res}" if res else ""))
    return "\n".join(lines)


def standings_text(table: Table) -> str:
    cols = table.columns
    width = max([4] + [len(r.name) for r in table.rows])
    head = "  ".join(f"{c.title:>{max(len(c.title), 6)}}" for c in cols)
    lines = [f"{'rank':>4}  {'name':<{width}}  {head}  played"]
    for r in table.rows:
        vals = "  ".join(f"{number(r.values[c.key]):>{max(len(c.title), 6)}}" for c in cols)
        lines.append(f"{r.rank:>4}  {r.name:<{width}}  {vals}  {r.played:>6}")
    lines.append("")
    lines += table.legend()
    return "\n".join(lines)
