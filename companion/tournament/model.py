"""A tournament as a pure fold over its records (the tournament file, version 2).

The tournament file (:mod:`.store`) is a signed journal: a header naming the tournament, then
one record per change (a player entered, a round paired, a result recorded or replaced, a
setting changed, ...), nothing ever rewritten. :func:`fold` turns the header and the records
into a :class:`Tournament`, checking every record against what came before it; the command
line, the arbiter's page, the demo and the tests all read a tournament this one way. A record
the fold refuses is a :class:`TournamentError` naming the line.

Standard library only, no clock and no I/O: the records carry their own wall time, and whatever
is game specific (is this Tamsk result possible?) is asked of a ``judge`` the caller passes.
Messages are :class:`~companion.remark.Remark` objects: English text that the shell says in the
arbiter's language. ``docs/tournament.md`` describes every field.

Players keep their entry number (``id``, 1, 2, ... in the order they were entered); starting
numbers (``numbers``, the initial ranking: TRF's and the pairings') are given when round 1 is
paired. A game names its players by id, the first mover (TRF white) first, at a board of the
round (and the physical table that plays it); a bye is a kind (pairing-allocated, requested ½
or 0, absent). A result says who won (``first``, ``second``, ``tie``, or ``none`` for a double
forfeit), whether by forfeit, the score when the game keeps one, and the game's own reason;
its ``source`` is the evidence (a table's journal, or the arbiter).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from companion.remark import N_, Remark

KIND = "companion-tournament"
VERSION = 2
SYSTEMS = ("swiss", "round-robin", "swiss-simple")
FIRST, SECOND, TIE, NONE = "first", "second", "tie", "none"
WINNERS = (FIRST, SECOND, TIE, NONE)
#: Byes: pairing-allocated (``bye_points``), requested ½ or 0, absent (withdrawn: 0, no game).
BYE_KINDS = ("pab", "half", "zero", "absent")
ENGINES = ("dutch", "berger", "simple", "bbpPairings", "javafo", "manual")
#: Each engine as the trail says it (the external engines by their own names).
ENGINE_WORDS = {"dutch": N_("FIDE Dutch system"), "berger": N_("Berger tables"),
                "simple": N_("simplified Swiss"), "bbpPairings": "bbpPairings",
                "javafo": "JaVaFo", "manual": N_("by hand")}
#: Who wrote a record: the command line, the page, a table over MQTT, ``tournament collect``,
#: the demo, ``tournament upgrade``, ``tournament import-trf``.
VIA = ("cli", "page", "mqtt", "collect", "demo", "upgrade", "import-trf")
SOURCES = ("table", "journal", "arbiter", "upgrade", "trf")
TITLES = ("", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
SEXES = ("", "m", "w")
COLOURS = ("white", "black")
FIDE_TIEBREAKS = ("BH", "BH-C1", "BH-M1", "SB", "DE", "WIN", "WON", "BPG", "ARO", "PS", "KS")
EVENTS = ("player", "player-edit", "settings", "numbers", "pair", "unpair", "repair", "result",
          "withdraw", "reinstate", "bye", "bye-cancel")
PLAYER_FIELDS = ("name", "rating", "title", "sex", "federation", "fide_id", "birth", "club")
MAX_PLAYERS = 500
MAX_ROUNDS = 99
MAX_NAME = 60
MAX_TEXT = 300
MAX_SCORE = 10_000
MAX_RATING = 4000
MAX_TABLE = 999
#: TRF result codes and the points they give.
POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


class TournamentError(ValueError):
    """A tournament file, or a change to it, that makes no sense: ``message`` says what (a
    :class:`~companion.remark.Remark` when the fold made it), ``line`` where in the file."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def refuse(msgid: str, **values: Any) -> TournamentError:
    """A refusal in words the shell can translate (``msgid`` marked with ``N_``)."""
    return TournamentError(Remark(msgid, **values))


# ---------------------------------------------------------------------------- the parts


@dataclass(frozen=True)
class Settings:
    """How the tournament counts and pairs; the header sets them, ``settings`` records change
    them (only the bye limits and the tables once round 1 is paired)."""

    bye_points: float = 1.0  # a pairing-allocated bye (PAB): 1, 0.5 or 0
    late_points: float = 0.0  # each round a late entrant missed: 0 or 0.5
    max_byes: int = 1  # requested byes a player may take
    bye_rounds_closed: tuple[int, ...] = ()  # rounds without requested byes
    tiebreaks: tuple[str, ...] = ()  # () : the game's own columns, in their order
    double: bool = False  # a round robin played twice
    first_colour: str = "white"  # who the top-ranked player is in round 1 (TRF XXC)
    rated_default: int = 0  # the rating of the unrated where a rule needs one
    first_table: int = 1  # board b is played at table first_table + b - 1
    # the event, as TRF-2016's header lines (022 to 122) give it
    city: str = ""
    host_federation: str = ""
    start_date: str = ""  # YYYY/MM/DD
    end_date: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["bye_rounds_closed"] = list(self.bye_rounds_closed)
        out["tiebreaks"] = list(self.tiebreaks)
        out["deputy_arbiters"] = list(self.deputy_arbiters)
        return out


