"""The arbiter's printouts, in the players' language: the pairing list, the result list, the
standings, the round-robin cross table and the Swiss wall chart, each as a printable A4 page
(HTML with print CSS) and as terminal text (``companion tournament sheet T --kind KIND``).

Each printout is first a :class:`Printout` (a title, a line under it, tables of cells, a
legend), built from the fold of the tournament file alone (:class:`~companion.tournament.model.
Tournament`) and from the one standings function
(:func:`companion.tournament.standings.standings`), then drawn by :func:`html_page` or
:func:`text`: the two ways never disagree, and a test reads the same cells in both.

What a FIDE arbiter looks for on each (Swiss Manager's and Vega's printouts):

- **pairing list** (round N): board, table, each player's starting number, name and points
  before the round, the one who moves first on the left (TRF's white); then the byes;
- **result list** (round N): the same boards with their results (``1-0``, ``½-½``, ``+-``,
  ``--``, the score when the game keeps one), and the byes with their points;
- **standings** after round N: rank, starting number, name, points and the tournament's
  tie-breaks in order, each column's title with its unit under it, and a legend line for each;
- **cross table** (round robin) after round N: each player's row against every other's column,
  by starting number (the Berger tables' numbers), so the table is symmetric: ``1`` in one cell
  is ``0`` in its mirror, ``½`` is ``½``, ``+`` is ``-``; two results per cell in a double
  round robin; then the points, the tie-breaks and the rank;
- **wall chart** (Swiss) after round N: each player's rounds: the opponent's starting number,
  ``○`` for the first move or ``●`` for the second, the result, and under it the points after
  that round (a bye ``U``, a requested bye or missed round ``H`` or ``Z``, as TRF writes them).

Names are written as they were entered (UTF-8, escaped in HTML); numbers with the reader's
decimal mark (:mod:`companion.numbers`), halves as ``½`` as score sheets write them; the date
as CLDR writes it. Standard library only, no clock: the shell gives the day it prints on.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from companion import i18n, numbers, registry
from companion.i18n import _
from companion.remark import N_
from companion.tournament.model import Entry, Round, Tournament, refuse
from companion.tournament.record import Column
from companion.tournament.standings import Row, Table, standings

#: The printouts ``tournament sheet --kind`` makes (``round`` is the round sheet of
#: :mod:`.sheets`: pairings, results and the standings after the round on one page).
KINDS = ("pairings", "results", "standings", "crosstable", "wallchart")
#: Who moved first (TRF's white) and second in a wall chart's cell.
FIRST_MARK, SECOND_MARK = "○", "●"
#: A player's result in one game as the cross table and wall chart write it (TRF's codes).
RESULT_MARKS = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-"}


# ---------------------------------------------------------------------------- numbers


def amount(value: float) -> str:
    """Points as an arbiter writes them: ``2``, ``1½``, ``-½``; any other fraction with the
    reader's decimal mark (``2,25`` in French and Czech), never grouped."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if abs(value - whole) == 0.5:
        return (str(whole) if whole else ("-" if value < 0 else "")) + "½"
    digits = 1 if round(value, 1) == round(value, 2) else 2
    text = numbers.decimal(value, digits)
    return text.replace(numbers.cldr().group, "") if abs(value) >= 1000 else text


def rating(value: int) -> str:
    """A rating, blank for the unrated (never grouped: ``1650``)."""
    return str(value) if value else ""


# ---------------------------------------------------------------------------- words


def column_title(c: Column) -> str:
    """A standings column's title in the reader's language."""
    return _(c.title)


def column_unit(c: Column) -> str:
    return _(c.unit)


def legend_line(c: Column) -> str:
    """``Rings margin (rings): opponent's rings left minus ...``; a FIDE tie-break's legend,
    which starts with its own title, is not given the title twice."""
    title, unit, legend = column_title(c), column_unit(c), _(c.legend)
    own = re.match(rf"{re.escape(title)}\s*:\s*", legend)
    if own is not None:
        legend = legend[own.end():]
    return _("{title} ({unit}): {legend}").format(title=title, unit=unit, legend=legend)


