"""The arbiter's view of every table: events in, each id applied once and in order, state out.

:class:`ArbiterView` is the arbiter laptop's bookkeeping, with no network in it: the MQTT client
(:mod:`companion.arbiter.client`) hands it every message with :meth:`ArbiterView.handle`, and
publishes the resend requests it returns. Per table and per game (a game is its journal header's
hash) it keeps the records in ``seq`` order:

- a record already applied (the same event id) is counted as a duplicate and ignored;
- a record beyond the next one waits, and the table is asked (``resend``) for what is missing;
- each applied record must chain to the one before (``prev`` is its hash), else an alert says so.

It folds every record through the same engine as the table, so what it shows is the journal's
meaning, not a copy of the table's screen. Tamsk: board, rings, sand per glass (run on to the
moment shown), whose turn, the 15-second timer. Tantrix and Tokami (folded by
:mod:`companion.arbiter.boards`): the ``companion simulate`` state (Tantrix: tiles, forced
spaces, bag and phase, each colour's score; Tokami: standings, round, blocks left, the
forbidden block), whose turn, and a link to the board's picture. For every game, the alerts an
arbiter must see: a glass under 10 s, a 15-second overrun, a refused input, a table offline,
records missing, a command refused.

Until the events of a keypad game have arrived (a page opened while a table was offline), a
retained state snapshot that carries the game's state is shown instead.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.arbiter import topics
from companion.arbiter.boards import KEYPAD_GAMES, Mirror, mirror_for
from companion.tamsk.events import GLASSES, parse_event
from companion.tamsk.game import Game

LOW_SAND_S = 10.0
RECENT_S = 20.0  # game seconds a refused input or a penalty stays on the alert list
ASK_AGAIN_S = 1.0
MAX_EXTRAPOLATION_S = 600.0


@dataclass
class GameLog:
    """One game of one table, as received."""

    game: str
    records: list[dict[str, Any]] = field(default_factory=list)
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    mirror: Game | None = None
    keypad: Mirror | None = None  # a Tantrix or Tokami game's engine
    received_at: float = 0.0  # local monotonic time the last record was applied
    chain_broken: int | None = None  # the first seq whose prev did not match

    @property
    def header(self) -> dict[str, Any]:
        return self.records[0] if self.records else {}

    @property
    def next_seq(self) -> int:
        return len(self.records)


@dataclass
class TableView:
    table: int
    status: str = "unknown"
    status_at: float = 0.0
    game: str | None = None
    games: dict[str, GameLog] = field(default_factory=dict)
    duplicates: int = 0
    state: dict[str, Any] | None = None
    state_at: float = 0.0  # local monotonic time the retained state arrived
    result: dict[str, Any] | None = None
    replies: deque[tuple[float, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=20))
    asked: dict[tuple[str, int], float] = field(default_factory=dict)
    version: int = 0

    @property
    def current(self) -> GameLog | None:
        return self.games.get(self.game) if self.game is not None else None


Request = tuple[str, bytes]


class ArbiterView:
    """Every table's games, rebuilt from the event stream."""

    def __init__(self, prefix: str = "companion") -> None:
        self.prefix = prefix
        self.tables: dict[int, TableView] = {}
        self.version = 0
        #: Every result record the tables published, by game (a table's later rounds add more).
        self.results: dict[str, dict[str, Any]] = {}

    def _table(self, n: int) -> TableView:
        tv = self.tables.get(n)
        if tv is None:
            tv = self.tables[n] = TableView(n)
        return tv

    def _changed(self, tv: TableView) -> None:
        self.version += 1
        tv.version = self.version

    # ------------------------------------------------------------------ messages in

    def handle(self, topic: str, payload: bytes, now: float) -> list[Request]:
        """Take one MQTT message; returns the resend requests to publish."""
        parsed = topics.parse(self.prefix, topic)
        if parsed is None:
            return []
        n, kind = parsed
        try:
            message = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError):
            return []
        if not isinstance(message, dict):
            return []
        tv = self._table(n)
        if kind == "events":
            return self._event(tv, message, now)
        if kind == "state":
            tv.state = message
            tv.state_at = now
            self._changed(tv)
            return self._catch_up(tv, now)
        if kind == "status":
            tv.status = str(message.get("status", "unknown"))
            tv.status_at = now
            self._changed(tv)
        elif kind == "result":
            tv.result = message
            info = message.get("journal")
            game = info.get("game_id") if isinstance(info, dict) else None
            self.results[str(game or f"table-{n}")] = message
            self._changed(tv)
        elif kind == "reply":
            tv.replies.append((now, message))
            self._changed(tv)
        return []

    def _event(self, tv: TableView, message: Mapping[str, Any], now: float) -> list[Request]:
        game, seq, record = message.get("game"), message.get("seq"), message.get("record")
        if not isinstance(game, str) or not isinstance(seq, int) or not isinstance(record, dict):
            return []
        if message.get("id") != topics.event_id(tv.table, game, seq):
            return []
        log = tv.games.get(game)
        if log is None:
            log = tv.games[game] = GameLog(game)
        if seq < log.next_seq or seq in log.waiting:
            tv.duplicates += 1
            return []
        if seq > log.next_seq:
            log.waiting[seq] = record
            return self._ask(tv, game, log.next_seq, now)
        self._apply(tv, log, record, now)
        while log.next_seq in log.waiting:
            self._apply(tv, log, log.waiting.pop(log.next_seq), now)
        return []

    def _apply(self, tv: TableView, log: GameLog, record: dict[str, Any], now: float) -> None:
        seq = log.next_seq
        if seq > 0 and record.get("prev") != log.records[-1].get("hash"):
            if log.chain_broken is None:
                log.chain_broken = seq
        log.records.append(record)
        log.received_at = now
        if seq == 0:
            self._start(tv, log)
        elif log.keypad is not None:
            log.keypad.apply(record)
        elif log.mirror is not None:
            t = record.get("t")
            if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= log.mirror.t:
                try:
                    log.mirror.apply(parse_event(record, float(t)))
                except ValueError:
                    pass
        self._changed(tv)

    def _start(self, tv: TableView, log: GameLog) -> None:
        header = log.header
        if header.get("game") == "tamsk":
            from companion.tamsk.simulate import rules_from_header

            try:
                log.mirror = Game(rules_from_header(header))
            except ValueError:
                log.mirror = None
        elif header.get("game") in KEYPAD_GAMES:
            log.keypad = mirror_for(header)
        current = tv.current
        if current is None or str(header.get("created", "")) >= str(
            current.header.get("created", "")
        ):
            tv.game = log.game

    def _ask(self, tv: TableView, game: str, start: int, now: float) -> list[Request]:
        if now - tv.asked.get((game, start), -1e9) < ASK_AGAIN_S:
            return []
        tv.asked[(game, start)] = now
        body = json.dumps({"game": game, "from": start}).encode()
        return [(topics.topic(self.prefix, tv.table, "resend"), body)]

    def _catch_up(self, tv: TableView, now: float) -> list[Request]:
        """Ask for whatever the retained state shows that we have not got."""
        state = tv.state or {}
        game, seq = state.get("game"), state.get("seq")
        if not isinstance(game, str) or not isinstance(seq, int):
            return []
        log = tv.games.get(game)
        have = log.next_seq if log is not None else 0
        if seq >= have:
            return self._ask(tv, game, have, now)
        return []

    def tick(self, now: float) -> list[Request]:
        """Ask again for anything still missing (a resend can be lost in an outage too)."""
        out: list[Request] = []
        for tv in self.tables.values():
            out += self._catch_up(tv, now)
            for game, log in tv.games.items():
                if log.waiting:
                    out += self._ask(tv, game, log.next_seq, now)
        return out

    def reconnected(self, now: float) -> list[Request]:
        """After the arbiter's own reconnection: ask every known table from where we are."""
        for tv in self.tables.values():
            tv.asked.clear()
        out: list[Request] = []
        for tv in self.tables.values():
            for game, log in tv.games.items():
                out += self._ask(tv, game, log.next_seq, now)
        return out

    # ------------------------------------------------------------------ state out

    def records(self, table: int, game: str | None = None) -> list[dict[str, Any]]:
        """The records applied for a table's game (its current one by default)."""
        tv = self.tables.get(table)
        if tv is None:
            return []
        log = tv.games.get(game) if game is not None else tv.current
        return list(log.records) if log is not None else []

    def table_json(self, n: int, now: float) -> dict[str, Any]:
        """What the page shows of one table at ``now`` (local monotonic seconds)."""
        tv = self.tables[n]
        log = tv.current
        out: dict[str, Any] = {
            "table": n,
            "status": tv.status,
            "version": tv.version,
            "game": tv.game,
            "duplicates": tv.duplicates,
            "alerts": [],
        }
        alerts: list[dict[str, str]] = out["alerts"]
        if tv.status == "offline":
            alerts.append({"kind": "offline", "text": f"table {n} is offline"})
        if log is None:
            self._snapshot_json(tv, out, now)
            return out
        header = log.header
        last = log.records[-1]
        out.update(
            seq=log.next_seq - 1,
            wall=last.get("wall"),
            names=header.get("names") or {},
            kind=header.get("game"),
            level=header.get("level"),
            ruleset=header.get("ruleset"),
            round=header.get("round"),
            missing=len(log.waiting),
        )
        if log.waiting:
            alerts.append({"kind": "missing", "text": f"{len(log.waiting)} record(s) waiting for "
                                                      f"seq {log.next_seq}"})
        if log.chain_broken is not None:
            alerts.append({"kind": "chain", "text": f"hash chain broken at seq {log.chain_broken}"})
        for at, reply in tv.replies:
            if now - at < 30.0 and reply.get("ok") is False:
                text = f"command refused: {reply.get('detail')}"
                alerts.append({"kind": "command", "text": text})
        if log.keypad is not None:
            state = log.keypad.state()
            _keypad_json(tv, out, log.keypad.kind, state, header, log.received_at, now)
            return out
        game = log.mirror
        if game is None:
            return out
        running = tv.status != "offline" and not game.over
        t_now = game.t + (min(MAX_EXTRAPOLATION_S, max(0.0, now - log.received_at))
                          if running else 0.0)
        glasses = {}
        for name in GLASSES:
            g = game.glasses[name]
            sand = g.sand_at(t_now)
            dead = g.dead or (g.running and sand <= 0.0)
            glasses[name] = {
                "space": g.space,
                "sand": round(sand, 1),
                "running": g.running and not dead,
                "dead": dead,
                "period": g.period,
            }
            if game.rules.timed and not game.over:
                if dead and not g.dead:
                    alerts.append({"kind": "out", "text": f"{name} has run out"})
                elif g.running and sand < LOW_SAND_S and not dead:
                    alerts.append({"kind": "low", "text": f"{name} under 10 s ({sand:.1f} s)"})
        timer = game.timer
        remaining = timer.expires - t_now if timer.running else 0.0
        if (
            timer.running
            and remaining <= 0.0
            and timer.against == game.turn
            and timer.against_turn == game.turn_no
        ):
            alerts.append({"kind": "overrun", "text": f"15 s overrun: {timer.against}"})
        for p in game.penalties:
            if t_now - p.t < RECENT_S:
                alerts.append({"kind": "overrun", "text": f"penalty {p.kind}: {p.player}"})
        for v in game.violations:
            if t_now - v.t < RECENT_S:
                alerts.append({"kind": "refused", "text": f"refused ({v.player}): {v.detail}"})
        outcome = game.outcome
        out.update(
            t=round(t_now, 2),
            turn=game.turn,
            over=outcome is not None,
            winner=outcome.winner if outcome else None,
            reason=outcome.reason if outcome else None,
            confirmed=game.confirmed,
            rings_left=dict(game.rings_left),
            spaces=dict(game.rings_on),
            glasses=glasses,
            in_hand=dict(game.in_hand),
            timer15={
                "running": timer.running and remaining > 0.0,
                "remaining": round(max(0.0, remaining), 1),
                "against": timer.against if timer.running else None,
            },
            penalties=[p.to_dict() for p in game.penalties],
            corrections=list(game.corrections),
            last_input=_last_input(game),
        )
        return out

    def _snapshot_json(self, tv: TableView, out: dict[str, Any], now: float) -> None:
        """No records yet: a keypad game's retained state snapshot, when it carries one."""
        snap = tv.state or {}
        header, state, game = snap.get("header"), snap.get("state"), snap.get("game")
        if not isinstance(header, dict) or not isinstance(state, dict) or not isinstance(game, str):
            return
        kind = header.get("game")
        if kind not in KEYPAD_GAMES or state.get("game") != kind:
            return
        out.update(
            game=game,
            seq=snap.get("seq"),
            wall=snap.get("wall"),
            names=header.get("names") or {},
            kind=kind,
            round=header.get("round"),
            missing=0,
            from_snapshot=True,
        )
        _keypad_json(tv, out, str(kind), state, header, tv.state_at, now)

    def snapshot(self, now: float) -> dict[str, Any]:
        return {
            "version": self.version,
            "tables": [self.table_json(n, now) for n in sorted(self.tables)],
        }


