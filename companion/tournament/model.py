"""A tournament as data: its players, its rounds and their games, and the games' results.

The file (JSON, :mod:`.store`) is read through :func:`from_dict`, which checks every field and
refuses a file that does not make sense with one :class:`TournamentError` naming what is wrong:
the file lives on the arbiter's laptop, but it is edited by hand now and then and copied around
on USB sticks, so it is treated like any input.

Players keep the starting number they were given when added (``number``, from 1, as TRF's); a
game names its players by those numbers, the first mover first; a bye is a game without a
second player. A result says who won (``first``, ``second`` or ``tie``), whether by forfeit,
and the score when the game keeps one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.tournament.record import TIE, GameRecord

KIND = "companion-tournament"
VERSION = 1
SYSTEMS = ("round-robin", "swiss")
WINNERS = ("first", "second", TIE)
MAX_PLAYERS = 500
MAX_ROUNDS = 99
MAX_NAME = 60


class TournamentError(ValueError):
    """A tournament file or a change to it that makes no sense (with what is wrong)."""


@dataclass
class Player:
    number: int
    name: str
    rating: int = 0
    club: str = ""
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "rating": self.rating,
                "club": self.club, "withdrawn": self.withdrawn}


@dataclass
class Result:
    winner: str  # first, second or tie
    forfeit: bool = False
    score: tuple[int, int] | None = None
    reason: str = ""
    source: str = "arbiter"

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "forfeit": self.forfeit,
                "score": list(self.score) if self.score is not None else None,
                "reason": self.reason, "source": self.source}

    def codes(self) -> tuple[str, str]:
        """FIDE TRF result codes of the first and second player."""
        if self.winner == TIE:
            return ("=", "=")
        win, loss = ("+", "-") if self.forfeit else ("1", "0")
        return (win, loss) if self.winner == "first" else (loss, win)


@dataclass
class Game:
    table: int
    first: int
    second: int | None  # None: a bye
    result: Result | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def done(self) -> bool:
        return self.bye or self.result is not None

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "first": self.first, "second": self.second,
                "result": self.result.to_dict() if self.result is not None else None}


@dataclass
class Round:
    number: int
    games: list[Game] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return all(g.done for g in self.games)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "games": [g.to_dict() for g in self.games]}


@dataclass
class Tournament:
    name: str
    game: str
    system: str
    rounds: int
    players: list[Player] = field(default_factory=list)
    played: list[Round] = field(default_factory=list)
    bye_points: float = 1.0

    # ------------------------------------------------------------------ players

    def player(self, number: int) -> Player:
        for p in self.players:
            if p.number == number:
                return p
        raise TournamentError(f"there is no player number {number}")

    def find(self, name: str) -> Player:
        """A player by name (case and spacing ignored) or starting number."""
        if name.strip().isdigit():
            return self.player(int(name))
        key = _key(name)
        for p in self.players:
            if _key(p.name) == key:
                return p
        raise TournamentError(f"no player called {name!r}")

    def add_player(self, name: str, *, rating: int = 0, club: str = "") -> Player:
        name = check_name(name, "a player's name")
        if self.played:
            raise TournamentError("the first round is paired: players cannot join any more")
        if any(_key(p.name) == _key(name) for p in self.players):
            raise TournamentError(f"{name!r} is already a player")
        if len(self.players) >= MAX_PLAYERS:
            raise TournamentError(f"a tournament holds at most {MAX_PLAYERS} players")
        if not 0 <= rating <= 4000:
            raise TournamentError(f"a rating is 0 to 4000, not {rating}")
        player = Player(len(self.players) + 1, name, rating, check_text(club, "a club"))
        self.players.append(player)
        return player

    def active(self) -> list[Player]:
        return [p for p in self.players if not p.withdrawn]

    # ------------------------------------------------------------------ rounds

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    def game_at(self, round_no: int, table: int) -> Game:
        for r in self.played:
            if r.number == round_no:
                for g in r.games:
                    if g.table == table:
                        return g
                raise TournamentError(f"round {round_no} has no table {table}")
        raise TournamentError(f"round {round_no} is not paired")

    def game_of(self, round_no: int, a: str, b: str) -> tuple[Game, bool]:
        """The game of round ``round_no`` between the players named ``a`` and ``b``, and
        whether ``a`` moved first."""
        pa, pb = self.find(a), self.find(b)
        for r in self.played:
            if r.number != round_no:
                continue
            for g in r.games:
                if (g.first, g.second) == (pa.number, pb.number):
                    return g, True
                if (g.first, g.second) == (pb.number, pa.number):
                    return g, False
        raise TournamentError(f"{pa.name} and {pb.name} are not paired in round {round_no}")

    def records(self) -> list[GameRecord]:
        """Every finished game (and bye) as the standings read it."""
        out: list[GameRecord] = []
        for r in self.played:
            for g in r.games:
                first = self.player(g.first).name
                if g.second is None:
                    won = {1.0: first, 0.5: TIE}.get(self.bye_points)
                    out.append(GameRecord((first,), won, r.number, g.table, reason="bye",
                                          source="bye"))
                    continue
                if g.result is None:
                    continue
                second = self.player(g.second).name
                res = g.result
                winner = {"first": first, "second": second}.get(res.winner, TIE)
                score = None if res.score is None else {first: res.score[0],
                                                        second: res.score[1]}
                out.append(GameRecord((first, second), winner, r.number, g.table,
                                      res.forfeit, score, res.reason, res.source))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": KIND, "version": VERSION, "name": self.name, "game": self.game,
                "system": self.system, "rounds": self.rounds, "bye_points": self.bye_points,
                "players": [p.to_dict() for p in self.players],
                "played": [r.to_dict() for r in self.played]}


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def check_text(value: object, what: str, *, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str):
        raise TournamentError(f"{what} must be text, not {value!r}")
    text = " ".join(value.split())
    if len(text) > limit or any(ord(c) < 32 for c in value if c not in "\t\n"):
        raise TournamentError(f"{what} must be at most {limit} printable characters")
    return text


def check_name(value: object, what: str) -> str:
    text = check_text(value, what)
    if not text:
        raise TournamentError(f"{what} cannot be empty")
    if text.isdigit():
        raise TournamentError(f"{what} cannot be only digits (those are starting numbers)")
    return text


def slug(name: str) -> str:
    """A file name for a tournament's name."""
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "tournament"