def legend_lines(columns: Sequence[Column]) -> list[str]:
    return [legend_line(c) for c in columns]


def said(table: Table) -> Table:
    """The standings with their columns' titles, units and legends in the reader's language
    (the rows are the same)."""
    return replace(table, columns=tuple(Column(c.key, column_title(c), column_unit(c),
                                               _(c.legend)) for c in table.columns))


def system_words(t: Tournament) -> str:
    """The pairing system as the players read it."""
    if t.system == "round-robin":
        return _("double round robin") if t.settings.double else _("round robin")
    if t.system == "swiss-simple":
        return _("Swiss system (simplified)")
    return _("Swiss system")


def bye_words(t: Tournament, kind: str) -> str:
    """A bye of the round, in words (the round sheet's)."""
    if kind == "pab":
        return _("bye ({points})").format(points=amount(t.settings.bye_points))
    if kind == "half":
        return _("requested bye (½)")
    if kind == "zero":
        return _("requested bye (0)")
    return _("absent")


def withdrawn_mark(t: Tournament, pid: int) -> str:
    """The player's name, marked when he has withdrawn for good."""
    p = t.players[pid]
    return f"{p.name} ({_('withdrawn')})" if p.withdrawn else p.name


# ---------------------------------------------------------------------------- the printout


@dataclass(frozen=True)
class Head:
    """A column: its title, its unit (under the title), and whether it holds numbers (right
    aligned)."""

    title: str
    unit: str = ""
    numeric: bool = False
    key: str = ""  # the standings column's key (``data-col``), or ""


@dataclass(frozen=True)
class Cell:
    """One cell: its text, a second line under it (a wall chart's running total), and whether
    it is shaded (the cross table's diagonal)."""

    text: str
    below: str = ""
    shaded: bool = False


@dataclass
class Grid:
    """One table of a printout."""

    css: str  # the table's class (``pairings``, ``crosstable``, ...)
    heads: tuple[Head, ...]
    rows: list[list[Cell]] = field(default_factory=list)
    caption: str = ""


@dataclass
class Printout:
    """A printout before it is drawn: title, the line under it, its tables, its legend."""

    kind: str
    title: str
    sub: str
    grids: list[Grid]
    legend: list[str] = field(default_factory=list)
    wide: bool = False  # printed across the page (A4 landscape)


def _sub(t: Tournament, printed: date | None) -> str:
    parts = [registry.get(t.game).title, system_words(t)]
    if printed is not None:
        parts.append(_("printed {date}").format(date=numbers.day(printed)))
    return ", ".join(parts)


def _points_before(t: Tournament, number: int) -> dict[int, float]:
    return t.points(upto=number - 1)


def pairing_list(t: Tournament, number: int, *, printed: date | None = None) -> Printout:
    """Round ``number``'s pairings: board, table, the players' starting numbers, names and
    points before the round (the first mover on the left), then the byes."""
    r = t.round(number)
    start, before = t.start_numbers(), _points_before(t, number)
    pts = Head(_("Points"), _("before the round"), True)
    no = Head(_("No."), numeric=True)
    grid = Grid("pairings", (Head(_("Board"), numeric=True), Head(_("Table"), numeric=True), no,
                             Head(_("Moves first")), pts, pts, Head(_("Moves second")), no))
    for g in r.games:
        grid.rows.append([Cell(str(g.board)), Cell(str(g.table)), Cell(str(start[g.first])),
                          Cell(withdrawn_mark(t, g.first)), Cell(amount(before[g.first])),
                          Cell(amount(before[g.second])), Cell(withdrawn_mark(t, g.second)),
                          Cell(str(start[g.second]))])
    grids = [grid]
    if r.byes:
        byes = Grid("byes", (no, Head(_("Name")), pts, Head(_("Bye"))), caption=_("Byes"))
        for b in sorted(r.byes, key=lambda b: start[b.player]):
            byes.rows.append([Cell(str(start[b.player])), Cell(withdrawn_mark(t, b.player)),
                              Cell(amount(before[b.player])), Cell(bye_words(t, b.kind))])
        grids.append(byes)
    title = _("{tournament}: pairings of round {round} of {rounds}").format(
        tournament=t.name, round=number, rounds=t.rounds)
    legend = [_("No.: the starting number; the player on the left moves first.")]
    return Printout("pairings", title, _sub(t, printed), grids, legend)


