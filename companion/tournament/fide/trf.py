"""FIDE TRF-2016 (Tournament Report File), written and read, on the neutral history.

What a federation's rating officer takes, what Swiss Manager and Vega export, and what the
pairing engines read (bbpPairings, JaVaFo). The layout (TRF-2016, FIDE Handbook C.04 Annex 2;
columns counted from 1):

- header lines ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` start and end
  dates, ``062`` players, ``072`` rated players, ``082`` teams, ``092`` type, ``102`` chief
  arbiter, ``112`` deputies (one line each), ``122`` time control, ``132`` round dates (each
  at the column of its round);
- the engines' lines ``XXR`` (number of rounds) and ``XXC white1``/``black1`` (the colour of
  the top-ranked player in round 1), and bbpPairings' ``BBW``/``BBD``/``BBL``/``BBU`` (points
  for a win, a draw, a loss and the pairing-allocated bye, written when not 1, 0.5, 0, 1);
- one ``001`` line per player: start number (5-8), sex (10), title (11-13), name (15-47, as
  written, UTF-8), rating (49-52), federation (54-56), FIDE ID (58-68), birth date (70-79),
  points (81-84), rank (86-89), then ten columns per round from 92: the opponent's start
  number (``0000`` for none), the colour (``w``, ``b``, ``-``) and the result: ``1`` ``=``
  ``0`` played, ``+`` ``-`` by forfeit, ``U`` pairing-allocated bye, ``F`` ``H`` ``Z`` full,
  half, zero-point bye (``Z`` also for an absence).

Writing for an engine (``pairing`` given), the column of the round to pair carries the
requested byes (``0000 - H``, ``Z``, ``F``) and absences (``0000 - Z``: withdrawn players,
late entries not yet in), as bbpPairings' documentation asks.

The reader takes what Swiss Manager and Vega write: CR, LF or CRLF lines, a byte-order mark,
UTF-8 or (failing that) Windows-1252 text, lines cut after their last field, blank round
columns, the old ``0000 - =`` half-point bye, the engines' and TRF-2026's lines for the
number of rounds (``142``), the first colour (``152``) and points (``162``); other lines are
kept as they are and otherwise left alone. It refuses, in one line naming the line, what it
cannot make sense of (two lines for one start number, a game its opponent's line
contradicts).

Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from companion.remark import N_, Remark
from companion.tournament.fide.history import (
    Bye,
    Entrant,
    FideError,
    Game,
    History,
    Round,
    Scoring,
    Slot,
    numbered,
    records,
    slots,
)


@dataclass(frozen=True)
class Header:
    """The tournament lines of a TRF (each optional)."""

    name: str = ""
    city: str = ""
    federation: str = ""
    start: str = ""
    end: str = ""
    kind: str = ""  # 092
    arbiter: str = ""  # 102
    deputies: tuple[str, ...] = ()  # 112
    time_control: str = ""  # 122
    round_dates: tuple[str, ...] = ()  # 132, "YY/MM/DD" per round
    teams: str = ""  # 082, written only when given


@dataclass(frozen=True)
class TrfFile:
    """A TRF as read: the header, the history (players numbered by their start numbers, the
    rounds paired so far), the requested byes of the next round's column, the points and
    ranks the file states, and the lines it had that this reader does not use."""

    header: Header
    history: History
    requested: tuple[Bye, ...] = ()
    points: Mapping[int, float] = field(default_factory=dict)
    ranks: Mapping[int, int] = field(default_factory=dict)
    other: tuple[str, ...] = ()

    def problems(self) -> list[Remark]:
        """Where the file's points differ from its results (under its point system)."""
        recs = records(self.history)
        out = []
        for pid, stated in sorted(self.points.items()):
            got = recs[pid].score
            if abs(got - stated) > 1e-9:
                out.append(Remark(N_("player {number}: the file says {stated} points, the "
                                     "results give {got}"), number=recs[pid].entrant.number,
                                  stated=f"{stated:g}", got=f"{got:g}"))
        return out


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _clean(text: str, width: int | None = None) -> str:
    """One line's field: control characters (a hostile name's newline) made spaces, cut to
    the field's width."""
    out = _CONTROL.sub(" ", text)
    return out[:width] if width else out


def _points(x: float) -> str:
    return f"{x:4.1f}"