SETTINGS_KEYS = tuple(f.name for f in fields(Settings))
#: Each setting as the trail names it (the key is the command line's option, ``--city``).
SETTING_WORDS = {
    "bye_points": N_("points for a pairing-allocated bye"),
    "late_points": N_("points for each round a late entrant missed"),
    "max_byes": N_("requested byes per player"),
    "bye_rounds_closed": N_("rounds without requested byes"),
    "tiebreaks": N_("tie-breaks"),
    "double": N_("double round robin"),
    "first_colour": N_("the top-ranked player in round 1"),
    "rated_default": N_("rating of the unrated"),
    "first_table": N_("first table"),
    "city": N_("city"),
    "host_federation": N_("host federation"),
    "start_date": N_("start date"),
    "end_date": N_("end date"),
    "chief_arbiter": N_("chief arbiter"),
    "deputy_arbiters": N_("deputy arbiters"),
    "time_control": N_("time control"),
}


def points_words(points: float) -> str:
    """Points as score sheets write them: ``1``, ``½``, ``1½``, ``0``."""
    whole = int(points)
    if points == whole:
        return str(whole)
    return (str(whole) if whole else "") + "½" if points - whole == 0.5 else f"{points:g}"


def engine_words(engine: str) -> str:
    """A round's engine as the trail says it: a remark the reader's language translates."""
    words = ENGINE_WORDS.get(engine, engine)
    return Remark(words) if words != engine else engine


def settings_words(changes: Mapping[str, Any]) -> str:
    """A ``settings`` record's changes as the trail says them, each ``label: value`` in the
    reader's language (lists joined, points as score sheets write them, yes and no said)."""
    said: str = ""
    for key, value in changes.items():
        if isinstance(value, bool):
            shown: str = Remark(N_("yes") if value else N_("no"))
        elif isinstance(value, float):
            shown = points_words(value)
        elif key == "first_colour":
            shown = Remark(N_("moves first") if value == "white" else N_("moves second"))
        elif isinstance(value, (list, tuple)):
            shown = ", ".join(str(v) for v in value) or "-"
        else:
            shown = str(value) or "-"
        label = SETTING_WORDS.get(key)
        item = Remark(N_("{setting}: {value}"), setting=Remark(label) if label else key,
                      value=shown)
        said = item if not said else Remark(N_("{first}; {then}"), first=said, then=item)
    return said
#: What a ``settings`` record may still change once round 1 is paired.
LATER_SETTINGS = ("max_byes", "bye_rounds_closed", "first_table", "city", "host_federation",
                  "start_date", "end_date", "chief_arbiter", "deputy_arbiters", "time_control")
#: The event's words (TRF header lines), each a line of text.
EVENT_SETTINGS = ("city", "chief_arbiter", "time_control")


@dataclass
class Player:
    """A player as entered (``id``: the entry number, never changed)."""

    id: int
    name: str
    rating: int = 0
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: int = 0
    birth: str = ""
    club: str = ""
    late_from: int | None = None  # a late entry: the first round he can be paired in
    #: Withdrawals: (first round not paired, first round back or None).
    away: list[tuple[int, int | None]] = field(default_factory=list)

    def withdrawn_in(self, round_no: int) -> bool:
        return any(start <= round_no and (end is None or round_no < end)
                   for start, end in self.away)

    @property
    def withdrawn(self) -> bool:
        """Withdrawn for good (no reinstatement after the last withdrawal)."""
        return bool(self.away) and self.away[-1][1] is None

    def plays_in(self, round_no: int) -> bool:
        """Whether he may be paired in round ``round_no``."""
        late = self.late_from is not None and round_no < self.late_from
        return not late and not self.withdrawn_in(round_no)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, **{k: getattr(self, k) for k in PLAYER_FIELDS},
                "late_from": self.late_from}


@dataclass(frozen=True)
class Result:
    """A game's result: who won (``first``, ``second``, ``tie``, ``none``), by forfeit or
    not, the score (first mover's first) when the game keeps one, and the game's reason."""

    winner: str
    forfeit: bool = False
    score: tuple[int, int] | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "forfeit": self.forfeit,
                "score": list(self.score) if self.score is not None else None,
                "reason": self.reason}

    def codes(self) -> tuple[str, str]:
        """The TRF result codes of the first and second player."""
        if self.winner == TIE:
            return ("=", "=")
        if self.winner == NONE:
            return ("-", "-")
        win, loss = ("+", "-") if self.forfeit else ("1", "0")
        return (win, loss) if self.winner == FIRST else (loss, win)

    def points(self) -> tuple[float, float]:
        a, b = self.codes()
        return POINTS[a], POINTS[b]

    def text(self) -> str:
        """As the arbiter writes it: ``1-0``, ``½-½``, ``+-``, ``--`` (and the score)."""
        shown = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-"}
        a, b = self.codes()
        out = f"{shown[a]}-{shown[b]}" if not self.forfeit else f"{a}{b}"
        if self.score is not None:
            out += f" ({self.score[0]}:{self.score[1]})"
        return out


@dataclass(frozen=True)
class Source:
    """Where a result comes from: a table's journal (enough to check it again later: the
    table, its key's fingerprint, the game's identity and final record, the file), or the
    arbiter by hand."""

    kind: str
    table: int | None = None
    signer: str = ""
    game_id: str = ""
    final: str = ""
    records: int | None = None
    file: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "table": self.table, "signer": self.signer,
                "game_id": self.game_id, "final": self.final, "records": self.records,
                "file": self.file}

    def text(self) -> Remark:
        if self.kind in ("table", "journal") and self.file:
            return Remark(N_("table {table}'s journal {file}"), table=self.table,
                          file=self.file)
        if self.kind == "upgrade":
            return Remark(N_("upgraded from an unsigned version 1 file"))
        if self.kind == "trf":
            return Remark(N_("the TRF file {file}"), file=self.file)
        return Remark(N_("the arbiter"))