def result_text(r: Round, board: int) -> str:
    """A board's result as the arbiter writes it, "" while it is not in."""
    g = r.board(board)
    return g.result.text() if g is not None and g.result is not None else ""


def result_list(t: Tournament, number: int, *, printed: date | None = None) -> Printout:
    """Round ``number``'s results: board, the players (starting number, name), the result
    (the first mover's side first, the score when the game keeps one), then the byes."""
    r = t.round(number)
    start = t.start_numbers()
    no = Head(_("No."), numeric=True)
    grid = Grid("results", (Head(_("Board"), numeric=True), no, Head(_("Moves first")),
                            Head(_("Result")), Head(_("Moves second")), no))
    for g in r.games:
        grid.rows.append([Cell(str(g.board)), Cell(str(start[g.first])),
                          Cell(withdrawn_mark(t, g.first)), Cell(result_text(r, g.board)),
                          Cell(withdrawn_mark(t, g.second)), Cell(str(start[g.second]))])
    grids = [grid]
    entries = t.entries(number)
    if r.byes:
        byes = Grid("byes", (no, Head(_("Name")), Head(_("Bye")), Head(_("Points"), numeric=True)),
                    caption=_("Byes"))
        for b in sorted(r.byes, key=lambda b: start[b.player]):
            byes.rows.append([Cell(str(start[b.player])), Cell(withdrawn_mark(t, b.player)),
                              Cell(bye_words(t, b.kind)),
                              Cell(amount(entries[b.player][number].points))])
        grids.append(byes)
    missing = sum(1 for g in r.games if g.result is None)
    title = _("{tournament}: results of round {round} of {rounds}").format(
        tournament=t.name, round=number, rounds=t.rounds)
    legend = [_("1-0: the first mover won, 0-1: the second, ½-½: a tie; +- and -+: won by "
                "forfeit, --: both forfeit; the score in brackets, the first mover's first.")]
    if missing:
        legend.append(i18n.ngettext("{n} result is not in yet.", "{n} results are not in yet.",
                                    missing).format(n=missing))
    return Printout("results", title, _sub(t, printed), grids, legend)


def value(row: Row, key: str) -> str:
    """A standings cell: blank where the column has no value for the player (direct encounter
    when he was not tied: the standings' ``Row.blank``, where it has one)."""
    return "" if key in getattr(row, "blank", ()) else amount(row.values[key])


def _standing_heads(table: Table) -> list[Head]:
    return [Head(column_title(c), column_unit(c), True, c.key) for c in table.columns]


def _standing_cells(table: Table, pid: int) -> list[Cell]:
    row = next(r for r in table.rows if r.id == pid)
    return [Cell(value(row, c.key)) for c in table.columns]


def _rated(t: Tournament) -> bool:
    return any(p.rating for p in t.players.values())


def _after(t: Tournament, after: int | None) -> int:
    return len(t.played) if after is None else max(0, min(after, len(t.played)))