def _column(slot: Slot | None, number: Mapping[int, int]) -> str:
    if slot is None:
        return " " * 8
    if slot.opponent is None:
        return f"0000 - {slot.code}"
    colour = slot.colour if slot.colour in ("w", "b") else "-"
    return f"{number[slot.opponent]:4d} {colour} {slot.code or ' '}"


def write(history: History, header: Header | None = None, *,
          pairing: Sequence[Bye] | None = None, ranks: Mapping[int, int] | None = None,
          ) -> str:
    """``history`` as TRF-2016 (UTF-8 text, CRLF lines). With ``pairing`` (the requested byes
    of the next round, possibly none), the file is one to pair that round from: the players
    not to pair are marked in its column. ``ranks`` (player id -> rank) default to the order
    of points, then start number."""
    history = numbered(history)
    header = header or Header()
    per = slots(history)
    recs = records(history)
    number = {e.id: e.number for e in history.players}
    lines: list[str] = []

    def put(code: str, value: str) -> None:
        if value:
            lines.append(f"{code} {_clean(value)}")

    put("012", header.name)
    put("022", header.city)
    put("032", header.federation)
    put("042", header.start)
    put("052", header.end)
    lines.append(f"062 {len(history.players)}")
    lines.append(f"072 {sum(1 for e in history.players if e.rating)}")
    put("082", header.teams)
    put("092", header.kind)
    put("102", header.arbiter)
    for d in header.deputies:
        put("112", d)
    put("122", header.time_control)
    if header.round_dates:
        row = "132" + " " * 86
        for d in header.round_dates:
            row += f"  {_clean(d, 8):<8}"
        lines.append(row.rstrip())
    if history.total_rounds:
        lines.append(f"XXR {history.total_rounds}")
    lines.append(f"XXC {history.first_colour}1")
    sc = history.scoring
    for code, value, default in (("BBW", sc.win, 1.0), ("BBD", sc.draw, 0.5),
                                 ("BBL", sc.loss, 0.0), ("BBU", sc.pab, sc.win)):
        if value != default:
            lines.append(f"{code} {value:4.1f}")
    points = {pid: r.score for pid, r in recs.items()}
    if ranks is None:
        order = sorted(points, key=lambda p: (-points[p], number[p]))
        ranks = {p: i for i, p in enumerate(order, start=1)}
    nxt = len(history.rounds) + 1
    away = {b.player: b.kind for b in pairing} if pairing is not None else {}
    for e in sorted(history.players, key=lambda e: e.number):
        line = (f"001 {e.number:4d} {_clean(e.sex, 1):1}{_clean(e.title, 3):>3} "
                f"{_clean(e.name, 33):<33} {e.rating or '':>4} {_clean(e.federation, 3):<3} "
                f"{_clean(e.fide_id, 11):>11} {_clean(e.birth, 10):<10} "
                f"{_points(points[e.id])} {ranks.get(e.id, 0) or '':>4}")
        for s in per[e.id]:
            line += "  " + _column(s, number)
        if pairing is not None:
            kind = away.get(e.id)
            if kind is None and e.late_from > nxt:
                kind = "absent"
            if kind is not None:
                line += "  0000 - " + {"full": "F", "half": "H"}.get(kind, "Z")
        lines.append(line.rstrip())
    return "\r\n".join(lines) + "\r\n"


def write_pairing_input(history: History, requested: Sequence[Bye] = (),
                        header: Header | None = None) -> str:
    """The TRF an engine pairs the next round from (``XXR``, ``XXC``, start numbers in the
    initial order, points that match the results, the round's byes in its column)."""
    if not history.total_rounds:
        raise FideError(Remark(N_("the number of rounds must be known to pair with an "
                                  "engine")))
    return write(history, header, pairing=requested)


# ---------------------------------------------------------------------------------- reading

_HEADER_FIELDS = {"012": "name", "022": "city", "032": "federation", "042": "start",
                  "052": "end", "082": "teams", "092": "kind", "102": "arbiter",
                  "122": "time_control"}


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.lstrip("\ufeff")


def _lines(text: str) -> list[str]:
    return [ln for ln in re.split(r"\r\n|\r|\n", text)]


def _number(text: str, what: Remark, line_no: int) -> int:
    t = text.strip()
    if not t:
        return 0
    if not t.isdigit():
        raise FideError(Remark(N_("line {line}: {what} is not a number: {text}"),
                               line=line_no, what=what, text=t))
    return int(t)