def _keypad_json(tv: TableView, out: dict[str, Any], kind: str, state: Mapping[str, Any],
                 header: Mapping[str, Any], received_at: float, now: float) -> None:
    """A Tantrix or Tokami table's part of :meth:`ArbiterView.table_json`.

    The game's ``simulate`` state goes under the game's name (``"tantrix"`` / ``"tokami"``,
    so a Tokami round never reads as the tournament's round; Tokami adds the header's
    ``worthless`` colour and ``round_ends_at``, which its picture needs), whose turn and the
    result at the top as for Tamsk, and ``"board"``, the address of the board's picture
    (``/board/N.svg``; the query changes with every record, so the page fetches it again only
    then). A refused input stays on the alert list for :data:`RECENT_S` seconds of game time.
    """
    over = bool(state.get("over"))
    t_state = float(state.get("t") or 0.0)
    running = tv.status != "offline" and not over
    t_now = t_state + (min(MAX_EXTRAPOLATION_S, max(0.0, now - received_at)) if running else 0.0)
    violations = [v for v in state.get("violations", []) if isinstance(v, Mapping)]
    alerts: list[dict[str, str]] = out["alerts"]
    for v in violations:
        t = v.get("t")
        if isinstance(t, (int, float)) and t_now - float(t) < RECENT_S:
            alerts.append({"kind": "refused", "text": f"refused ({v.get('player')}): "
                                                      f"{v.get('detail')}"})
    shown = {k: v for k, v in state.items() if k not in ("game", "history")}
    shown["violations"] = violations
    if kind == "tokami":
        for name in ("worthless", "round_ends_at"):
            if name in header:
                shown[name] = header[name]
    out.update(
        t=round(t_now, 2),
        turn=None if over else state.get("turn"),
        over=over,
        winner=state.get("winner"),
        reason=state.get("reason") or ("ended" if state.get("ended") else None),
        players=list(state.get("players", [])),
        board=f"/board/{tv.table}.svg?game={out.get('game')}&seq={out.get('seq')}",
    )
    out[kind] = shown


def _last_input(game: Game) -> dict[str, Any] | None:
    from companion.tamsk.corrections import UNDOABLE

    for event in reversed(game.history):
        if event.kind in UNDOABLE:
            return event.to_dict()
    return None