def standings_list(t: Tournament, after: int | None = None, *,
                   printed: date | None = None) -> Printout:
    """The standings after round ``after``: rank, starting number, name, points and the
    tournament's tie-breaks in order (title and unit), games played; a legend line a
    column."""
    table = standings(t, after=_after(t, after))
    start, rated = t.start_numbers(), _rated(t)
    heads = [Head(_("Rank"), numeric=True), Head(_("No."), numeric=True), Head(_("Name"))]
    heads += [Head(_("Rating"), numeric=True)] if rated else []
    heads += _standing_heads(table)
    heads.append(Head(_("Played"), _("games"), True))
    grid = Grid("standings", tuple(heads))
    for row in table.rows:
        cells = [Cell(str(row.rank)), Cell(str(start[row.id])), Cell(withdrawn_mark(t, row.id))]
        cells += [Cell(rating(t.players[row.id].rating))] if rated else []
        cells += [Cell(value(row, c.key)) for c in table.columns]
        cells.append(Cell(str(row.played)))
        grid.rows.append(cells)
    title = _("{tournament}: standings after round {round}").format(tournament=t.name,
                                                                     round=table.after)
    legend = [_("Ranked by the columns from left to right; players equal on all share a rank."),
              *legend_lines(table.columns),
              _("Played: the games played over the board (not byes, not forfeits).")]
    return Printout("standings", title, _sub(t, printed), [grid], legend)


def _mark(entry: Entry) -> str:
    return RESULT_MARKS.get(entry.code, "")


@dataclass
class _ByNumber:
    """What the cross table and the wall chart both start from: the round they are after, its
    standings, the starting numbers, each player's entries, the players in number order, and
    the first columns' heads (number, name and, when anyone is rated, rating)."""

    last: int
    table: Table
    start: dict[int, int]
    entries: dict[int, dict[int, Entry]]
    order: list[int]
    rated: bool
    heads: list[Head]


def _by_number(t: Tournament, after: int | None) -> _ByNumber:
    last = _after(t, after)
    start = t.start_numbers()
    rated = _rated(t)
    heads = [Head(_("No."), numeric=True), Head(_("Name"))]
    heads += [Head(_("Rating"), numeric=True)] if rated else []
    return _ByNumber(last, standings(t, after=last), start, t.entries(last),
                     sorted(t.players, key=start.__getitem__), rated, heads)


def cross_table(t: Tournament, after: int | None = None, *,
                printed: date | None = None) -> Printout:
    """Every player against every other, by starting number, after round ``after``: the
    result of the row's player against the column's (both legs of a double round robin, in
    round order), then the points, the tie-breaks and the rank."""
    by = _by_number(t, after)
    last, table, start, entries, order, rated = (by.last, by.table, by.start, by.entries,
                                                 by.order, by.rated)
    heads = [*by.heads, *(Head(str(start[pid]), numeric=True) for pid in order)]
    heads += _standing_heads(table)
    heads.append(Head(_("Rank"), numeric=True))
    rank = {row.id: row.rank for row in table.rows}
    grid = Grid("crosstable", tuple(heads))
    for pid in order:
        cells = [Cell(str(start[pid])), Cell(withdrawn_mark(t, pid))]
        cells += [Cell(rating(t.players[pid].rating))] if rated else []
        for other in order:
            if other == pid:
                cells.append(Cell("×", shaded=True))
                continue
            met = [_mark(e) for n, e in sorted(entries[pid].items())
                   if e.kind == "game" and e.opponent == other]
            cells.append(Cell(" ".join(m or "·" for m in met)))
        cells += _standing_cells(table, pid)
        cells.append(Cell(str(rank[pid])))
        grid.rows.append(cells)
    title = _("{tournament}: crosstable after round {round}").format(tournament=t.name,
                                                                       round=last)
    legend = [_("Each row's player against each column's, by starting number: 1 won, ½ tie, "
                "0 lost, + won by forfeit, - lost by forfeit, · not played yet."),
              *legend_lines(table.columns)]
    return Printout("crosstable", title, _sub(t, printed), [grid], legend,
                    wide=len(order) > 8)


def _chart_cell(t: Tournament, entry: Entry, start: dict[int, int]) -> str:
    if entry.kind == "game" and entry.opponent is not None:
        colour = FIRST_MARK if entry.colour == "w" else SECOND_MARK
        return f"{start[entry.opponent]}{colour} {_mark(entry) or '·'}".rstrip()
    return f"{entry.code} {amount(entry.points)}"