def _float(text: str, line_no: int) -> float:
    t = text.strip()
    if not t:
        return 0.0
    try:
        return float(t)
    except ValueError:
        raise FideError(Remark(N_("line {line}: {text} is not a number of points"),
                               line=line_no, text=t)) from None


@dataclass
class _Entry:
    opponent: int  # start number, 0 for none
    colour: str
    code: str


def _entries(line: str, line_no: int) -> dict[int, _Entry]:
    out: dict[int, _Entry] = {}
    r = 1
    pos = 91
    while pos < len(line):
        chunk = line[pos:pos + 8].ljust(8)
        pos += 10
        if chunk.strip():
            opp_text, colour, code = chunk[0:4], chunk[5], chunk[7].upper()
            opp = _number(opp_text, Remark(N_("an opponent")), line_no)
            if colour not in "wbWB- " or code not in "10=+-WDLUFHZ ":
                raise FideError(Remark(N_("line {line}: round {round} reads {text}, not an "
                                          "opponent, a colour and a result"),
                                       line=line_no, round=r, text=chunk.strip()))
            out[r] = _Entry(opp, colour.lower().replace(" ", "-"), code)
        r += 1
    return out


_PLAYED = {"1": "1", "0": "0", "=": "=", "W": "1", "D": "=", "L": "0"}
_PAIR_RESULT = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2",
                ("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--", (" ", " "): None}
_BYE_OF = {"U": "pab", "+": "pab", "F": "full", "1": "full", "H": "half", "=": "half",
           "Z": "zero", " ": "zero", "0": "zero", "-": "zero", "L": "zero", "D": "half",
           "W": "full"}


def read(data: bytes | str) -> TrfFile:
    """A TRF-2016 file (or a TRF(x) an engine reads) as a :class:`TrfFile`; FideError
    naming the line when it cannot be read."""
    text = _decode(data)
    head: dict[str, str] = {}
    deputies: list[str] = []
    round_dates: tuple[str, ...] = ()
    other: list[str] = []
    total = 0
    first: Literal["white", "black"] = "white"
    win, draw, loss = 1.0, 0.5, 0.0
    pab: float | None = None
    players: list[tuple[int, Entrant, float, int, dict[int, _Entry]]] = []
    for line_no, raw in enumerate(_lines(text), start=1):
        line = raw.rstrip()
        if not line.strip() or line.startswith("###"):
            continue
        code = line[:3]
        value = line[4:].strip()
        if code == "001":
            players.append(_player(line, line_no))
        elif code in _HEADER_FIELDS:
            head[_HEADER_FIELDS[code]] = value
        elif code == "112":
            deputies.append(value)
        elif code == "132":
            round_dates = tuple(line[p:p + 8].strip() for p in range(91, len(line), 10))
        elif code in ("XXR", "142"):
            total = _number(value, Remark(N_("the number of rounds")), line_no)
        elif code == "XXC":
            words = value.lower().split()
            if "black1" in words:
                first = "black"
            elif "white1" in words:
                first = "white"
        elif code == "152":
            first = "black" if value.upper().startswith("B") else "white"
        elif code in ("BBW", "BBD", "BBL", "BBU"):
            x = _float(value, line_no)
            if code == "BBW":
                win = x
            elif code == "BBD":
                draw = x
            elif code == "BBL":
                loss = x
            else:
                pab = x
        elif code == "162":
            for m in re.finditer(r"([WDLAP])\s*(\d+(?:\.\d+)?)", line[4:]):
                x = float(m.group(2))
                if m.group(1) == "W":
                    win = x
                elif m.group(1) == "D":
                    draw = x
                elif m.group(1) == "L":
                    loss = x
                elif m.group(1) == "P":
                    pab = x
        elif code in ("062", "072"):
            continue  # counts, made again from the players when written
        else:
            other.append(line)
    scoring = Scoring(win, draw, loss, win if pab is None else pab)
    header = Header(name=head.get("name", ""), city=head.get("city", ""),
                    federation=head.get("federation", ""), start=head.get("start", ""),
                    end=head.get("end", ""), kind=head.get("kind", ""),
                    arbiter=head.get("arbiter", ""), deputies=tuple(deputies),
                    time_control=head.get("time_control", ""), round_dates=round_dates,
                    teams=head.get("teams", ""))
    history, requested = _history(players, total, first, scoring)
    points = {e.id: pts for _n, e, pts, _rank, _ent in players}
    ranks = {e.id: rank for _n, e, _pts, rank, _ent in players if rank}
    return TrfFile(header, history, requested, points, ranks, tuple(other))