@dataclass
class Game:
    board: int
    table: int
    first: int
    second: int
    result: Result | None = None
    source: Source | None = None

    def players(self) -> tuple[int, int]:
        return self.first, self.second


@dataclass(frozen=True)
class Bye:
    player: int
    kind: str  # pab, half, zero, absent


@dataclass
class Round:
    number: int
    games: list[Game] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)
    engine: str = "manual"
    warnings: tuple[str, ...] = ()

    @property
    def done(self) -> bool:
        """Every game of the round has its result."""
        return all(g.result is not None for g in self.games)

    @property
    def started(self) -> bool:
        """A result of the round is in."""
        return any(g.result is not None for g in self.games)

    def board(self, board: int) -> Game | None:
        return next((g for g in self.games if g.board == board), None)

    def at_table(self, table: int) -> Game | None:
        return next((g for g in self.games if g.table == table), None)

    def game_of(self, player: int) -> Game | None:
        return next((g for g in self.games if player in (g.first, g.second)), None)

    def bye_of(self, player: int) -> Bye | None:
        return next((b for b in self.byes if b.player == player), None)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.number,
                "games": [{"board": g.board, "table": g.table, "first": g.first,
                           "second": g.second} for g in self.games],
                "byes": [{"player": b.player, "kind": b.kind} for b in self.byes],
                "engine": self.engine, "warnings": list(self.warnings)}


@dataclass(frozen=True)
class Change:
    """One record of the file as the audit trail shows it: when, who (``via``), what, why;
    for a result that replaced another, the old and the new and the rounds paired since."""

    seq: int
    ev: str
    wall: float
    via: str
    why: str
    what: Remark
    old: Result | None = None
    new: Result | None = None
    rounds_after: tuple[int, ...] = ()


@dataclass(frozen=True)
class Entry:
    """What a player had in one round: a game (opponent, colour ``w`` first / ``b`` second,
    TRF code, "" while it has no result), a bye (``pab`` ``U``, ``half`` ``H``, ``zero``
    ``Z``), ``absent`` (withdrawn), ``late`` (a round a late entrant missed), or ``unpaired``
    (active but not in the round's pairing)."""

    kind: str
    points: float
    opponent: int | None = None
    colour: str = ""
    code: str = ""
    game: Game | None = None


@dataclass
class Tournament:
    name: str
    game: str
    system: str
    rounds: int
    settings: Settings = field(default_factory=Settings)
    wall: float = 0.0
    signer: str = ""
    players: dict[int, Player] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)  # id -> starting number
    played: list[Round] = field(default_factory=list)
    requested: dict[tuple[int, int], float] = field(default_factory=dict)  # (id, round): pts
    trail: list[Change] = field(default_factory=list)

    # ------------------------------------------------------------------ players

    def player(self, pid: int) -> Player:
        try:
            return self.players[pid]
        except KeyError:
            raise refuse(N_("there is no player {id}"), id=pid) from None

    def find(self, text: str) -> Player:
        """A player by name (case and spacing ignored) or entry number."""
        if text.strip().isdigit():
            return self.player(int(text))
        key = name_key(text)
        for p in self.players.values():
            if name_key(p.name) == key:
                return p
        raise refuse(N_("no player called {name}"), name=text)

    def named(self, name: str) -> Player | None:
        key = name_key(name)
        return next((p for p in self.players.values() if name_key(p.name) == key), None)

    def ranked(self) -> list[Player]:
        """Every player by starting number (those without one after, by entry)."""
        return sorted(self.players.values(),
                      key=lambda p: (p.id not in self.numbers, self.numbers.get(p.id, 0), p.id))

    def start_numbers(self) -> dict[int, int]:
        """Every player's starting number: the ones given, then (before round 1, or a late
        entrant not numbered yet) the initial ranking's, after them."""
        out = dict(self.numbers)
        initial = initial_numbers(self)
        for pid in sorted(self.players, key=initial.__getitem__):
            out.setdefault(pid, len(out) + 1)
        return out

    # ------------------------------------------------------------------ rounds

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def next_round(self) -> int:
        return len(self.played) + 1

    @property
    def total_rounds(self) -> int:
        return self.rounds

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.played):
            raise refuse(N_("round {round} is not paired"), round=number)
        return self.played[number - 1]

    def game_at(self, number: int, board: int) -> Game:
        g = self.round(number).board(board)
        if g is None:
            raise refuse(N_("round {round} has no board {board}"), round=number, board=board)
        return g

    def entries(self, upto: int | None = None) -> dict[int, dict[int, Entry]]:
        """Each player's entry in every round paired (up to round ``upto``)."""
        last = len(self.played) if upto is None else min(upto, len(self.played))
        s = self.settings
        out: dict[int, dict[int, Entry]] = {pid: {} for pid in self.players}
        for r in self.played[:last]:
            for g in r.games:
                a = b = ""
                pa = pb = 0.0
                if g.result is not None:
                    a, b = g.result.codes()
                    pa, pb = g.result.points()
                out[g.first][r.number] = Entry("game", pa, g.second, "w", a, g)
                out[g.second][r.number] = Entry("game", pb, g.first, "b", b, g)
            for bye in r.byes:
                if bye.kind == "pab":
                    out[bye.player][r.number] = Entry("pab", s.bye_points, code="U")
                elif bye.kind == "half":
                    out[bye.player][r.number] = Entry("half", 0.5, code="H")
                elif bye.kind == "zero":
                    out[bye.player][r.number] = Entry("zero", 0.0, code="Z")
                else:
                    out[bye.player][r.number] = Entry("absent", 0.0, code="Z")
            for pid, p in self.players.items():
                if r.number in out[pid]:
                    continue
                if p.late_from is not None and r.number < p.late_from:
                    late = s.late_points
                    out[pid][r.number] = Entry("late", late, code="H" if late else "Z")
                elif p.withdrawn_in(r.number):
                    out[pid][r.number] = Entry("absent", 0.0, code="Z")
                else:
                    out[pid][r.number] = Entry("unpaired", 0.0, code="Z")
        return out

    def points(self, upto: int | None = None) -> dict[int, float]:
        """Game points so far (byes and missed rounds as the settings count them)."""
        return {pid: sum(e.points for e in rounds.values())
                for pid, rounds in self.entries(upto).items()}

    def requested_byes(self, pid: int) -> int:
        """Byes the player asked for (granted or still to come)."""
        return sum(1 for (p, _) in self.requested if p == pid)


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def check_text(value: object, what: str, *, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str):
        raise refuse(N_("{what} must be text"), what=what)
    text = " ".join(value.split())
    if len(text) > limit or any(ord(c) < 32 for c in value if c not in "\t\n"):
        raise refuse(N_("{what} must be at most {limit} printable characters"), what=what,
                     limit=limit)
    return text