def wall_chart(t: Tournament, after: int | None = None, *,
               printed: date | None = None) -> Printout:
    """Each player's rounds up to ``after``, by starting number: the opponent's starting
    number, the colour (first or second move) and the result, with the points after the
    round under it; then the points and the rank."""
    by = _by_number(t, after)
    last, table, start, entries, order, rated = (by.last, by.table, by.start, by.entries,
                                                 by.order, by.rated)
    heads = [*by.heads, *(Head(_("Round {round}").format(round=n)) for n in range(1, last + 1))]
    heads += [Head(column_title(table.columns[0]), column_unit(table.columns[0]), True,
                   table.columns[0].key), Head(_("Rank"), numeric=True)]
    rank = {row.id: row.rank for row in table.rows}
    points = {row.id: row.values[table.columns[0].key] for row in table.rows}
    grid = Grid("wallchart", tuple(heads))
    for pid in order:
        cells = [Cell(str(start[pid])), Cell(withdrawn_mark(t, pid))]
        cells += [Cell(rating(t.players[pid].rating))] if rated else []
        total = 0.0
        for n in range(1, last + 1):
            entry = entries[pid][n]
            total += entry.points
            pending = entry.kind == "game" and not entry.code
            cells.append(Cell(_chart_cell(t, entry, start), "" if pending else amount(total)))
        cells += [Cell(amount(points[pid])), Cell(str(rank[pid]))]
        grid.rows.append(cells)
    title = _("{tournament}: wall chart after round {round}").format(tournament=t.name,
                                                                      round=last)
    legend = [
        _("Each round: the opponent's starting number, {first} for the first move or {second} "
          "for the second, and the result: 1 won, ½ tie, 0 lost, + won by forfeit, - lost by "
          "forfeit, · not in yet; under it, the points after that round.").format(
            first=FIRST_MARK, second=SECOND_MARK),
        _("U: a bye ({points}); H: a requested bye or a missed round (½); Z: a requested bye, "
          "an absence or a missed round (0).").format(points=amount(t.settings.bye_points)),
        legend_line(table.columns[0]),
    ]
    return Printout("wallchart", title, _sub(t, printed), [grid], legend, wide=last > 5)


def printout(t: Tournament, kind: str, number: int | None = None, *,
             printed: date | None = None) -> Printout:
    """The printout ``kind`` (:data:`KINDS`) of round ``number`` (pairings, results) or after
    it (the others); default: the last round paired."""
    if not t.played:
        raise refuse(N_("no round is paired yet"))
    chosen = len(t.played) if number is None else number
    if kind == "pairings":
        return pairing_list(t, chosen, printed=printed)
    if kind == "results":
        return result_list(t, chosen, printed=printed)
    t.round(chosen)  # a round that is not paired is refused, as for the others
    if kind == "standings":
        return standings_list(t, chosen, printed=printed)
    if kind == "crosstable":
        return cross_table(t, chosen, printed=printed)
    if kind == "wallchart":
        return wall_chart(t, chosen, printed=printed)
    raise refuse(N_("no printout called {kind}: choose {kinds}"), kind=kind,
                 kinds=", ".join(KINDS))


# ---------------------------------------------------------------------------- drawn


