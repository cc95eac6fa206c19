"""The arbiter's view of every table: events in, each id applied once and in order, state out.

:class:`ArbiterView` is the arbiter laptop's bookkeeping, with no network in it: the MQTT client
(:mod:`companion.arbiter.client`) hands it every message with :meth:`ArbiterView.handle`, and
publishes the resend requests it returns. Per table and per game (a game is its journal header's
hash) it keeps the records in ``seq`` order:

- a record already applied (the same event id) is counted as a duplicate and ignored;
- a record beyond the next one waits, and the table is asked (``resend``) for what is missing;
- each applied record must chain to the one before (``prev`` is its hash), else an alert says so.

It folds every record through the same engine as the table, so what it shows is the journal's
meaning, not a copy of the table's screen: the game's arbiter facet
(:class:`companion.arbiter.kinds.ArbiterGame`) gives the engine (a *mirror*) and fills the
table's card from it (the board or a link to its picture, whose turn, the game's own alerts).
For every game, the alerts an arbiter must see: a table offline, records missing, a broken hash
chain, a command refused. A game without an arbiter facet is shown without its state.

Until the events of a game have arrived (a page opened while a table was offline), a retained
state snapshot that carries the game's state is shown instead, when the game can show one.

A table's signed status, state and results are taken in their order, never just in the order
they arrive: anyone with the table's broker password can publish its old signed messages again
(retained, so a page started later sees them first). A status carries the table's ``seq`` (it
goes up with every connection, across the table's restarts) and its wall time; a state its
game's header ``created`` and its record ``seq``; a result the number of journal records it
covers. An older one is counted as stale and changes nothing, so a replayed "offline" never
shows a live table offline. :meth:`ArbiterView.restore` takes back what the page kept across its
own restart (:mod:`companion.arbiter.retained`), checked against the keyring like anything else.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.arbiter import topics
from companion.arbiter.answer_words import answer_in_words, unverified_in_words
from companion.arbiter.kinds import Mirror, arbiter_for
from companion.arbiter.sealing import SIG, check, enrolled_key
from companion.i18n import _
from companion.keys import Keyring

ASK_AGAIN_S = 1.0
#: Tables never verified that the view keeps (to show them as unverified); beyond, messages
#: for yet other unknown table numbers are only counted, so a forger cannot grow the view.
MAX_UNVERIFIED_TABLES = 32
MAX_EXTRAPOLATION_S = 600.0


@dataclass
class GameLog:
    """One game of one table, as received."""

    game: str
    records: list[dict[str, Any]] = field(default_factory=list)
    waiting: dict[int, dict[str, Any]] = field(default_factory=dict)
    mirror: Mirror | None = None  # the game's engine (from its arbiter facet)
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
    verified: bool = False  # a message signed by the table's enrolled key has arrived
    unverified: int = 0  # messages refused: unsigned, forged, or from a table not enrolled
    unverified_why: str = ""
    seen_wall: float | None = None  # the table's own wall time in its last verified message
    status_order: tuple[int, float] | None = None  # (seq, wall) of the status shown
    state_order: tuple[str, int] | None = None  # (created, seq) of the state kept
    stale: int = 0  # signed messages older than what the page has: replays, counted, ignored

    @property
    def current(self) -> GameLog | None:
        return self.games.get(self.game) if self.game is not None else None


Request = tuple[str, bytes]
#: The kinds a table publishes retained: the page keeps the last it verified of each.
RETAINED = ("status", "state", "result")


class ArbiterView:
    """Every table's games, rebuilt from the event stream."""

    def __init__(self, prefix: str = "companion", keyring: Keyring | None = None) -> None:
        self.prefix = prefix
        #: The enrolled tables' keys: only their signed messages enter the view.
        self.keyring = keyring
        self.tables: dict[int, TableView] = {}
        self.version = 0
        #: Every result record the tables published, by game (a table's later rounds add more).
        self.results: dict[str, dict[str, Any]] = {}
        self.dropped = 0  # unverified messages for table numbers beyond MAX_UNVERIFIED_TABLES

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
        if not isinstance(message, dict) or kind in ("cmd", "resend"):
            return []
        why = check(message, kind, enrolled_key(self.keyring, n))
        if why is not None and n not in self.tables and sum(
            not t.verified for t in self.tables.values()
        ) >= MAX_UNVERIFIED_TABLES:
            self.dropped += 1
            return []
        tv = self._table(n)
        if why is not None:
            # Counted and shown, never applied: a forged or unsigned message must not change
            # a game, a result or the standings.
            tv.unverified += 1
            tv.unverified_why = f"{kind}: {why}"
            self._changed(tv)
            return []
        return self._take(tv, kind, message, payload, now)

    def restore(self, table: int, kind: str, payload: bytes, now: float) -> bool:
        """Take back one message the page kept across its restart; only when it still
        verifies with the key enrolled for ``table`` (False: not taken, not counted)."""
        if kind not in RETAINED:
            return False
        try:
            message = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            return False
        if not isinstance(message, dict) or check(
            message, kind, enrolled_key(self.keyring, table)
        ) is not None:
            return False
        self._take(self._table(table), kind, message, payload, now, restoring=True)
        return True

    #: Called with (table, kind, payload, game) for each signed status, state or result the
    #: view took (not a stale one): the page keeps them across its restart
    #: (:class:`companion.arbiter.retained.RetainedStore`).
    on_retained: Callable[[int, str, bytes, str], None] | None = None

    def _take(self, tv: TableView, kind: str, message: dict[str, Any], payload: bytes,
              now: float, *, restoring: bool = False) -> list[Request]:
        """A message verified as the table's: applied, unless older than what we have."""
        tv.verified = True
        tv.seen_wall = _wall_of(message, tv.seen_wall)
        game = ""
        if kind == "events":
            return self._event(tv, message, now)
        if kind == "state":
            order = _state_order(message)
            if tv.state_order is not None and order < tv.state_order:
                return self._stale(tv)
            tv.state, tv.state_order, tv.state_at = message, order, now
        elif kind == "status":
            status_order = _status_order(message)
            if tv.status_order is not None and status_order < tv.status_order:
                return self._stale(tv)
            tv.status = str(message.get("status", "unknown"))
            tv.status_order, tv.status_at = status_order, now
        elif kind == "result":
            message = {k: v for k, v in message.items() if k != SIG}  # the record as signed
            info = message.get("journal")
            game = str((info.get("game_id") if isinstance(info, dict) else None)
                       or f"table-{tv.table}")
            kept = self.results.get(game)
            if kept is not None and _records_of(message) < _records_of(kept):
                return self._stale(tv)
            tv.result = message
            self.results[game] = message
        elif kind == "reply":
            tv.replies.append((now, message))
        self._changed(tv)
        if kind in RETAINED and not restoring and self.on_retained is not None:
            self.on_retained(tv.table, kind, payload, game)
        return self._catch_up(tv, now) if kind == "state" else []

    def _stale(self, tv: TableView) -> list[Request]:
        """A signed message older than the one the page has: a replay (counted, shown)."""
        tv.stale += 1
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

    #: Called with (table, game, record) for each record applied in order while the chain
    #: holds: the station keeps each table's tail with it (:mod:`companion.arbiter.tails`).
    on_applied: Callable[[int, str, dict[str, Any]], None] | None = None

    def _apply(self, tv: TableView, log: GameLog, record: dict[str, Any], now: float) -> None:
        seq = log.next_seq
        if seq > 0 and record.get("prev") != log.records[-1].get("hash"):
            if log.chain_broken is None:
                log.chain_broken = seq
        log.records.append(record)
        log.received_at = now
        if seq == 0:
            self._start(tv, log)
        elif log.mirror is not None:
            log.mirror.apply(record)
        if self.on_applied is not None and log.chain_broken is None:
            self.on_applied(tv.table, log.game, record)
        self._changed(tv)

    def _start(self, tv: TableView, log: GameLog) -> None:
        header = log.header
        game = arbiter_for(header.get("game"))
        log.mirror = game.mirror(header) if game is not None else None
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
        out["verified"] = tv.verified
        out["unverified"] = tv.unverified
        if not tv.verified:
            out["status"] = "unverified"
            alerts.append({"kind": "unverified",
                           "text": _("table {n} is unverified ({why})").format(
                               n=n, why=unverified_in_words(tv.unverified_why))})
            return out
        if tv.unverified:
            alerts.append({"kind": "unverified",
                           "text": _("{n} unverified message(s) ignored (last: {why})").format(
                               n=tv.unverified, why=unverified_in_words(tv.unverified_why))})
        if tv.stale:
            alerts.append({"kind": "stale",
                           "text": _("{n} older signed message(s) of this table ignored "
                                     "(replayed?)").format(n=tv.stale)})
        out["last_seen"] = tv.seen_wall
        kind = _kind_of(tv)
        out["answers"] = [_answer(at, reply, now, kind) for at, reply in list(tv.replies)[-3:]]
        if tv.status == "offline":
            alerts.append({"kind": "offline", "text": _("table {n} is offline").format(n=n)})
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
            board_no=header.get("board"),
            tournament=header.get("tournament"),
            missing=len(log.waiting),
        )
        if log.waiting:
            alerts.append({"kind": "missing",
                           "text": _("{n} record(s) waiting for seq {seq}").format(
                               n=len(log.waiting), seq=log.next_seq)})
        if log.chain_broken is not None:
            alerts.append({"kind": "chain", "text": _("hash chain broken at seq {seq}").format(
                seq=log.chain_broken)})
        for at, reply in tv.replies:
            if now - at < 30.0 and reply.get("ok") is False:
                text = _("command refused: {detail}").format(
                    detail=answer_in_words(reply.get("detail"), kind))
                alerts.append({"kind": "command", "text": text})
        if log.mirror is not None:
            log.mirror.card(out, elapsed=self._elapsed(log.received_at, now),
                            online=tv.status != "offline", board=_board_url(tv, out))
        return out

    @staticmethod
    def _elapsed(received_at: float, now: float) -> float:
        """Seconds since the last record arrived, as far as the page runs the clock on."""
        return min(MAX_EXTRAPOLATION_S, max(0.0, now - received_at))

    def _snapshot_json(self, tv: TableView, out: dict[str, Any], now: float) -> None:
        """No records yet: a keypad game's retained state snapshot, when it carries one."""
        snap = tv.state or {}
        header, state, game = snap.get("header"), snap.get("state"), snap.get("game")
        if not isinstance(header, dict) or not isinstance(state, dict) or not isinstance(game, str):
            return
        kind = header.get("game")
        facet = arbiter_for(kind)
        if facet is None:
            return
        shown: dict[str, Any] = {
            "game": game,
            "seq": snap.get("seq"),
            "wall": snap.get("wall"),
            "names": header.get("names") or {},
            "kind": kind,
            "round": header.get("round"),
            "missing": 0,
            "from_snapshot": True,
        }
        card: dict[str, Any] = {"alerts": []}
        if not facet.snapshot_card(card, state, header,
                                   elapsed=self._elapsed(tv.state_at, now),
                                   online=tv.status != "offline",
                                   board=_board_url(tv, shown)):
            return
        out.update(shown)
        out["alerts"].extend(card.pop("alerts"))
        out.update(card)

    def changed_since(
        self, seen: Mapping[int, int], now: float, *, full: bool = False,
        also: frozenset[int] | set[int] = frozenset(),
    ) -> list[dict[str, Any]]:
        """The cards of the tables that changed since ``seen`` (table: version sent), of the
        tables in ``also`` (a clock of theirs ran out), or of every table when ``full``: the
        page's stream builds only the cards it pushes."""
        return [self.table_json(n, now) for n in sorted(self.tables)
                if full or n in also or self.tables[n].version > seen.get(n, -1)]

    def snapshot(self, now: float) -> dict[str, Any]:
        return {
            "version": self.version,
            "tables": [self.table_json(n, now) for n in sorted(self.tables)],
        }