def _player(line: str, line_no: int) -> tuple[int, Entrant, float, int, dict[int, _Entry]]:
    padded = line.ljust(89)
    number = _number(padded[4:8], Remark(N_("the start number")), line_no)
    if not number:
        raise FideError(Remark(N_("line {line}: a player without a start number"),
                               line=line_no))
    rating = _number(padded[48:52], Remark(N_("the rating")), line_no)
    entrant = Entrant(
        id=number, name=padded[14:47].strip(), rating=rating, title=padded[10:13].strip(),
        sex=padded[9].strip().lower(), federation=padded[53:56].strip(),
        fide_id=padded[57:68].strip(), birth=padded[69:79].strip(), number=number)
    pts = _float(padded[80:84], line_no)
    rank = _number(padded[85:89], Remark(N_("the rank")), line_no)
    return number, entrant, pts, rank, _entries(line, line_no)


def _history(players: list[tuple[int, Entrant, float, int, dict[int, _Entry]]], total: int,
             first: Literal["white", "black"], scoring: Scoring,
             ) -> tuple[History, tuple[Bye, ...]]:
    by_number: dict[int, dict[int, _Entry]] = {}
    entrants: list[Entrant] = []
    for number, entrant, _pts, _rank, entries in players:
        if number in by_number:
            raise FideError(Remark(N_("two lines for start number {number}"), number=number))
        by_number[number] = entries
        entrants.append(entrant)
    # the rounds paired: the last column with a game or a pairing-allocated bye
    paired = 0
    for entries in by_number.values():
        for r, entry in entries.items():
            if entry.opponent or entry.code in ("U", "+"):
                paired = max(paired, r)
    rounds: list[Round] = []
    for r in range(1, paired + 1):
        games: list[Game] = []
        byes: list[Bye] = []
        done: set[int] = set()
        for number in sorted(by_number):
            got = by_number[number].get(r)
            if got is None or number in done:
                continue
            en = got
            if not en.opponent:
                kind = _BYE_OF.get(en.code)
                if kind is None:
                    raise FideError(Remark(N_("round {round}: player {number} has no opponent "
                                              "and the result {code}"), round=r,
                                           number=number, code=en.code))
                byes.append(Bye(number, kind))
                continue
            mate = by_number.get(en.opponent, {}).get(r)
            if mate is None or mate.opponent != number:
                raise FideError(Remark(N_("round {round}: player {number} played {opponent}, "
                                          "whose line does not say so"), round=r,
                                       number=number, opponent=en.opponent))
            white, black, wc, bc = number, en.opponent, en.code, mate.code
            if en.colour == "b" or (en.colour == "-" and mate.colour == "w"):
                white, black, wc, bc = en.opponent, number, mate.code, en.code
            if en.colour in "wb" and mate.colour in "wb" and en.colour == mate.colour:
                raise FideError(Remark(N_("round {round}: players {a} and {b} both have the "
                                          "same colour"), round=r, a=number, b=en.opponent))
            key = (_PLAYED.get(wc, wc), _PLAYED.get(bc, bc))
            if key not in _PAIR_RESULT:
                raise FideError(Remark(N_("round {round}: the results {a} and {b} of players "
                                          "{white} and {black} do not fit"), round=r, a=wc,
                                       b=bc, white=white, black=black))
            games.append(Game(white, black, _PAIR_RESULT[key]))
            done.update((number, en.opponent))
        rounds.append(Round(tuple(games), tuple(byes)))
    requested = tuple(
        Bye(number, _BYE_OF.get(by_number[number][paired + 1].code, "zero"))
        for number in sorted(by_number) if paired + 1 in by_number[number]
        and not by_number[number][paired + 1].opponent)
    requested = tuple(b if b.kind != "pab" else replace(b, kind="zero") for b in requested)
    history = History(tuple(entrants), tuple(rounds), max(total, paired), scoring, first)
    return history, requested