CSS = """
body { font-family: "DejaVu Sans", "Noto Sans", sans-serif; margin: 2em; color: #000; }
h1 { font-size: 16pt; margin: 0 0 0.2em; }
.sub { color: #333; margin: 0 0 1em; }
h2 { font-size: 12pt; margin: 1em 0 0.3em; }
table { border-collapse: collapse; margin-bottom: 1em; font-size: 10pt; }
th, td { border: 1px solid #444; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #e8e8e8; }
th small { font-weight: normal; color: #333; display: block; font-size: 8pt; }
td small { display: block; color: #333; font-size: 8pt; text-align: right; }
td.shaded { background: #bbb; text-align: center; }
table.crosstable td, table.wallchart td { white-space: nowrap; }
table.crosstable td:not(:nth-child(2)), table.wallchart td:not(:nth-child(2)),
table.crosstable th:not(:nth-child(2)), table.wallchart th:not(:nth-child(2)) {
  text-align: center; }
.legend { font-size: 9pt; }
.legend ul { padding-left: 1.2em; margin: 0.3em 0; }
@page { margin: 12mm; }
@media print {
  body { margin: 0; }
  th, td.shaded { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
}
"""


def html_page(p: Printout) -> str:
    """The printout as one HTML page ready to print (A4; across the page when it is wide)."""
    e = html.escape
    lang = i18n.language()
    size = "A4 landscape" if p.wide else "A4"
    out = ["<!DOCTYPE html>", f'<html lang="{lang}"><head><meta charset="utf-8">',
           f"<title>{e(p.title)}</title><style>{CSS}@page {{ size: {size}; }}</style></head>",
           f"<body class='{e(p.kind)}{' wide' if p.wide else ''}'>",
           f"<h1>{e(p.title)}</h1>", f"<p class='sub'>{e(p.sub)}</p>"]
    for grid in p.grids:
        if grid.caption:
            out.append(f"<h2>{e(grid.caption)}</h2>")
        out.append(f"<table class='{e(grid.css)}'><thead><tr>")
        for h in grid.heads:
            unit = f"<small>{e(h.unit)}</small>" if h.unit else ""
            cls = " class='n'" if h.numeric else ""
            out.append(f"<th{cls}>{e(h.title)}{unit}</th>")
        out.append("</tr></thead><tbody>")
        for row in grid.rows:
            cells = []
            for h, c in zip(grid.heads, row, strict=True):
                classes = " ".join(x for x in ("n" if h.numeric else "",
                                               "shaded" if c.shaded else "") if x)
                attrs = (f" class='{classes}'" if classes else "") + (
                    f" data-col='{e(h.key)}'" if h.key else "")
                below = f"<small>{e(c.below)}</small>" if c.below else ""
                cells.append(f"<td{attrs}>{e(c.text)}{below}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
        out.append("</tbody></table>")
    if p.legend:
        out.append("<div class='legend'><ul>")
        out += [f"<li>{e(line)}</li>" for line in p.legend]
        out.append("</ul></div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _width(text: str) -> int:
    import unicodedata

    return sum(0 if unicodedata.combining(ch) else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * max(0, width - _width(text))
    return gap + text if right else text + gap


def _line(parts: Sequence[str], widths: Sequence[int], heads: Sequence[Head]) -> str:
    return "  ".join(_pad(s, w, h.numeric)
                     for s, w, h in zip(parts, widths, heads, strict=True)).rstrip()


def text(p: Printout) -> str:
    """The printout as the terminal shows it: aligned columns, units in brackets under the
    titles, a wall chart's running totals on a line under each player's."""
    lines = [p.title, p.sub]
    for grid in p.grids:
        lines.append("")
        if grid.caption:
            lines.append(grid.caption)
        units = [f"({h.unit})" if h.unit else "" for h in grid.heads]
        widths = [max([_width(h.title), _width(u)]
                      + [max(_width(row[i].text), _width(row[i].below)) for row in grid.rows])
                  for i, (h, u) in enumerate(zip(grid.heads, units, strict=True))]
        heads = grid.heads
        lines.append(_line([h.title for h in heads], widths, heads))
        if any(units):
            lines.append(_line(units, widths, heads))
        for row in grid.rows:
            lines.append(_line([c.text for c in row], widths, heads))
            if any(c.below for c in row):
                lines.append(_line([c.below for c in row], widths, heads))
    if p.legend:
        lines.append("")
        lines += p.legend
    return "\n".join(lines) + "\n"