def _wall_of(message: Mapping[str, Any], before: float | None) -> float | None:
    """The wall time a table's message carries (its status's, or its record's), else
    ``before``: the page's "last seen at" for an offline table."""
    record = message.get("record")
    wall = message.get("wall", record.get("wall") if isinstance(record, Mapping) else None)
    if isinstance(wall, bool) or not isinstance(wall, (int, float)):
        return before
    return float(wall) if before is None else max(before, float(wall))


def _number(value: object, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


def _status_order(message: Mapping[str, Any]) -> tuple[int, float]:
    """A status's place among the table's: its ``seq`` (up with every connection, and across
    the table's restarts), then its wall time (a table's status without a seq, from an older
    version, comes before any with one)."""
    seq = message.get("seq")
    number = seq if isinstance(seq, int) and not isinstance(seq, bool) else -1
    return number, _number(message.get("wall"), 0.0)


def _state_order(message: Mapping[str, Any]) -> tuple[str, int]:
    """A state's place: its game's start (the header's ``created``), then its record ``seq``."""
    header = message.get("header")
    created = header.get("created") if isinstance(header, Mapping) else None
    seq = message.get("seq")
    return str(created or ""), seq if isinstance(seq, int) and not isinstance(seq, bool) else -1


def _records_of(result: Mapping[str, Any]) -> int:
    """How many journal records a result covers (a later result of the same game, after a
    correction, covers more)."""
    info = result.get("journal")
    records = info.get("records") if isinstance(info, Mapping) else None
    return records if isinstance(records, int) and not isinstance(records, bool) else -1


def _kind_of(tv: TableView) -> object:
    """The game a table plays, from its current game's header or its retained state's."""
    log = tv.current
    if log is not None:
        return log.header.get("game")
    header = (tv.state or {}).get("header")
    return header.get("game") if isinstance(header, Mapping) else None


def _answer(at: float, reply: Mapping[str, Any], now: float, kind: object = None
            ) -> dict[str, Any]:
    """A table's answer to a command, for its card: accepted or refused, and why (the table's
    English said in the page's language, :mod:`companion.arbiter.answer_words`)."""
    ok = reply.get("ok")
    return {
        "ok": ok,
        "verdict": "accepted" if ok else ("refused" if ok is False else "queued"),
        "detail": answer_in_words(str(reply.get("detail", ""))[:200], kind)[:300],
        "pairing": bool(reply.get("pairing")),
        "age": round(max(0.0, now - at), 1),
    }


def _board_url(tv: TableView, out: Mapping[str, Any]) -> str:
    """The address of a table's board picture (``/board/N.svg``; the query changes with every
    record, so the page fetches it again only then)."""
    return f"/board/{tv.table}.svg?game={out.get('game')}&seq={out.get('seq')}"