def check_name(value: object, what: str) -> str:
    text = check_text(value, what)
    if not text:
        raise refuse(N_("{what} cannot be empty"), what=what)
    if text.isdigit():
        raise refuse(N_("{what} cannot be only digits (those are entry numbers)"), what=what)
    return text


def slug(name: str) -> str:
    """A file name for a tournament's name."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "tournament"


# ---------------------------------------------------------------------------- field checks


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise refuse(N_("{key} must be a whole number from {lo} to {hi}"), key=key, lo=lo,
                     hi=hi)
    return v


def _opt_int(obj: Mapping[str, Any], key: str, lo: int, hi: int) -> int | None:
    return None if obj.get(key) is None else _int(obj, key, lo, hi)


def _dict(v: object, what: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise refuse(N_("{what} must be an object"), what=what)
    return v


def _list(v: object, what: str, limit: int = 1000) -> list[Any]:
    if not isinstance(v, list) or len(v) > limit:
        raise refuse(N_("{what} must be a list"), what=what)
    return v


def _choice(obj: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    v = obj.get(key, default)
    if v not in choices:
        raise refuse(N_("{key} must be one of {choices}"), key=key,
                     choices=", ".join(c or '""' for c in choices))
    return str(v)


def _points(v: object, key: str, allowed: Sequence[float]) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v not in allowed:
        raise refuse(N_("{key} must be one of {choices}"), key=key,
                     choices=", ".join(f"{a:g}" for a in allowed))
    return float(v)


def _birth(v: object) -> str:
    text = check_text(v, "birth", limit=10)
    if text and not re.fullmatch(r"\d{4}(/\d{2}/\d{2})?", text):
        raise refuse(N_("birth is YYYY/MM/DD or YYYY"))
    return text


def _federation(v: object) -> str:
    text = check_text(v, "federation", limit=3)
    if text and not re.fullmatch(r"[A-Z]{3}", text):
        raise refuse(N_("federation is three capital letters (CZE, FRA)"))
    return text


def _fide_id(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 10**11:
        raise refuse(N_("fide_id must be a whole number of at most 11 digits"))
    return v


def tiebreak_known(code: object) -> bool:
    """A FIDE tie-break code or a game's own column (``game:<key>``)."""
    return isinstance(code, str) and (
        code in FIDE_TIEBREAKS or re.fullmatch(r"game:[a-z0-9_-]{1,30}", code) is not None)


def settings_from(obj: Mapping[str, Any], base: Settings) -> Settings:
    """``base`` with the keys of ``obj`` changed, every one checked."""
    changes: dict[str, Any] = {}
    for key, v in obj.items():
        if key == "bye_points":
            changes[key] = _points(v, key, (1, 0.5, 0))
        elif key == "late_points":
            changes[key] = _points(v, key, (0, 0.5))
        elif key == "max_byes":
            changes[key] = _int(obj, key, 0, MAX_ROUNDS)
        elif key == "bye_rounds_closed":
            rounds = _list(v, key, MAX_ROUNDS)
            if not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= MAX_ROUNDS
                       for r in rounds):
                raise refuse(N_("bye_rounds_closed must list round numbers"))
            changes[key] = tuple(sorted(set(rounds)))
        elif key == "tiebreaks":
            codes = _list(v, key, 20)
            for code in codes:
                if not tiebreak_known(code):
                    raise refuse(N_("unknown tie-break {code}"), code=str(code)[:40])
            if len(set(codes)) != len(codes):
                raise refuse(N_("a tie-break is listed twice"))
            changes[key] = tuple(codes)
        elif key == "double":
            if not isinstance(v, bool):
                raise refuse(N_("{key} must be true or false"), key=key)
            changes[key] = v
        elif key == "first_colour":
            changes[key] = _choice(obj, key, COLOURS, "white")
        elif key == "rated_default":
            changes[key] = _int(obj, key, 0, MAX_RATING)
        elif key == "first_table":
            changes[key] = _int(obj, key, 1, MAX_TABLE)
        elif key in EVENT_SETTINGS:
            changes[key] = check_text(v, key, limit=MAX_NAME)
        elif key == "host_federation":
            changes[key] = _federation(v)
        elif key in ("start_date", "end_date"):
            changes[key] = _birth(v)
        elif key == "deputy_arbiters":
            changes[key] = tuple(check_text(d, key, limit=MAX_NAME)
                                 for d in _list(v, key, 10))
        else:
            raise refuse(N_("unknown setting {key}"), key=str(key)[:40])
    return replace(base, **changes)


