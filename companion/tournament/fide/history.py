"""A Swiss tournament's history in neutral terms, and what the FIDE rules read from it.

The tournament file (issue 25) folds into players, rounds, games and byes; this module takes
that history as small frozen dataclasses of its own, so the pairing, the criteria checker, the
tie-breaks and the TRF files work on one shape that does not depend on how the file is kept:

- :class:`Entrant` - a player: name, rating, title, sex, federation, FIDE ID, birth date, the
  tournament pairing number (TPN, the start number) and the first round he can be paired in
  (a late entry);
- :class:`Game` - two players of a round and its result (``None`` while it is not in);
- :class:`Bye` - a player of a round without a game: the pairing-allocated bye (``pab``), a
  requested full, half or zero-point bye, or ``absent`` (withdrawn or not there: no points);
- :class:`Round`, :class:`History` and :class:`Scoring` (points for a win, a draw, a loss, the
  pairing-allocated bye and each round a late entrant missed).

From it, :func:`slots` gives every player one :class:`Slot` per round in TRF terms (opponent,
colour, result code, points), and the rest follows the FIDE Handbook as it stands in 2026:

- C.04.2 (General handling rules) 2.2: the initial order, by rating, then title (GM, IM, WGM,
  FM, WIM, CM, WFM, WCM), then name; start numbers (TPN) assigned in that order
  (:func:`initial_order`, :func:`start_numbers`);
- C.04.2 3.4 and 3.5: only games played over the board count for colours and as meetings (a
  forfeit is neither), unplayed rounds left out of the colour sequence (:meth:`Record.colours`,
  :meth:`Record.opponents`);
- C.04.1 4 (criterion C2): who may not receive the pairing-allocated bye
  (:meth:`Record.bye_barred`);
- C.04.3 1.4.2-1.4.4: floats, round by round of the schedule (:func:`floats`).

Standard library only: no clock, no I/O. Messages are :class:`~companion.remark.Remark` (English
that the shell says in the players' language).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from companion.remark import N_, Remark

#: A game's result, first player (white, moves first) to second: played win, loss, draw;
#: forfeit won by the first or the second; both forfeited (no points).
RESULTS = ("1-0", "0-1", "1/2", "+-", "-+", "--")
#: The kinds of a round without a game: pairing-allocated bye, full-point bye, half-point
#: bye, zero-point bye (requested), absent (withdrawn, not there: zero, as C.07 16.1.1 says).
BYE_KINDS = ("pab", "full", "half", "zero", "absent")
#: The byes a player can ask for (or be given) before the round is paired.
REQUESTED = ("full", "half", "zero", "absent")
#: FIDE titles in the order of C.04.2 2.2.2 (ranked first to last; no title after them).
TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")

Colour = Literal["w", "b", "-"]


class FideError(ValueError):
    """A history, a request or a file the FIDE modules refuse; its text is one clear line
    (a :class:`~companion.remark.Remark`, said in the players' language by the shell)."""

    def __init__(self, message: Remark) -> None:
        super().__init__(str(message))
        self.remark = message


@dataclass(frozen=True)
class Scoring:
    """Points per result. ``pab`` is the pairing-allocated bye (C.04.1 3: a win unless the
    tournament says otherwise, the same for every one); ``late`` what a late entrant gets for
    each round he missed (C.04.2 2.4: nothing unless the tournament says otherwise)."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    pab: float = 1.0
    late: float = 0.0


@dataclass(frozen=True)
class Entrant:
    """A player. ``number`` is the tournament pairing number (TPN = start number), 1 for the
    first of the initial order; ``late_from`` the first round he can be paired in."""

    id: int
    name: str
    rating: int = 0
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    number: int = 0
    late_from: int = 1


@dataclass(frozen=True)
class Game:
    """A game of a round: ``white`` moves first (TRF ``w``), ``black`` second; ``result`` one
    of :data:`RESULTS`, or None while it is not in."""

    white: int
    black: int
    result: str | None = None


@dataclass(frozen=True)
class Bye:
    """A player of a round without a game; ``kind`` one of :data:`BYE_KINDS`."""

    player: int
    kind: str


@dataclass(frozen=True)
class Round:
    games: tuple[Game, ...] = ()
    byes: tuple[Bye, ...] = ()


@dataclass(frozen=True)
class History:
    """The rounds paired so far (all of them, the last possibly without every result)."""

    players: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = ()
    total_rounds: int = 0
    scoring: Scoring = field(default_factory=Scoring)
    #: The colour the top-ranked player gets in round 1 (C.04.3 5.1: drawn by lot; TRF XXC).
    first_colour: Literal["white", "black"] = "white"

    def entrant(self, player_id: int) -> Entrant:
        for e in self.players:
            if e.id == player_id:
                return e
        raise FideError(Remark(N_("no player {player} in the tournament"), player=player_id))


@dataclass(frozen=True)
class Slot:
    """One player's round, as a TRF round column says it: ``code`` is ``1`` ``0`` ``=``
    (played), ``+`` ``-`` (forfeit won, lost), ``U`` (pairing-allocated bye), ``F`` ``H``
    ``Z`` (full, half, zero-point bye or absent), or empty for a game not in yet; ``colour``
    the colour of a game (played or scheduled), ``-`` for none."""

    round: int
    code: str
    opponent: int | None
    colour: Colour
    points: float
    #: ``late`` for a round a late entrant missed, ``absent`` for one with no entry at all,
    #: the bye kind for a bye, ``game`` otherwise.
    kind: str = "game"

    @property
    def played(self) -> bool:
        """A game played over the board (C.04.2 3.4: the only ones that count for colours)."""
        return self.code in ("1", "0", "=")

    @property
    def unplayed(self) -> bool:
        """No game over the board (C.07 15.1: an unplayed round)."""
        return not self.played and self.code != ""


def _game_codes(result: str | None) -> tuple[str, str]:
    return {
        None: ("", ""), "1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "="),
        "+-": ("+", "-"), "-+": ("-", "+"), "--": ("-", "-"),
    }[result]


def code_points(code: str, scoring: Scoring) -> float:
    """The points a round column's code gives."""
    return {
        "1": scoring.win, "+": scoring.win, "F": scoring.win, "U": scoring.pab,
        "=": scoring.draw, "H": scoring.draw,
        "0": scoring.loss, "-": 0.0, "Z": 0.0, "": 0.0,
    }[code]


_BYE_CODE = {"pab": "U", "full": "F", "half": "H", "zero": "Z", "absent": "Z"}


def check(history: History) -> None:
    """Refuse a history that does not hold together (FideError naming round and player)."""
    ids = [e.id for e in history.players]
    if len(set(ids)) != len(ids):
        raise FideError(Remark(N_("a player id appears twice")))
    known = set(ids)
    numbers = [e.number for e in history.players if e.number]
    if len(set(numbers)) != len(numbers):
        raise FideError(Remark(N_("two players have the same start number")))
    if history.total_rounds < 0:
        raise FideError(Remark(N_("the number of rounds cannot be negative")))
    for n, rnd in enumerate(history.rounds, start=1):
        seen: set[int] = set()
        pabs = 0
        for g in rnd.games:
            for p in (g.white, g.black):
                if p not in known:
                    raise FideError(Remark(N_("round {round}: no player {player}"),
                                           round=n, player=p))
                if p in seen:
                    raise FideError(Remark(N_("round {round}: player {player} is in it twice"),
                                           round=n, player=p))
                seen.add(p)
            if g.result is not None and g.result not in RESULTS:
                raise FideError(Remark(N_("round {round}: unknown result {result}"),
                                       round=n, result=g.result))
        for b in rnd.byes:
            if b.player not in known:
                raise FideError(Remark(N_("round {round}: no player {player}"),
                                       round=n, player=b.player))
            if b.player in seen:
                raise FideError(Remark(N_("round {round}: player {player} is in it twice"),
                                       round=n, player=b.player))
            if b.kind not in BYE_KINDS:
                raise FideError(Remark(N_("round {round}: unknown kind of bye {kind}"),
                                       round=n, kind=b.kind))
            seen.add(b.player)
            pabs += b.kind == "pab"
        if pabs > 1:
            raise FideError(Remark(N_("round {round}: more than one pairing-allocated bye"),
                                   round=n))


def slots(history: History) -> dict[int, list[Slot]]:
    """Every player's rounds, one :class:`Slot` per round of :attr:`History.rounds`.

    A player with no entry in a round missed it: as a late entry (``late``, the tournament's
    points for it, ``H`` when they are a draw's, else ``Z``) before his ``late_from``, else
    absent (``Z``, no points).
    """
    check(history)
    sc = history.scoring
    out: dict[int, list[Slot]] = {e.id: [] for e in history.players}
    late_from = {e.id: e.late_from for e in history.players}
    for n, rnd in enumerate(history.rounds, start=1):
        got: dict[int, Slot] = {}
        for g in rnd.games:
            a, b = _game_codes(g.result)
            got[g.white] = Slot(n, a, g.black, "w", code_points(a, sc))
            got[g.black] = Slot(n, b, g.white, "b", code_points(b, sc))
        for bye in rnd.byes:
            code = _BYE_CODE[bye.kind]
            got[bye.player] = Slot(n, code, None, "-", code_points(code, sc), bye.kind)
        for pid, rounds in out.items():
            slot = got.get(pid)
            if slot is None:
                if n < late_from[pid]:
                    code = "H" if sc.late and sc.late == sc.draw else "Z"
                    slot = Slot(n, code, None, "-", sc.late, "late")
                else:
                    slot = Slot(n, "Z", None, "-", 0.0, "absent")
            rounds.append(slot)
    return out


@dataclass(frozen=True)
class Record:
    """One player's history as the pairing rules read it."""

    entrant: Entrant
    slots: tuple[Slot, ...]

    @property
    def id(self) -> int:
        return self.entrant.id

    @property
    def score(self) -> float:
        return sum(s.points for s in self.slots)

    def score_before(self, round_no: int) -> float:
        return sum(s.points for s in self.slots if s.round < round_no)

    def colours(self) -> list[str]:
        """The colours of the games he played, in order (C.04.2 3.4: unplayed rounds left
        out, as if they had come first)."""
        return [s.colour for s in self.slots if s.played]

    def opponents(self) -> set[int]:
        """Whom he played over the board (C.04.2 3.5: a forfeit is not a meeting)."""
        return {s.opponent for s in self.slots if s.played and s.opponent is not None}

    def bye_barred(self, scoring: Scoring) -> bool:
        """C.04.1 4 (criterion C2): he had the pairing-allocated bye, or scored in one round,
        without playing, as many points as a win (a forfeit win, a full-point bye)."""
        return any(s.code == "U" or (s.unplayed and s.kind != "late"
                                     and s.points >= scoring.win and s.points > 0)
                   for s in self.slots)

    def unplayed(self) -> int:
        """Rounds without a game over the board (criterion C9)."""
        return sum(1 for s in self.slots if s.unplayed)


def records(history: History) -> dict[int, Record]:
    per = slots(history)
    return {e.id: Record(e, tuple(per[e.id])) for e in history.players}


def _name_key(name: str) -> tuple[str, str]:
    plain = "".join(c for c in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(c))
    return plain.casefold(), name


def title_rank(title: str) -> int:
    t = title.strip().upper()
    return TITLES.index(t) if t in TITLES else len(TITLES)


def initial_order(players: Iterable[Entrant], unrated: int = 0) -> list[Entrant]:
    """C.04.2 2.2: by rating (highest first; ``unrated`` stands for a rating of 0, the Chief
    Arbiter's estimate), then title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, none), then name
    (alphabetical, accents aside), then id."""
    return sorted(players, key=lambda e: (-(e.rating or unrated), title_rank(e.title),
                                          _name_key(e.name), e.id))


def start_numbers(players: Iterable[Entrant], unrated: int = 0) -> dict[int, int]:
    """The start numbers (TPN) by the initial order: ``{player id: number}``, from 1."""
    return {e.id: n for n, e in enumerate(initial_order(players, unrated), start=1)}


def numbered(history: History, unrated: int = 0) -> History:
    """``history`` with the start numbers of :func:`start_numbers` where none is given."""
    if all(e.number for e in history.players):
        return history
    numbers = start_numbers(history.players, unrated)
    return replace(history, players=tuple(replace(e, number=e.number or numbers[e.id])
                                          for e in history.players))


Float = Literal["up", "down", "none"]


def floats(history: History) -> dict[int, list[Float]]:
    """Every player's float in each round of the schedule (C.04.3 1.4.2-1.4.4).

    Two players with different scores who played each other: the higher ranked (score, then
    TPN) downfloats, the other upfloats. A downfloat too for the pairing-allocated bye and for
    scoring, without playing, more than a loss (forfeit win, full or half-point bye, a late
    entrant's half point); nobody else floats (a zero-point bye, an absence, a forfeit loss).
    """
    recs = records(history)
    sc = history.scoring
    number = {e.id: e.number or e.id for e in history.players}
    out: dict[int, list[Float]] = {pid: [] for pid in recs}
    for pid, rec in recs.items():
        for s in rec.slots:
            f: Float = "none"
            if s.played and s.opponent is not None:
                mine = rec.score_before(s.round)
                theirs = recs[s.opponent].score_before(s.round)
                if mine != theirs:
                    higher = (mine, -number[pid]) > (theirs, -number[s.opponent])
                    f = "down" if higher else "up"
            elif s.code == "U" or (s.unplayed and s.points > sc.loss):
                f = "down"
            out[pid].append(f)
    return out


def ranked(ids: Iterable[int], score: Mapping[int, float], number: Mapping[int, int],
           ) -> list[int]:
    """C.04.3 1.2: for pairing purposes, by score, then TPN."""
    return sorted(ids, key=lambda p: (-score[p], number[p]))


def pending(history: History) -> list[tuple[int, Game]]:
    """The games of the history whose result is not in: ``(round, game)``."""
    return [(n, g) for n, rnd in enumerate(history.rounds, start=1) for g in rnd.games
            if g.result is None]


@dataclass(frozen=True)
class Pairing:
    """A round as paired: its games in board order (results not in), the player given the
    pairing-allocated bye (or None), the requested byes and absences it was paired with, and
    the engine that paired it."""

    round: int
    games: tuple[Game, ...]
    bye: int | None = None
    requested: tuple[Bye, ...] = ()
    engine: str = ""

    def as_round(self) -> Round:
        pab = (Bye(self.bye, "pab"),) if self.bye is not None else ()
        return Round(self.games, (*self.requested, *pab))


def available(history: History, requested: Sequence[Bye] = ()) -> list[int]:
    """The players to pair in the next round: entered by then, without a requested bye or an
    absence for it (C.04.2 3.2-3.3: the withdrawn and those known not to play are not
    paired)."""
    round_no = len(history.rounds) + 1
    away = {b.player for b in requested}
    return [e.id for e in history.players if e.late_from <= round_no and e.id not in away]


def label(entrant: Entrant) -> str:
    """How a message names a player: ``Novák (3)`` (name and start number)."""
    return f"{entrant.name} ({entrant.number})" if entrant.number else entrant.name