# ---------------------------------------------------------------------- reading


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int, where: str) -> int:
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise TournamentError(f"{where}: {key!r} must be a whole number {lo}-{hi}, not {v!r}")
    return v


def _dict(v: object, where: str) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise TournamentError(f"{where} must be an object")
    return v


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise TournamentError(f"{where} must be a list")
    return v


def _result(v: object, where: str) -> Result | None:
    if v is None:
        return None
    obj = _dict(v, where)
    winner = obj.get("winner")
    if winner not in WINNERS:
        raise TournamentError(f"{where}: winner must be one of {', '.join(WINNERS)}")
    forfeit = obj.get("forfeit", False)
    if not isinstance(forfeit, bool):
        raise TournamentError(f"{where}: forfeit must be true or false")
    score_v = obj.get("score")
    score: tuple[int, int] | None = None
    if score_v is not None:
        s = _list(score_v, f"{where}: score")
        if len(s) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                  and abs(x) < 10_000 for x in s):
            raise TournamentError(f"{where}: score must be two whole numbers")
        score = (s[0], s[1])
    return Result(str(winner), forfeit, score, check_text(obj.get("reason", ""), "a reason"),
                  check_text(obj.get("source", "arbiter"), "a source", limit=200))


def from_dict(obj: object) -> Tournament:
    """A tournament from its JSON form, every field checked."""
    d = _dict(obj, "the tournament file")
    if d.get("kind") != KIND:
        raise TournamentError("not a companion tournament file")
    if d.get("version") != VERSION:
        raise TournamentError(f"tournament file version {d.get('version')!r} is not {VERSION}")
    system = d.get("system")
    if system not in SYSTEMS:
        raise TournamentError(f"system must be one of {', '.join(SYSTEMS)}")
    game = d.get("game")
    if not isinstance(game, str) or not game:
        raise TournamentError("the tournament names no game")
    bye = d.get("bye_points", 1.0)
    if isinstance(bye, bool) or not isinstance(bye, (int, float)) or bye not in (0, 0.5, 1):
        raise TournamentError("bye_points must be 0, 0.5 or 1")
    t = Tournament(check_name(d.get("name"), "the name"), game, str(system),
                   _int(d, "rounds", 1, MAX_ROUNDS, "the tournament"), bye_points=float(bye))
    numbers: set[int] = set()
    for i, pv in enumerate(_list(d.get("players", []), "players")[:MAX_PLAYERS + 1]):
        where = f"player {i + 1}"
        p = _dict(pv, where)
        n = _int(p, "number", 1, MAX_PLAYERS, where)
        if n in numbers or n != i + 1:
            raise TournamentError(f"{where}: starting numbers must be 1, 2, 3, ... in order")
        numbers.add(n)
        withdrawn = p.get("withdrawn", False)
        if not isinstance(withdrawn, bool):
            raise TournamentError(f"{where}: withdrawn must be true or false")
        t.players.append(Player(n, check_name(p.get("name"), f"{where}'s name"),
                                _int(p, "rating", 0, 4000, where),
                                check_text(p.get("club", ""), f"{where}'s club"), withdrawn))
    for i, rv in enumerate(_list(d.get("played", []), "played")):
        where = f"round {i + 1}"
        r = _dict(rv, where)
        if _int(r, "number", 1, MAX_ROUNDS, where) != i + 1:
            raise TournamentError(f"{where}: rounds must be numbered 1, 2, 3, ... in order")
        rnd = Round(i + 1)
        seen: set[int] = set()
        for j, gv in enumerate(_list(r.get("games", []), f"{where} games")):
            gw = f"{where}, game {j + 1}"
            g = _dict(gv, gw)
            first = _int(g, "first", 1, MAX_PLAYERS, gw)
            second = None if g.get("second") is None else _int(g, "second", 1, MAX_PLAYERS, gw)
            who = {first} | ({second} if second is not None else set())
            if not who <= numbers or (second == first) or who & seen:
                raise TournamentError(f"{gw}: unknown players or a player twice in the round")
            seen |= who
            result = _result(g.get("result"), gw)
            if second is None and result is not None:
                raise TournamentError(f"{gw}: a bye has no result")
            rnd.games.append(Game(_int(g, "table", 1, MAX_PLAYERS, gw), first, second, result))
        t.played.append(rnd)
    if len(t.played) > t.rounds:
        raise TournamentError(f"{len(t.played)} rounds paired but the tournament has {t.rounds}")
    return t