def result_from(v: object) -> Result:
    """A result object, checked (the rules every game shares)."""
    obj = _dict(v, "result")
    winner = _choice(obj, "winner", WINNERS, "")
    forfeit = obj.get("forfeit", False)
    if not isinstance(forfeit, bool):
        raise refuse(N_("{key} must be true or false"), key="forfeit")
    score: tuple[int, int] | None = None
    if obj.get("score") is not None:
        s = _list(obj["score"], "score", 2)
        if len(s) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                  and abs(x) < MAX_SCORE for x in s):
            raise refuse(N_("a score is two whole numbers"))
        score = (s[0], s[1])
    reason = check_text(obj.get("reason", ""), "reason", limit=40)
    result = Result(winner, forfeit, score, reason)
    problem = shared_rule(result)
    if problem is not None:
        raise problem
    return result


def shared_rule(result: Result) -> TournamentError | None:
    """What every game's results must respect (the game's own rules come on top)."""
    if result.winner == NONE and not result.forfeit:
        return refuse(N_("rule double-forfeit: no winner only when both players forfeit "
                         "(--, 0-0)"))
    if result.forfeit and result.winner == TIE:
        return refuse(N_("rule forfeit-winner: a forfeit has a winner, or none (--)"))
    if result.forfeit and result.score is not None:
        return refuse(N_("rule forfeit-no-score: a forfeit carries no score"))
    return None


def source_from(v: object) -> Source:
    obj = _dict(v, "source")
    kind = _choice(obj, "kind", SOURCES, "")
    records = _opt_int(obj, "records", 1, 10**9)
    return Source(kind, _opt_int(obj, "table", 1, MAX_TABLE),
                  check_text(obj.get("signer", "") or "", "signer", limit=100),
                  check_text(obj.get("game_id", "") or "", "game_id", limit=64),
                  check_text(obj.get("final", "") or "", "final", limit=64),
                  records, check_text(obj.get("file", "") or "", "file", limit=200))


# ---------------------------------------------------------------------------- the fold

#: Whether a result is possible in the tournament's game: None, or why not (the rule).
Judge = Callable[[Result], str | None]


def start(header: Mapping[str, Any]) -> Tournament:
    """The tournament its header (seq 0) describes, before any record."""
    try:
        if header.get("kind") != KIND:
            raise refuse(N_("not a companion tournament file"))
        if header.get("version") != VERSION:
            raise refuse(N_("tournament file version {version} is not {expected}"),
                         version=str(header.get("version"))[:20], expected=VERSION)
        system = _choice(header, "system", SYSTEMS, "")
        game = header.get("game")
        if not isinstance(game, str) or not re.fullmatch(r"[a-z][a-z0-9_]{0,30}", game):
            raise refuse(N_("the tournament names no game"))
        settings = settings_from(_dict(header.get("settings", {}), "settings"), Settings())
        wall = header.get("wall", 0.0)
        if isinstance(wall, bool) or not isinstance(wall, (int, float)) or wall < 0:
            raise refuse(N_("{key} must be a number"), key="wall")
        return Tournament(check_name(header.get("name"), Remark(N_("the name"))), game, system,
                          _int(header, "rounds", 1, MAX_ROUNDS), settings, float(wall),
                          str(header.get("signer", ""))[:200])
    except TournamentError as exc:
        raise TournamentError(Remark(N_("line {line}: {problem}"), line=1,
                                     problem=exc.message), line=1) from None


def fold(
    header: Mapping[str, Any],
    events: Iterable[tuple[int, Mapping[str, Any]]],
    *,
    judge: Judge | None = None,
) -> Tournament:
    """The tournament after its records (``(line, body)``, as the journal reader gives
    them); :class:`TournamentError` naming the first line that makes no sense."""
    t = start(header)
    for seq, (line, body) in enumerate(events, start=1):
        try:
            apply(t, body, seq=seq, judge=judge)
        except TournamentError as exc:
            raise TournamentError(Remark(N_("line {line}: {problem}"), line=line,
                                         problem=exc.message), line=line) from None
    return t


def apply(t: Tournament, body: Mapping[str, Any], *, seq: int, judge: Judge | None = None
          ) -> None:
    """One record on the tournament (changed in place), or :class:`TournamentError`."""
    ev = body.get("ev")
    if ev not in EVENTS:
        raise refuse(N_("unknown record {ev}"), ev=str(ev)[:40])
    wall = body.get("wall")
    if isinstance(wall, bool) or not isinstance(wall, (int, float)) or wall < 0:
        raise refuse(N_("{key} must be a number"), key="wall")
    via = _choice(body, "via", VIA, "")
    why = check_text(body.get("why", "") or "", "why", limit=MAX_TEXT)
    what, old, new, after = _APPLY[str(ev)](t, body, why, judge)
    t.trail.append(Change(seq, str(ev), float(wall), via, why, what, old, new, after))


Applied = tuple[Remark, Result | None, Result | None, tuple[int, ...]]


def _player(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    pid = _int(body, "id", 1, MAX_PLAYERS)
    if pid != len(t.players) + 1:
        raise refuse(N_("players are entered 1, 2, 3, ... (this is {id})"), id=pid)
    p = Player(pid, "")
    _player_fields(t, p, body, PLAYER_FIELDS)
    late = body.get("late_from")
    if t.played:
        if t.system == "round-robin":
            raise refuse(N_("a round robin takes no late entries"))
        p.late_from = _int(body, "late_from", t.next_round, t.rounds)
    elif late is not None:
        raise refuse(N_("late_from is for a player entered after round 1 is paired"))
    t.players[pid] = p
    if p.late_from is not None:
        return Remark(N_("late entry {id}. {name} (from round {round})"), id=pid, name=p.name,
                      round=p.late_from), None, None, ()
    return Remark(N_("player {id}. {name}"), id=pid, name=p.name), None, None, ()


def _player_fields(t: Tournament, p: Player, body: Mapping[str, Any], keys: Sequence[str]
                   ) -> None:
    for key in keys:
        if key not in body and key != "name":
            continue
        v = body.get(key, "" if key != "rating" else 0)
        if key == "name":
            name = check_name(v, Remark(N_("a player's name")))
            other = t.named(name)
            if other is not None and other.id != p.id:
                raise refuse(N_("{name} is already a player"), name=name)
            p.name = name
        elif key == "rating":
            p.rating = _int(body, key, 0, MAX_RATING)
        elif key == "title":
            p.title = _choice(body, key, TITLES, "")
        elif key == "sex":
            p.sex = _choice(body, key, SEXES, "")
        elif key == "federation":
            p.federation = _federation(v)
        elif key == "fide_id":
            p.fide_id = _fide_id(v)
        elif key == "birth":
            p.birth = _birth(v)
        elif key == "club":
            p.club = check_text(v, Remark(N_("a club")))


def _player_edit(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None
                 ) -> Applied:
    p = t.player(_int(body, "id", 1, MAX_PLAYERS))
    changed = [k for k in PLAYER_FIELDS if k in body]
    if not changed:
        raise refuse(N_("a player-edit changes at least one field"))
    if t.played and ({"name", "rating"} & set(changed)):
        raise refuse(N_("names and ratings are fixed once round 1 is paired"))
    _player_fields(t, p, body, changed)
    return Remark(N_("player {id} changed: {fields}"), id=p.id,
                  fields=", ".join(changed)), None, None, ()


def _settings(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    changes = _dict(body.get("settings"), "settings")
    if not changes:
        raise refuse(N_("a settings record changes at least one setting"))
    late = [k for k in changes if k not in LATER_SETTINGS]
    if t.played and late:
        raise refuse(N_("{key} cannot change once round 1 is paired"), key=late[0][:40])
    t.settings = settings_from(changes, t.settings)
    return Remark(N_("settings: {keys}"), keys=settings_words(changes)), None, None, ()


def _numbers(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    given = _dict(body.get("numbers"), "numbers")
    numbers: dict[int, int] = {}
    for key, value in given.items():
        if not str(key).isdigit() or int(key) not in t.players:
            raise refuse(N_("numbers names no player {id}"), id=str(key)[:20])
        if isinstance(value, bool) or not isinstance(value, int):
            raise refuse(N_("a starting number is a whole number"))
        numbers[int(key)] = value
    if sorted(numbers.values()) != list(range(1, len(numbers) + 1)):
        raise refuse(N_("starting numbers must be 1, 2, 3, ... each once"))
    if t.played and t.system == "round-robin" and numbers != t.numbers:
        raise refuse(N_("a round robin's numbers are fixed once round 1 is paired"))
    lot = body.get("lot")
    if lot is not None:
        seed = check_text(_dict(lot, "lot").get("seed"), "seed", limit=64)
        if not seed or t.played:
            raise refuse(N_("a draw of lots has a seed and comes before round 1"))
        if numbers != lot_numbers(t.players, seed):
            raise refuse(N_("these numbers are not the draw of lots with seed {seed}"),
                         seed=seed)
        t.numbers = numbers
        return Remark(N_("starting numbers for {n} players by lot (seed {seed})"),
                      n=len(numbers), seed=seed), None, None, ()
    t.numbers = numbers
    return Remark(N_("starting numbers for {n} players"), n=len(numbers)), None, None, ()


def _pairing(t: Tournament, body: Mapping[str, Any], number: int) -> Round:
    """The games and byes of a ``pair`` or ``repair`` record for round ``number``, checked."""
    games: list[Game] = []
    seen: set[int] = set()
    boards: set[int] = set()
    tables: set[int] = set()

    def take(pid: int) -> None:
        if pid not in t.players:
            raise refuse(N_("there is no player {id}"), id=pid)
        if pid in seen:
            raise refuse(N_("player {id} is paired twice in round {round}"), id=pid,
                         round=number)
        seen.add(pid)

    for gv in _list(body.get("games", []), "games", MAX_PLAYERS):
        g = _dict(gv, "a game")
        board = _int(g, "board", 1, MAX_PLAYERS)
        table = (_int(g, "table", 1, MAX_TABLE) if g.get("table") is not None
                 else t.settings.first_table + board - 1)
        first, second = _int(g, "first", 1, MAX_PLAYERS), _int(g, "second", 1, MAX_PLAYERS)
        if board in boards or table in tables:
            raise refuse(N_("board {board} (table {table}) is paired twice"), board=board,
                         table=table)
        boards.add(board)
        tables.add(table)
        for pid in (first, second):
            take(pid)
            if not t.players[pid].plays_in(number):
                raise refuse(N_("{name} cannot be paired in round {round} (withdrawn or not "
                                "yet entered)"), name=t.players[pid].name, round=number)
            if (pid, number) in t.requested:
                raise refuse(N_("{name} asked for a bye in round {round}"),
                             name=t.players[pid].name, round=number)
        games.append(Game(board, table, first, second))
    byes: list[Bye] = []
    for bv in _list(body.get("byes", []), "byes", MAX_PLAYERS):
        b = _dict(bv, "a bye")
        pid = _int(b, "player", 1, MAX_PLAYERS)
        kind = _choice(b, "kind", BYE_KINDS, "")
        take(pid)
        wanted = t.requested.get((pid, number))
        if kind in ("half", "zero") and wanted != (0.5 if kind == "half" else 0.0):
            raise refuse(N_("{name} asked for no {kind} bye in round {round}"),
                         name=t.players[pid].name, kind=kind, round=number)
        if kind == "pab" and not t.players[pid].plays_in(number):
            raise refuse(N_("{name} cannot be paired in round {round} (withdrawn or not yet "
                            "entered)"), name=t.players[pid].name, round=number)
        byes.append(Bye(pid, kind))
    if sum(1 for b in byes if b.kind == "pab") > 1:
        raise refuse(N_("a round has at most one pairing-allocated bye"))
    for (pid, rnd), _pts in t.requested.items():
        if rnd == number and pid not in seen:
            raise refuse(N_("{name} asked for a bye in round {round}"),
                         name=t.players[pid].name, round=number)
    unnumbered = [pid for g in games for pid in g.players() if pid not in t.numbers]
    if unnumbered:
        raise refuse(N_("player {id} has no starting number yet"), id=unnumbered[0])
    if not games and not byes:
        raise refuse(N_("a round pairs at least one game"))
    warnings = tuple(check_text(w, Remark(N_("a warning")), limit=MAX_TEXT)
                     for w in _list(body.get("warnings", []), "warnings", 50))
    engine = _choice(body, "engine", ENGINES, "manual")
    return Round(number, sorted(games, key=lambda g: g.board), byes, engine, warnings)


def _pair(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    number = _int(body, "round", 1, MAX_ROUNDS)
    if number != t.next_round:
        raise refuse(N_("the next round to pair is {expected}, not {round}"),
                     expected=t.next_round, round=number)
    if number > t.rounds:
        raise refuse(N_("all {rounds} rounds are paired"), rounds=t.rounds)
    if t.current is not None and not t.current.done:
        missing = ", ".join(str(g.board) for g in t.current.games if g.result is None)
        raise refuse(N_("round {round} has no result yet at board(s) {boards}"),
                     round=t.current.number, boards=missing)
    r = _pairing(t, body, number)
    t.played.append(r)
    return Remark(N_("round {round} paired ({engine}): {games} game(s), {byes} bye(s)"),
                  round=number, engine=engine_words(r.engine), games=len(r.games),
                  byes=len(r.byes)), None, None, ()


def _last_open(t: Tournament, body: Mapping[str, Any], not_last: str) -> int:
    number = _int(body, "round", 1, MAX_ROUNDS)
    if not t.played or number != len(t.played):
        raise refuse(not_last)
    if t.played[-1].started:
        raise refuse(N_("round {round} has results already"), round=number)
    return number


def _unpair(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    number = _last_open(t, body, N_("only the last round paired can be unpaired"))
    t.played.pop()
    return Remark(N_("round {round} unpaired"), round=number), None, None, ()


def _repair(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    number = _last_open(t, body, N_("only the last round paired can be paired again"))
    r = _pairing(t, body, number)
    t.played[-1] = r
    return Remark(N_("round {round} paired again ({engine})"), round=number,
                  engine=engine_words(r.engine)), None, None, ()


def _result(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    number = _int(body, "round", 1, MAX_ROUNDS)
    g = t.game_at(number, _int(body, "board", 1, MAX_PLAYERS))
    result = result_from(body.get("result"))
    if judge is not None:
        rule = judge(result)
        if rule is not None:
            raise TournamentError(rule)
    source = source_from(body.get("source"))
    old = g.result
    replaces = body.get("replaces")
    if old is None and replaces is not None:
        raise refuse(N_("round {round} board {board} has no result to replace"), round=number,
                     board=g.board)
    if old is not None:
        if replaces != old.to_dict():
            raise refuse(N_("round {round} board {board} has a result already: a new one "
                            "names the one it replaces"), round=number, board=g.board)
        if not why:
            raise refuse(N_("a result that replaces another says why"))
    after = tuple(r.number for r in t.played if r.number > number)
    given = body.get("rounds_after", [])
    if old is not None and (not isinstance(given, list) or tuple(given) != after):
        raise refuse(N_("rounds_after must list the rounds paired after round {round}"),
                     round=number)
    g.result, g.source = result, source
    names = f"{t.players[g.first].name} - {t.players[g.second].name}"
    if old is None:
        return Remark(N_("round {round} board {board}: {players} {result}, from {source}"),
                      round=number, board=g.board, players=names, result=result.text(),
                      source=source.text()), None, result, ()
    return Remark(N_("round {round} board {board}: {players} {old} -> {new}, from {source}"),
                  round=number, board=g.board, players=names, old=old.text(),
                  new=result.text(), source=source.text()), old, result, after


def _withdraw(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None
              ) -> Applied:
    p = t.player(_int(body, "player", 1, MAX_PLAYERS))
    start_from = _int(body, "from", t.next_round, MAX_ROUNDS)
    if p.withdrawn:
        raise refuse(N_("{name} is withdrawn already"), name=p.name)
    p.away.append((start_from, None))
    return Remark(N_("{name} withdrawn from round {round}"), name=p.name,
                  round=start_from), None, None, ()


def _reinstate(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None
               ) -> Applied:
    p = t.player(_int(body, "player", 1, MAX_PLAYERS))
    back = _int(body, "from", t.next_round, MAX_ROUNDS)
    if not p.withdrawn:
        raise refuse(N_("{name} is not withdrawn"), name=p.name)
    start_from, _ = p.away[-1]
    if back <= start_from:
        raise refuse(N_("{name} is withdrawn from round {round}: back from a later round"),
                     name=p.name, round=start_from)
    p.away[-1] = (start_from, back)
    return Remark(N_("{name} back from round {round}"), name=p.name, round=back), None, None, ()


def _bye(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None) -> Applied:
    p = t.player(_int(body, "player", 1, MAX_PLAYERS))
    number = _int(body, "round", t.next_round, t.rounds)
    pts = _points(body.get("points"), "points", (0.5, 0))
    if number in t.settings.bye_rounds_closed:
        raise refuse(N_("no requested bye is granted in round {round}"), round=number)
    if (p.id, number) in t.requested:
        raise refuse(N_("{name} has asked for a bye in round {round} already"), name=p.name,
                     round=number)
    if t.requested_byes(p.id) >= t.settings.max_byes:
        raise refuse(N_("{name} has had the {n} requested bye(s) a player may take"),
                     name=p.name, n=t.settings.max_byes)
    if not p.plays_in(number):
        raise refuse(N_("{name} cannot be paired in round {round} (withdrawn or not yet "
                        "entered)"), name=p.name, round=number)
    t.requested[(p.id, number)] = pts
    return Remark(N_("{name} asks for a bye in round {round} ({points})"), name=p.name,
                  round=number, points=points_words(pts)), None, None, ()


def _bye_cancel(t: Tournament, body: Mapping[str, Any], why: str, judge: Judge | None
                ) -> Applied:
    p = t.player(_int(body, "player", 1, MAX_PLAYERS))
    number = _int(body, "round", 1, MAX_ROUNDS)
    if (p.id, number) not in t.requested or number < t.next_round:
        raise refuse(N_("{name} has no bye to cancel in round {round}"), name=p.name,
                     round=number)
    del t.requested[(p.id, number)]
    return Remark(N_("{name}'s bye in round {round} cancelled"), name=p.name,
                  round=number), None, None, ()


_APPLY: dict[str, Callable[[Tournament, Mapping[str, Any], str, Judge | None], Applied]] = {
    "player": _player, "player-edit": _player_edit, "settings": _settings,
    "numbers": _numbers, "pair": _pair, "unpair": _unpair, "repair": _repair,
    "result": _result, "withdraw": _withdraw, "reinstate": _reinstate, "bye": _bye,
    "bye-cancel": _bye_cancel,
}


# ---------------------------------------------------------------------------- new records


def header(name: str, game: str, system: str, rounds: int, settings: Settings, wall: float
           ) -> dict[str, Any]:
    """A new tournament's header (the writer adds the ``signer``)."""
    out = {"kind": KIND, "version": VERSION, "name": name, "game": game, "system": system,
           "rounds": rounds, "settings": settings.to_dict(), "wall": wall}
    start(out)  # checked as any file's header is
    return out


def initial_numbers(t: Tournament) -> dict[int, int]:
    """Starting numbers by the initial ranking of C.04.2 2.2 (every player, late entrants
    in their place): rating (the unrated as ``rated_default``), then title (GM, IM, WGM, FM,
    WIM, CM, WFM, WCM), then name (accents aside)."""
    from companion.tournament.fide.history import Entrant, start_numbers

    return start_numbers((Entrant(p.id, p.name, p.rating, p.title)
                          for p in t.players.values()), t.settings.rated_default)


def lot_numbers(players: Iterable[int], seed: str) -> dict[int, int]:
    """Starting numbers drawn by lot, again the same from the same seed (a round robin's
    draw, C.05): the players in the order of SHA-256 of ``seed:id``."""
    order = sorted(players, key=lambda pid: hashlib.sha256(f"{seed}:{pid}".encode()).digest())
    return {pid: n for n, pid in enumerate(order, start=1)}


def result_record(t: Tournament, number: int, board: int, result: Result, source: Source, *,
                  wall: float, via: str, why: str = "") -> dict[str, Any]:
    """The ``result`` record that enters (or replaces) a game's result."""
    g = t.game_at(number, board)
    body: dict[str, Any] = {"ev": "result", "round": number, "board": board,
                            "result": result.to_dict(), "source": source.to_dict(),
                            "replaces": g.result.to_dict() if g.result is not None else None,
                            "rounds_after": [r.number for r in t.played if r.number > number]
                            if g.result is not None else [],
                            "wall": wall, "via": via}
    if why:
        body["why"] = why
    return body
