"""`companion arbiter`: a local web page showing every table live, served by the companion.

Served by aiohttp.web (Raspberry Pi OS: ``python3-aiohttp``) on an asyncio loop in a thread of
its own, instead of hand-written limits on ``http.server``: aiohttp parses HTTP (a negative or
malformed ``Content-Length`` is refused by its parser), bounds request bodies
(``client_max_size``), header lines and fields, and times keep-alive connections out; the
:mod:`~companion.arbiter.httpguard` adds a cap on connections and a deadline for each request's
head, so idle or slow sockets cannot take the page down; the
:mod:`~companion.arbiter.budgets` bound what each client address may do at once (with a share
kept for the arbiter's session) and give every body a deadline from its head;
:mod:`~companion.arbiter.httpfaults` answers odd paths and unexpected errors. The page binds
127.0.0.1 unless told otherwise.

Defences of the arbiter's corrections (the only thing that changes anything):

- **CSRF**: a POST must come from the page itself: its ``Origin`` (when the browser sends one)
  must be the page's own, its body JSON (``application/json``, never a cross-site "simple"
  form or ``text/plain`` post), and it must carry the token the page was served with
  (``X-CSRF-Token``: an HMAC of the ``SameSite=Strict``, ``HttpOnly`` cookie set with it);
- **DNS rebinding**: the ``Host`` must be an address or one of this machine's names;
- **PIN guessing**: wrong PINs lock out *the client that sent them* (its address), with the
  same growing lock-outs as the keypad; another client (the arbiter) is never locked out;
- **headers**: a Content-Security-Policy allowing only the page's own script (a nonce per
  response), ``frame-ancestors 'none'``, ``X-Content-Type-Options: nosniff``, no referrer,
  no caching.

Routes::

    GET  /                 the live page (spectators: read-only)
    GET  /arbiter          the same page with the correction form
    GET  /api/state        every table as JSON
    GET  /board/N.svg      table N's board as SVG, for a game whose arbiter facet draws one
                           (others are drawn by the page from the JSON, by the game's script)
    GET  /api/stream       Server-Sent Events: tables as they change, everything once a second
    POST /api/command      {"table": 3, "pin": "....", "correction": {...}}: the arbiter's PIN is
                           checked (per client, with lock-outs) and the correction goes to
                           the table as an MQTT command signed with the arbiter's key
    GET  /api/results      the signed results the tables published, each checked
    GET  /standings.csv    a tournament's standings (``?t=SLUG``), from its file
    GET  /results.trf      its FIDE TRF-2016
    GET  /round/N.html     its printable round sheet, with the standings after round N
    GET  /print/KIND.html  a printout (``&round=N``): pairings, results, standings,
                           crosstable, wallchart (:mod:`companion.tournament.printouts`)
    GET  /api/tournament   every tournament's name, round and pairings (the files in
                           ``--dir`` and ``--tournament-file``)
    POST /api/pairing      {"pin": "....", "pairing": {...}}: the manual assignment of a
                           pairing to a table: a game the tournament file pairs (a new table
                           is written to the file), sent as a signed arbiter command
    POST /api/tournament/control  {"pin": "....", "control": "bye", "tournament": SLUG, ...}:
                           one of the arbiter's controls (pair, enter a player, a bye,
                           withdraw, reinstate, unpair, swap, colours, a manual pairing,
                           lots, settings), a signed record of the tournament file
                           (:meth:`companion.tournament.desk.TournamentDesk.control`)
    POST /api/session      {"pin": "...."}: signs this browser in (the arbiter's share of the
                           page when it is crowded: :mod:`~companion.arbiter.budgets`)

Everything about tournaments comes from :mod:`companion.tournament.desk`: the tournament
files, the one standings, TRF and round sheet.

Every refused command is written to ``arbiter-log.jsonl`` in the log folder and to the log.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import ipaddress
import json
import logging
import re
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from companion import i18n, registry
from companion.arbiter import jsonbody, signing
from companion.arbiter.answer_words import answer_in_words
from companion.arbiter.budgets import Budgets, ClientBudgets
from companion.arbiter.httpfaults import ascii_paths, unexpected_errors
from companion.arbiter.httpguard import ConnectionGuard, Limits, client_key
from companion.arbiter.kinds import arbiter_for
from companion.arbiter.pin import PinLock
from companion.arbiter.sessions import ArbiterSessions
from companion.arbiter.settings import ArbiterSettings
from companion.i18n import N_, _, match_template, pgettext, say
from companion.keys import SigningKey
from companion.remark import Remark

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
#: A body must be in 5 s after its head: a 16 KiB body is a dozen TCP segments, and 5 s covers
#: two lost-packet retransmissions (1 s, then 2 s) on a poor Wi-Fi.
BODY_TIMEOUT_S = 5.0
PUSH_GAP_S = 0.02
FULL_EVERY_S = 5.0
MAX_STREAMS = 64
MAX_STREAMS_PER_CLIENT = 8
#: A live stream ends after a minute (its client sends nothing after its request, so all of a
#: stream's life is idle time); EventSource opens the next one a second later (``retry``).
STREAM_IDLE_S = 60.0
#: A stream whose client has read nothing for 15 s (a sleeping phone, a socket left unread)
#: is ended: each push must leave within this time.
STREAM_STALL_S = 15.0
STREAM_RETRY_MS = 1000
MAX_PIN_CLIENTS = 1024
CSRF_COOKIE = "companion_csrf"
CSRF_HEADER = "X-CSRF-Token"


class Source(Protocol):
    """Where the page's data comes from (an :class:`~companion.arbiter.client.ArbiterClient`)."""

    changed: threading.Condition

    def snapshot(self) -> dict[str, Any]: ...

    def version(self) -> int: ...

    def send_command(
        self, table: int, correction: Mapping[str, Any], key: SigningKey
    ) -> dict[str, Any]: ...

    def results(self) -> list[dict[str, Any]]: ...


def page(arbiter: bool, *, nonce: str = "", csrf: str = "") -> str:
    """The live page in the arbiter's language (:mod:`companion.i18n`): the games' own card
    scripts and correction fields (each registered game's arbiter facet) in the shared page,
    with the correction form for the arbiter.

    The page's labels (``[[...]]`` in :data:`PAGE` and in the games' correction fields, each
    listed in a ``LABELS`` with its line breaks as spaces) are
    translated here, on the server, and escaped for HTML; the words its script writes come as
    one JSON object (``W``, :func:`page_words`) inside the script the CSP nonce allows, so the
    page needs no translation file of its own and no second script.
    """
    scripts, fields = [], []
    for name in registry.names():
        game = registry.get(name).arbiter()
        if game is not None:
            scripts.append(game.page_script())
            own = game.correction_fields()
            if own:  # each game's fields apart: only the chosen table's game's are sent
                fields.append(f'<fieldset data-kind="{name}">{labels(own)}</fieldset>')
    out = labels(PAGE)
    out = out.replace("__LANG__", i18n.language()).replace("__WORDS__", script_json(page_words()))
    out = out.replace("__FIELDS__", "".join(fields)).replace("__GAMES__", "".join(scripts))
    out = out.replace("__NONCE__", nonce).replace("__CSRF__", csrf)
    return out.replace("__ARBITER__", "true" if arbiter else "false")


#: Every label of :data:`PAGE` (written there as ``[[label]]``), marked for the catalogs.
LABELS = (
    N_("companion: the tables"), N_("every table, live"), N_("exports:"),
    N_("standings (CSV)"), N_("round sheet"), N_("to print:"), N_("pairing list"),
    N_("result list"), N_("standings"), N_("crosstable"), N_("wall chart"), N_("Correction"),
    N_("(the table journals it; its answer shows on its card)"),
    N_("the table's number, as on its card"), N_("table"),
    N_("why: kept in the table's journal with the correction"), N_("reason"),
    N_("arbiter's ruling"),
    N_("the arbiter's PIN (wrong PINs lock this browser out for a while)"), N_("send"),
    N_("sign in"),
    N_("the arbiter's PIN keeps this browser's place when the page is crowded (corrections "
       "still need the PIN)"),
    N_("Each field's hint shows when the pointer rests on it; leave the fields the chosen "
       "correction does not use empty. The fields are the game of the chosen table's."),
    N_("Assign a pairing"), N_("(shown on the table's screen; the players start it with #)"),
    N_("the table that gets the pairing"), N_("board"), N_("the round number printed on the sheet"),
    N_("round"), N_("who moves first (the first seat)"), N_("first"), N_("who moves second"),
    N_("second"), N_("the game the table plays"), N_("game"),
    N_("the tournament whose file pairs the game"), N_("tournament"),
    N_("Tournament controls"),
    N_("(each a signed record of the tournament file)"),
    N_("the tournament whose file the control changes"),
    N_("what to do"),
    N_("control"),
    N_("pair the next round"),
    N_("enter a player (late entry after round 1)"),
    N_("requested bye"),
    N_("cancel a requested bye"),
    N_("withdraw"),
    N_("reinstate"),
    N_("unpair the last round"),
    N_("swap two players"),
    N_("change a board's colours"),
    N_("manual pairing"),
    N_("numbers by lot"),
    N_("tie-breaks"),
    N_("a player's name or entry number (a new player's name)"),
    N_("player"),
    N_("the round (default: the next to pair)"),
    N_("a requested bye's points"),
    N_("points"),
    N_("swap: the other player"),
    N_("with"),
    N_("colours: the board"),
    N_("manual pairing: A-B,C-D (first mover first)"),
    N_("pairs"),
    N_("manual pairing: the pairing-allocated bye"),
    N_("bye"),
    N_("the tie-breaks in order: BH-C1,BH,SB,DE,..."),
    N_("why: kept in the tournament file"),
    N_("do it"),
)
_LABEL = re.compile(r"\[\[(.+?)\]\]", re.S)


def _one_line(label: str) -> str:
    return " ".join(label.split())


def labels(markup: str) -> str:
    """``markup`` with each ``[[label]]`` in the arbiter's language, escaped for HTML (a text
    or an attribute's value): the page's own labels and each game's correction fields, whose
    labels its arbiter facet lists (``LABELS``) for the catalogs."""
    return _LABEL.sub(lambda m: html.escape(_(_one_line(m[1]))), markup)


def page_words() -> dict[str, Any]:
    """What the page's script writes, in the arbiter's language: templates with ``{name}``
    fields (the script's ``fmt``) and, under ``"words"``, the codes the tables send (a colour,
    a status, a verdict) as words."""
    return {
        "lang": i18n.language(),
        "board_alt": _("table {table}: the {kind} board"),
        "over": _("over: {result}"),
        "tie": _("a tie"),
        "wins": _("{player} wins"),
        "stopped": _("stopped"),
        "records": _("records: {n}"),
        "head": _("Table {table}: {players} ({status})"),
        "round": _("round {round}"),
        "round_board": _("round {round}, board {board}"),
        "never": _("never"),
        "last_seen": _("offline: last seen at {at}"),
        "correction_answer": _("correction {verdict}: {detail}"),
        "pairing_answer": _("pairing {verdict}: {detail}"),
        "reconnecting": _("(reconnecting)"),
        "round_of": _("round {round} of {rounds}"),
        "table": _("table {table}"),
        "board_table": _("board {board}, table {table}"),
        "bye": _("{player}: bye"),
        "no_cell": _("no cell {cell} on the table's map"),
        "turn": _("turn: {player}"),
        "none": _("none"),
        "words": {
            "red": pgettext("player", "red"), "black": pgettext("player", "black"),
            "yellow": _("yellow"), "green": _("green"), "blue": _("blue"), "tie": _("a tie"),
            "online": _("online"), "offline": _("offline"), "unknown": _("unknown"),
            "unverified": _("unverified"), "accepted": _("accepted"), "refused": _("refused"),
            "queued": _("queued"),
            # why a keypad game ended (its card's ``reason``: Tokami's, Tantrix's)
            "rounds": _("all rounds played"), "stopped": _("stopped"),
            "resigned": _("resignation"), "ended": _("ended early"),
        },
    }


#: The English of the page's answers made by its helpers (the JSON body's reader, the MQTT
#: client), said in the arbiter's language by :func:`page_answer_in_words`.
PAGE_ANSWERS = (
    N_("the key {key} is given twice"),
    N_("{name} is not a JSON number"),
    N_("a number too large for JSON"),
    N_("the body is over {n} bytes"),
    N_("the JSON is nested more than {n} levels deep"),
    N_("the body is not UTF-8 text"),
    N_("the body is not valid JSON"),
    N_("the JSON holds an escaped lone surrogate (not text)"),
    N_("table {table} has no game the arbiter has seen"),
)


def page_answer_in_words(text: object) -> str:
    """One of :data:`PAGE_ANSWERS` in the arbiter's language (as it is when unknown)."""
    found = match_template(str(text), PAGE_ANSWERS)
    if found is None:
        return str(text)
    template, values = found
    return _(template).format(**values)


def refusal_said(why: str) -> str:
    """The page's ``refused: <why>``, a :class:`~companion.remark.Remark` (a PIN check's
    message, a CSRF refusal) said in the arbiter's language."""
    return _("refused: {why}").format(why=say(why))


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` (no ``<`` to close it early)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def content_security_policy(nonce: str | None = None) -> str:
    """Only the page's own script (its nonce) runs; nothing may frame the page."""
    script = f"'nonce-{nonce}'" if nonce else "'none'"
    return (
        "default-src 'none'; "
        f"script-src {script}; "
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; "
        "connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


@dataclass(frozen=True)
class PageLimits:
    """What one client may cost the page (see :mod:`companion.arbiter.httpguard`)."""

    connections: Limits = Limits()
    max_body: int = MAX_BODY
    body_timeout_s: float = BODY_TIMEOUT_S
    max_json_depth: int = jsonbody.MAX_DEPTH
    max_streams: int = MAX_STREAMS
    max_streams_per_client: int = MAX_STREAMS_PER_CLIENT
    #: Kept for the arbiter's session (:mod:`~companion.arbiter.sessions`): of the streams,
    #: and of the requests in progress beyond everyone else's share.
    reserved_streams: int = 8
    reserved_requests: int = 16
    #: One browser holds at most six connections to a site.
    requests_per_client: int = 8
    stream_idle_s: float = STREAM_IDLE_S
    stream_stall_s: float = STREAM_STALL_S

    def budgets(self) -> Budgets:
        """The per-client budgets (:mod:`~companion.arbiter.budgets`): everyone without a
        session shares what is left of the connections once every stream and the arbiter's
        reserved requests are counted, so a newcomer always finds a connection."""
        anonymous = (self.connections.max_connections - self.max_streams
                     - self.reserved_requests)
        return Budgets(
            requests_per_client=self.requests_per_client, anonymous_requests=max(1, anonymous),
            reserved_requests=self.reserved_requests, streams=self.max_streams,
            streams_per_client=self.max_streams_per_client,
            reserved_streams=self.reserved_streams, body_timeout_s=self.body_timeout_s,
            max_body=self.max_body)


class ClientPins:
    """A :class:`PinLock` per client address: wrong PINs lock out the client that sent them.

    The oldest entries are forgotten beyond ``MAX_PIN_CLIENTS`` (a locked-out one only when
    every entry is locked, so flooding addresses cannot free one's own lock-out quickly).
    """

    def __init__(self, settings: ArbiterSettings) -> None:
        self.settings = settings
        self._locks: OrderedDict[str, tuple[PinLock, threading.Lock]] = OrderedDict()
        self._mutex = threading.Lock()

    def _lock_for(self, client: str) -> tuple[PinLock, threading.Lock]:
        with self._mutex:
            entry = self._locks.get(client)
            if entry is None:
                s = self.settings
                lock = PinLock(s.pin_hash, attempts=s.pin_attempts, lockout_s=s.pin_lockout_s)
                entry = (lock, threading.Lock())
                self._locks[client] = entry
                while len(self._locks) > MAX_PIN_CLIENTS:
                    now = time.monotonic()
                    victim = next((k for k, (pl, _) in self._locks.items()
                                   if pl.locked_for(now) == 0), next(iter(self._locks)))
                    del self._locks[victim]
            self._locks.move_to_end(client)
            return entry

    def check(self, client: str, pin: str) -> Any:
        """The :class:`~companion.arbiter.pin.PinCheck` of one attempt from ``client``
        (blocking: the PIN's hash may be slow on purpose; run it off the event loop)."""
        lock, mutex = self._lock_for(client)
        with mutex:
            return lock.check(pin, time.monotonic())


class _QuietBadRequests(logging.Filter):
    """Malformed requests are the network's noise (or an attack): one line each at most, never
    aiohttp's traceback, so a flood of them cannot fill the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            record.exc_info = None
            record.msg, record.args = "bad request refused: %s", (str(exc).splitlines()[0],)
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


logging.getLogger("aiohttp.server").addFilter(_QuietBadRequests())


def _machine_names() -> set[str]:
    name = socket.gethostname().lower()
    return {"localhost", name, f"{name}.local"}


class ArbiterServer:
    """The page's aiohttp server, run on its own asyncio loop in a thread of its own."""

    def __init__(
        self,
        source: Source,
        settings: ArbiterSettings,
        *,
        host: str = "127.0.0.1",
        port: int = 8470,
        log_dir: Path | None = None,
        tournament: str = "",
        tournament_file: Path | None = None,
        signing_key: SigningKey | None = None,
        limits: PageLimits = PageLimits(),
        allowed_hosts: tuple[str, ...] = (),
        tournament_dir: Path | None = None,
        inbox: Any = None,
    ) -> None:
        self.source = source
        self.settings = settings
        #: The club key checks the tables' results (HMAC); the arbiter's own key signs commands.
        self.key = settings.key()
        self.signing_key = signing_key
        self.pins = ClientPins(settings)
        self.log_dir = log_dir
        self.tournament = tournament
        #: The tournament files (`companion tournament`): every standings, TRF, round sheet
        #: and the manual assignment of a pairing go through them.
        self.tournament_file = tournament_file
        from companion.tournament.desk import TournamentDesk

        self.desk = TournamentDesk(tournament_dir, [tournament_file] if tournament_file else [],
                                   public=None, signing=signing_key, inbox=inbox)
        self.host = host
        self.port = port
        self.limits = limits
        self.allowed_hosts = _machine_names() | {h.lower() for h in allowed_hosts} | {host}
        self.stopping = threading.Event()
        self.sessions = ArbiterSessions()
        self.budgets = ClientBudgets(limits.budgets(), self.sessions)
        self._secret = secrets.token_bytes(32)
        self._boards: dict[int, tuple[tuple[Any, ...], str]] = {}
        self._boards_lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self.guard: ConnectionGuard | None = None

    # ------------------------------------------------------------------ running

    def start(self) -> ArbiterServer:
        """Listen (raises :class:`OSError` when the address is taken) and serve in a thread."""
        self._thread = threading.Thread(target=self._run, name="arbiter-http", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._stopped = asyncio.Event()
        guard = self.guard = ConnectionGuard(self.limits.connections, self._loop, _secure)
        app = web.Application(client_max_size=self.limits.max_body, middlewares=[
            unexpected_errors(_secure), guard.middleware, self._headers, ascii_paths,
            self.budgets.middleware])
        app.router.add_get("/", self._page)
        app.router.add_get("/arbiter", self._page)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/stream", self._stream)
        app.router.add_get("/api/results", self._results)
        app.router.add_get("/board/{number}.svg", self._board)
        app.router.add_get("/standings.csv", self._standings)
        app.router.add_get("/results.trf", self._standings)
        app.router.add_get("/round/{number}.html", self._standings)
        app.router.add_get("/print/{kind}.html", self._standings)
        app.router.add_post("/api/command", self._command)
        app.router.add_get("/api/tournament", self._tournament)
        app.router.add_post("/api/pairing", self._pairing)
        app.router.add_post("/api/tournament/control", self._control)
        app.router.add_post("/api/session", self._sign_in)
        runner = web.AppRunner(
            app, access_log=None, handle_signals=False,
            keepalive_timeout=self.limits.connections.idle_timeout,
            max_line_size=4096, max_field_size=4096,
            lingering_time=2.0,  # the unread body of a refused request: 2 s, then close
        )
        await runner.setup()
        server = None
        try:
            assert runner.server is not None
            server = await self._loop.create_server(
                guard.factory(runner.server), self.host, self.port, backlog=512,
                reuse_address=True)
            self.port = int(server.sockets[0].getsockname()[1])
            guard.start()
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            await runner.cleanup()
            return
        self._ready.set()
        try:
            await self._stopped.wait()
        finally:
            guard.stop()
            server.close()
            for conn in list(guard.open.values()):
                conn.close()
            await runner.cleanup()
            # Connections closed a moment ago still have their protocol's task: end them here,
            # not as "Task was destroyed but it is pending" when the loop closes.
            left = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)

    def stop(self) -> None:
        self.stopping.set()
        with self.source.changed:
            self.source.changed.notify_all()
        if self._stopped is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stopped.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(10)

    def audit(self, what: str, **fields: Any) -> None:
        """Record a refused or accepted command (never the PIN)."""
        entry = {"wall": round(time.time(), 3), "what": what, **fields}
        log.warning("arbiter page: %s %s", what, fields)
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            with open(self.log_dir / "arbiter-log.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    # ------------------------------------------------------------------ every response

    def _host_allowed(self, host: str | None) -> bool:
        if not host:
            return False
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        name = name.strip("[]").lower()
        try:
            ipaddress.ip_address(name)
            return True  # an address: no DNS name to rebind
        except ValueError:
            return name in self.allowed_hosts

    @web.middleware
    async def _headers(
        self, request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        if not self._host_allowed(request.host):
            response: web.StreamResponse = _text(HTTPStatus.MISDIRECTED_REQUEST,
                                                 "unknown host name\n")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = _text(exc.status, f"{exc.reason}\n")
        if not response.prepared:
            _secure(response)
        return response

    # ------------------------------------------------------------------ CSRF

    def _csrf_token(self, cookie: str) -> str:
        return hmac.new(self._secret, cookie.encode(), hashlib.sha256).hexdigest()

    def _csrf_refusal(self, request: web.Request) -> Remark | None:
        """Why this POST is not the page's own (None: it is): English for the log, said in
        the arbiter's language for the page."""
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            return Remark(N_("cross-origin request refused (from {origin})"),
                          origin=origin[:80])
        fetch_site = request.headers.get("Sec-Fetch-Site")
        if fetch_site is not None and fetch_site not in ("same-origin", "none"):
            return Remark(N_("cross-site request refused"))
        cookie = request.cookies.get(CSRF_COOKIE, "")
        token = request.headers.get(CSRF_HEADER, "")
        if not cookie or not hmac.compare_digest(token, self._csrf_token(cookie)):
            return Remark(N_("missing or wrong CSRF token (reload the page)"))
        return None

    # ------------------------------------------------------------------ pages

    async def _page(self, request: web.Request) -> web.StreamResponse:
        cookie = request.cookies.get(CSRF_COOKIE, "")
        fresh = len(cookie) != 43
        if fresh:
            cookie = secrets.token_urlsafe(32)
        nonce = secrets.token_urlsafe(16)
        html = page(arbiter=request.path == "/arbiter", nonce=nonce,
                    csrf=self._csrf_token(cookie))
        response = web.Response(text=html, content_type="text/html", charset="utf-8")
        _secure(response, nonce)
        if fresh:
            response.set_cookie(CSRF_COOKIE, cookie, httponly=True, samesite="Strict",
                                path="/")
        return response

    async def _state(self, request: web.Request) -> web.StreamResponse:
        return _json(HTTPStatus.OK, self.source.snapshot())

    async def _results(self, request: web.Request) -> web.StreamResponse:
        return _json(HTTPStatus.OK, self.checked_results())

    async def _board(self, request: web.Request) -> web.StreamResponse:
        number = request.match_info["number"]
        svg = None
        if number.isdigit() and len(number) < 6:
            svg = await self._loop.run_in_executor(None, self.board, int(number))
        if svg is None:
            return _text(HTTPStatus.NOT_FOUND, "no board to draw for that table\n")
        return web.Response(body=svg.encode(), content_type="image/svg+xml")

    async def _standings(self, request: web.Request) -> web.StreamResponse:
        status, kind, text = await self._loop.run_in_executor(
            None, self.desk.export, request.path, dict(request.query))
        return web.Response(status=status, text=text, content_type=kind, charset="utf-8")

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        """A live stream (its share of streams is the budgets' to count): it ends after
        ``stream_idle_s``, or when a push has waited ``stream_stall_s`` for its client to read;
        the page's script opens the next one."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        _secure(response)
        await response.prepare(request)

        def gone() -> bool:  # the client closed its socket: its stream's place is free at once
            return request.transport is None or request.transport.is_closing()

        kept_up = await self._push(response, time.monotonic() + self.limits.stream_idle_s, gone)
        if not kept_up and request.transport is not None:
            request.transport.abort()  # a half-written push: nothing more can follow it
        return response

    async def _push(self, response: web.StreamResponse, until_s: float = float("inf"),
                    gone: Callable[[], bool] = lambda: False) -> bool:
        """The live stream: only the cards that changed (a record, a status, an answer), the
        cards whose clock ran out since (a glass or the 15-second timer: the card says when,
        ``next_change_s``), and every card once every :data:`FULL_EVERY_S` (the page runs the
        sand and timers on by itself in between), until ``until_s`` (monotonic) or until its
        client is ``gone``. False when a push waited over ``stream_stall_s`` for its client."""
        stall = self.limits.stream_stall_s

        async def send(data: bytes) -> None:
            async with asyncio.timeout(stall):
                await response.write(data)

        source = self.source
        changed_since = getattr(source, "changed_since", None)
        seen: dict[int, int] = {}
        due: dict[int, float] = {}
        last_full = 0.0
        try:
            await send(f"retry: {STREAM_RETRY_MS}\n\n".encode())
            while not self.stopping.is_set() and time.monotonic() < until_s and not gone():
                sent_version = source.version()
                now = time.monotonic()
                full = now - last_full >= FULL_EVERY_S
                also = {n for n, at in due.items() if at <= now}
                if changed_since is not None:
                    tables = changed_since(seen, full, also)
                else:
                    tables = [t for t in source.snapshot()["tables"]
                              if full or t["table"] in also
                              or t["version"] > seen.get(t["table"], -1)]
                if tables:
                    for t in tables:
                        seen[t["table"]] = t["version"]
                        change = t.get("next_change_s")
                        if isinstance(change, (int, float)) and change >= 0:
                            due[t["table"]] = now + float(change) + 0.05
                        else:
                            due.pop(t["table"], None)
                    data = json.dumps({"full": full, "tables": tables})
                    await send(f"data: {data}\n\n".encode())
                if full:
                    last_full = now
                await asyncio.sleep(PUSH_GAP_S)  # changes arriving meanwhile go out together
                until = min([last_full + FULL_EVERY_S, until_s, *due.values()])
                while (source.version() == sent_version and not self.stopping.is_set()
                       and time.monotonic() < until and not gone()):
                    await asyncio.sleep(PUSH_GAP_S)
        except TimeoutError:
            return False  # the client stopped reading
        except (ConnectionError, OSError, RuntimeError):
            pass  # the client went away
        return True

    # ------------------------------------------------------------------ commands

    async def _posted_json(self, request: web.Request) -> tuple[Any, web.StreamResponse | None]:
        """The JSON body of a command or a pairing, read under the page's guards (CSRF, content
        type, a declared and bounded length, a time limit), or the refusal to answer with."""
        why = self._csrf_refusal(request)
        if why is not None:
            self.audit("refused", reason=why, client=request.remote or "?")
            return None, _json(HTTPStatus.FORBIDDEN, {"ok": False, "detail": refusal_said(why)})
        if request.content_type != "application/json":
            return None, _json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                               {"ok": False, "detail": _("the body must be application/json")})
        length = request.content_length
        if length is None or length < 0:
            return None, _json(HTTPStatus.LENGTH_REQUIRED,
                               {"ok": False, "detail": _("a Content-Length is required")})
        if length > self.limits.max_body:
            return None, _json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                               {"ok": False, "detail": _("too large")})
        try:
            async with asyncio.timeout(self.limits.body_timeout_s):  # read already: budgets
                raw = await request.read()
        except TimeoutError:
            return None, _json(HTTPStatus.REQUEST_TIMEOUT,
                               {"ok": False, "detail": _("body too slow")})
        try:
            return jsonbody.parse(raw, max_size=self.limits.max_body,
                                  max_depth=self.limits.max_json_depth), None
        except jsonbody.BodyRefused as refused:
            return None, _json(refused.status, {"ok": False,
                                                "detail": page_answer_in_words(refused.detail)})

    async def _command(self, request: web.Request) -> web.StreamResponse:
        body, refusal = await self._posted_json(request)
        if refusal is not None:
            return refusal
        status, answer = await self.command(body, request.remote or "?")
        response = _json(status, answer)
        client = client_key(request.remote)
        if status == HTTPStatus.ACCEPTED and not self.sessions.of(request, client):
            self.sessions.give(response, client)  # the PIN was right: the browser's place
        return response

    async def _sign_in(self, request: web.Request) -> web.StreamResponse:
        """``{"pin": "...."}``: the arbiter's PIN (checked, with the lock-outs, as for a
        correction) gives this browser the arbiter's session (:mod:`.sessions`)."""
        body, refusal = await self._posted_json(request)
        if refusal is not None:
            return refusal
        pin = body.get("pin") if isinstance(body, dict) else None
        client = request.remote or "?"
        if not isinstance(pin, str) or not pin:
            return _json(HTTPStatus.UNAUTHORIZED,
                         {"ok": False,
                          "detail": _("refused: signing in needs the arbiter's PIN")})
        check = await self._loop.run_in_executor(None, self.pins.check, client, pin[:64])
        if not check.ok:
            self.audit("refused", reason=check.message, client=client)
            status = HTTPStatus.SERVICE_UNAVAILABLE if check.status == "disabled" else (
                HTTPStatus.TOO_MANY_REQUESTS if check.status == "locked" else HTTPStatus.FORBIDDEN
            )
            return _json(status, {"ok": False, "detail": refusal_said(check.message)})
        response = _json(HTTPStatus.OK, {"ok": True, "detail": _(
            "signed in: this browser keeps its place when the page is crowded")})
        self.sessions.give(response, client_key(request.remote))
        self.audit("signed in", client=client)
        return response

    async def _pairing(self, request: web.Request) -> web.StreamResponse:
        """The manual assignment of a pairing to a table (same checks as a correction)."""
        body, refusal = await self._posted_json(request)
        if refusal is not None:
            return refusal
        status, answer = await self.assign(body, request.remote or "?")
        return _json(status, answer)

    async def assign(self, body: Any, client: str) -> tuple[int, dict[str, Any]]:
        """Check the PIN and the pairing, then send it to its table, signed."""
        from companion.arbiter.pairing_desk import parse_pairing

        if not isinstance(body, dict) or not isinstance(body.get("pairing"), dict):
            return HTTPStatus.BAD_REQUEST, {"ok": False,
                                            "detail": _('give "pairing" (an object)')}
        pin = body.get("pin")
        if not isinstance(pin, str) or not pin:
            return HTTPStatus.UNAUTHORIZED, {"ok": False, "detail": _(
                "refused: a pairing needs the arbiter's PIN (spectators are read-only)")}
        check = await self._loop.run_in_executor(None, self.pins.check, client, pin[:64])
        if not check.ok:
            self.audit("refused", reason=check.message, client=client)
            return HTTPStatus.FORBIDDEN, {"ok": False, "detail": refusal_said(check.message)}
        send = getattr(self.source, "send_pairing", None)
        if self.signing_key is None or send is None:
            return HTTPStatus.SERVICE_UNAVAILABLE, {
                "ok": False,
                "detail": _("refused: no arbiter key on this laptop ([arbiter] key_file)")}
        try:
            pairing = parse_pairing(body["pairing"])
        except ValueError as exc:
            return HTTPStatus.BAD_REQUEST, {"ok": False, "detail": answer_in_words(exc)}
        status, why, sends = await self._loop.run_in_executor(None, self.desk.assign, pairing)
        if not sends:
            self.audit("refused", reason=why, pairing=vars(pairing), client=client)
            return status, {"ok": False, "detail": why}
        nonces = []
        for table, fields in sends:
            sent = send(table, fields, self.signing_key)
            nonces.append(sent["nonce"])
            self.audit("pairing sent", table=table, nonce=sent["nonce"], pairing=fields,
                       client=client)
        return HTTPStatus.ACCEPTED, {"ok": True, "nonce": nonces[0],
                                     "detail": _("sent to the table; its answer shows there")}

    async def _control(self, request: web.Request) -> web.StreamResponse:
        """One of the arbiter's tournament controls (the PIN checked as for a pairing)."""
        body, refusal = await self._posted_json(request)
        if refusal is not None:
            return refusal
        status, answer = await self.control(body, request.remote or "?")
        return _json(status, answer)

    async def control(self, body: Any, client: str) -> tuple[int, dict[str, Any]]:
        """Check the PIN, then make the control's record (:meth:`TournamentDesk.control`)."""
        if not isinstance(body, dict):
            return HTTPStatus.BAD_REQUEST, {"ok": False,
                                            "detail": _("a JSON object is expected")}
        pin = body.get("pin")
        if not isinstance(pin, str) or not pin:
            return HTTPStatus.UNAUTHORIZED, {"ok": False, "detail": _(
                "refused: the arbiter's controls need the PIN (spectators are read-only)")}
        check = await self._loop.run_in_executor(None, self.pins.check, client, pin[:64])
        if not check.ok:
            self.audit("refused", reason=check.message, client=client)
            locked = HTTPStatus.SERVICE_UNAVAILABLE if check.status == "disabled" else (
                HTTPStatus.TOO_MANY_REQUESTS if check.status == "locked" else HTTPStatus.FORBIDDEN
            )
            return locked, {"ok": False, "detail": refusal_said(check.message)}
        fields = {k: v for k, v in body.items() if k != "pin"}
        done: tuple[int, dict[str, Any]] = await self._loop.run_in_executor(
            None, self.desk.control, fields)
        status, answer = done
        self.audit("tournament control" if answer.get("ok") else "refused",
                   control=str(fields.get("control"))[:40], detail=answer.get("detail"),
                   client=client)
        return status, answer

    async def _tournament(self, request: web.Request) -> web.StreamResponse:
        return _json(HTTPStatus.OK, await self._loop.run_in_executor(None, self.desk.info))

    async def command(self, body: Any, client: str) -> tuple[int, dict[str, Any]]:
        """Check the arbiter's credentials and send the correction; (HTTP status, answer)."""
        if not isinstance(body, dict):
            return HTTPStatus.BAD_REQUEST, {"ok": False,
                                            "detail": _("a JSON object is expected")}
        table = body.get("table")
        pin = body.get("pin")
        correction = body.get("correction")
        if not isinstance(pin, str) or not pin:
            self.audit("refused", reason="no credentials", table=table, client=client)
            return HTTPStatus.UNAUTHORIZED, {
                "ok": False,
                "detail": _("refused: corrections need the arbiter's PIN "
                            "(spectators are read-only)"),
            }
        check = await self._loop.run_in_executor(None, self.pins.check, client, pin[:64])
        if not check.ok:
            self.audit("refused", reason=check.message, table=table, client=client)
            status = HTTPStatus.SERVICE_UNAVAILABLE if check.status == "disabled" else (
                HTTPStatus.TOO_MANY_REQUESTS if check.status == "locked" else HTTPStatus.FORBIDDEN
            )
            return status, {"ok": False, "detail": refusal_said(check.message)}
        if self.signing_key is None:
            self.audit("refused", reason="no arbiter key", table=table, client=client)
            return HTTPStatus.SERVICE_UNAVAILABLE, {
                "ok": False,
                "detail": _("refused: no arbiter key on this laptop ([arbiter] key_file)")}
        if isinstance(table, bool) or not isinstance(table, int) or not isinstance(
            correction, dict
        ):
            return HTTPStatus.BAD_REQUEST, {
                "ok": False,
                "detail": _('give "table" (a number) and "correction" (an object)')}
        if not str(correction.get("reason", "")).strip():
            return HTTPStatus.BAD_REQUEST, {"ok": False,
                                            "detail": _("a correction needs a reason")}
        try:
            sent = self.source.send_command(table, correction, self.signing_key)
        except LookupError as exc:
            return HTTPStatus.NOT_FOUND, {"ok": False, "detail": page_answer_in_words(exc)}
        self.audit("sent", table=table, nonce=sent["nonce"], correction=correction, client=client)
        return HTTPStatus.ACCEPTED, {"ok": True, "nonce": sent["nonce"],
                                     "detail": _("sent to the table; its answer shows there")}

    # ------------------------------------------------------------------ data

    def board(self, table: int) -> str | None:
        """Table ``table``'s board as SVG, or None when it has none to draw (no such table, a
        game whose board the page draws itself, no game yet). Drawn once per record: kept until
        the table's next one."""
        shown = next((t for t in self.source.snapshot()["tables"] if t["table"] == table), None)
        game = arbiter_for(shown.get("kind")) if shown is not None else None
        if shown is None or game is None:
            return None
        key = (shown.get("game"), shown.get("seq"))
        with self._boards_lock:
            cached = self._boards.get(table)
        if cached is not None and cached[0] == key:
            return cached[1]
        svg = game.board_svg(shown, label=_("table {table}, record {seq}").format(
            table=table, seq=shown.get("seq")))
        if svg is None:
            return None
        with self._boards_lock:
            self._boards[table] = (key, svg)
        return svg

    def checked_results(self) -> list[dict[str, Any]]:
        """The tables' published results (only enrolled tables' signed messages reach the
        view), with whether each result record's own signature holds."""
        out = []
        for record in self.source.results():
            bad = signing.check(record, self.key) if self.key is not None else "no club key"
            out.append({**record, "verified": bad is None, "problem": bad})
        return out


def _secure(response: web.StreamResponse, nonce: str | None = None) -> None:
    """The security headers (a CSP already set, with the page's script nonce, is kept)."""
    h = response.headers
    if nonce is not None or "Content-Security-Policy" not in h:
        h["Content-Security-Policy"] = content_security_policy(nonce)
    h["X-Content-Type-Options"] = "nosniff"
    h["X-Frame-Options"] = "DENY"
    h["Referrer-Policy"] = "no-referrer"
    h["Cross-Origin-Resource-Policy"] = "same-origin"
    h["Cache-Control"] = "no-store"
    h["Server"] = "companion-arbiter"  # not the library's name and version


def _json(status: int, obj: Any) -> web.Response:
    return web.Response(status=status, body=json.dumps(obj).encode(),
                        content_type="application/json")


def _text(status: int, text: str) -> web.Response:
    return web.Response(status=status, text=text, content_type="text/plain", charset="utf-8")


PAGE = r"""<!DOCTYPE html>
<html lang="__LANG__"><head><meta charset="utf-8"><title>[[companion: the tables]]</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="__CSRF__">
<style>
body { font-family: system-ui, sans-serif; margin: 0.5em; background: #f4f1ea; }
h1 { font-size: 1.2em; margin: 0.2em 0 0.5em; }
#tables { display: flex; flex-wrap: wrap; gap: 0.6em; }
.table { background: #fff; border: 2px solid #999; border-radius: 6px; padding: 0.4em;
         width: 260px; font-size: 12px; }
.table.offline { border-color: #b00; opacity: 0.7; }
.table.alerting { border-color: #e07000; }
.table.unverified { border-style: dashed; opacity: 0.6; }
.head { font-weight: bold; }
.alerts { color: #b00; min-height: 1.2em; }
.alerts div { margin: 1px 0; }
.glass-red { fill: #c22; } .glass-black { fill: #222; } .dead { fill: #aaa; }
.table.keypad { width: 340px; }
.table.keypad img.board { width: 100%; height: auto; display: block; margin: 2px 0; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border-radius: 50%;
          border: 1px solid #555; margin-right: 0.3em; vertical-align: -1px; }
form { background: #fff; border: 1px solid #999; padding: 0.5em; margin-bottom: 0.6em; }
form label { margin-right: 0.6em; }
#reply, #assigned { font-weight: bold; }
.hint { color: #555; font-size: 11px; }
.tournament { margin-bottom: 0.5em; } .tournament h2 { font-size: 1em; margin: 0.3em 0; }
.tround { font-weight: bold; margin-right: 1em; }
.pairings td { padding: 0 0.6em 0 0; font-size: 12px; } #recent { font-size: 11px; }
.seen { color: #b00; font-weight: bold; }
#correct fieldset { display: inline; border: 0; margin: 0; padding: 0; }
.answer.ok { color: #060; } .answer.refused { color: #b00; }
</style></head><body>
<h1><span id="tname">companion</span>: [[every table, live]] <span id="conn"></span></h1>
<div id="tournaments"></div>
<template id="tlinks">[[exports:]] <a data-link="csv">[[standings (CSV)]]</a> ·
 <a data-link="sheet">[[round sheet]]</a> · <a data-link="trf">TRF</a> · [[to print:]]
 <a data-link="pairings">[[pairing list]]</a> · <a data-link="results">[[result list]]</a> ·
 <a data-link="standings">[[standings]]</a><span data-link-of="crosstable"> ·
 <a data-link="crosstable">[[crosstable]]</a></span><span data-link-of="wallchart"> ·
 <a data-link="wallchart">[[wall chart]]</a></span></template>
<ul id="recent"></ul>
<form id="correct" hidden>
 <b>[[Correction]]</b> [[(the table journals it; its answer shows on its card)]]
 <label title="[[the table's number, as on its card]]">[[table]]
  <input name="table" type="number" min="1" value="1" size="3"></label>
 __FIELDS__
 <label title="[[why: kept in the table's journal with the correction]]">[[reason]]
  <input name="reason" size="24" value="[[arbiter's ruling]]"></label>
 <label title="[[the arbiter's PIN (wrong PINs lock this browser out for a while)]]">PIN
  <input name="pin" type="password" size="8" autocomplete="off"></label>
 <button>[[send]]</button>
 <button type="button" id="signin" title="[[the arbiter's PIN keeps this browser's place when
 the page is crowded (corrections still need the PIN)]]">[[sign in]]</button>
 <span id="reply"></span>
 <div class="hint">[[Each field's hint shows when the pointer rests on it; leave the fields
 the chosen correction does not use empty. The fields are the game of the chosen table's.]]</div>
</form>
<form id="assign" hidden>
 <b>[[Assign a pairing]]</b> [[(shown on the table's screen; the players start it with #)]]
 <label title="[[the tournament whose file pairs the game]]">[[tournament]]
  <select name="tournament"></select></label>
 <label title="[[the table that gets the pairing]]">[[board]] <input name="board" type="number"
  min="1" value="1" size="3"></label>
 <label title="[[the round number printed on the sheet]]">[[round]] <input name="round"
  type="number" min="1" value="1" size="3"></label>
 <label title="[[who moves first (the first seat)]]">[[first]]
  <input name="first" size="10"></label>
 <label title="[[who moves second]]">[[second]] <input name="second" size="10"></label>
 <label title="[[the game the table plays]]">[[game]] <input name="game" size="7"></label>
 <label>PIN <input name="pin" type="password" size="8" autocomplete="off"></label>
 <button>[[send]]</button> <span id="assigned"></span>
</form>
<form id="controls" hidden>
 <b>[[Tournament controls]]</b> [[(each a signed record of the tournament file)]]
 <label title="[[the tournament whose file the control changes]]">[[tournament]]
  <select name="tournament"></select></label>
 <label title="[[what to do]]">[[control]] <select name="control">
  <option value="pair">[[pair the next round]]</option>
  <option value="player">[[enter a player (late entry after round 1)]]</option>
  <option value="bye">[[requested bye]]</option>
  <option value="bye-cancel">[[cancel a requested bye]]</option>
  <option value="withdraw">[[withdraw]]</option>
  <option value="reinstate">[[reinstate]]</option>
  <option value="unpair">[[unpair the last round]]</option>
  <option value="swap">[[swap two players]]</option>
  <option value="colours">[[change a board's colours]]</option>
  <option value="pairs">[[manual pairing]]</option>
  <option value="lots">[[numbers by lot]]</option>
  <option value="settings">[[tie-breaks]]</option></select></label>
 <label title="[[a player's name or entry number (a new player's name)]]">[[player]]
  <input name="player" size="12"></label>
 <label title="[[the round (default: the next to pair)]]">[[round]]
  <input name="round" type="number" min="1" size="3"></label>
 <label title="[[a requested bye's points]]">[[points]] <select name="points">
  <option value="0.5">½</option><option value="0">0</option></select></label>
 <label title="[[swap: the other player]]">[[with]] <input name="b" size="10"></label>
 <label title="[[colours: the board]]">[[board]] <input name="board" type="number" min="1"
  size="3"></label>
 <label title="[[manual pairing: A-B,C-D (first mover first)]]">[[pairs]]
  <input name="pairs" size="16"></label>
 <label title="[[manual pairing: the pairing-allocated bye]]">[[bye]]
  <input name="bye" size="8"></label>
 <label title="[[the tie-breaks in order: BH-C1,BH,SB,DE,...]]">[[tie-breaks]]
  <input name="tiebreaks" size="16"></label>
 <label title="[[why: kept in the tournament file]]">[[reason]]
  <input name="why" size="16"></label>
 <label>PIN <input name="pin" type="password" size="8" autocomplete="off"></label>
 <button>[[do it]]</button> <span id="controlled"></span>
</form>
<div id="tables"></div>
<script nonce="__NONCE__">
const ARBITER = __ARBITER__;
const W = __WORDS__;  // the page's words in the arbiter's language (gettext, server-side)
function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}
const KIND_WORDS = {};  // a game's own words for its codes (KIND_WORDS[kind][code])
function word(key, kind) {  // a code the tables send (a colour, a status), as a word
  const own = Object.prototype.hasOwnProperty;
  const game = KIND_WORDS[kind] || {};
  return own.call(game, key) ? game[key] : own.call(W.words, key) ? W.words[key] : key;
}
const CARDS = {};  // each game's part of a table's card: CARDS[kind] = (box, t) => ...
const tables = {};
let updates = 0;
const params = new URLSearchParams(location.search);
function el(tag, attrs, text) {
  const e = document.createElementNS(tag === "svg" || ["circle","text","g"].includes(tag)
    ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml", tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
const COLOURS = {red: "#d22", yellow: "#e8c000", green: "#1a1", blue: "#26c"};
const pictures = {};
function named(t, p) {
  const n = (t.names || {})[p];
  return n && n !== p ? `${n} (${word(p, t.kind)})` : word(p, t.kind);
}
function picture(t) {
  // One <img> a table, fetched again only when its address (game and record) changes.
  let img = pictures[t.table];
  if (!img || img.dataset.src !== t.board) {
    img = el("img", {class: "board", src: t.board, "data-src": t.board, "data-kind": t.kind,
                     alt: fmt(W.board_alt, {table: t.table, kind: t.kind})});
    pictures[t.table] = img;
  }
  const link = el("a", {href: t.board, target: "_blank"});
  link.appendChild(img);
  return link;
}
function line(text, attrs, colour) {
  const d = el("div", attrs || {});
  if (colour) d.appendChild(el("span", {class: "swatch", style: `background: ${colour}`}));
  d.appendChild(document.createTextNode(text));
  return d;
}
function result(t) {
  const w = t.winner;
  const said = w === "tie" ? W.tie : (w ? fmt(W.wins, {player: word(w, t.kind)}) : W.stopped);
  return fmt(W.over, {result: said})
    + (t.reason ? ` (${word(t.reason)})` : "");
}
function keypadCard(box, t, lines) {
  // A keypad game's card: the board's picture, the game's lines, the records.
  box.classList.add("keypad");
  box.appendChild(picture(t));
  for (const line of lines) box.appendChild(line);
  box.appendChild(el("div", {}, fmt(W.records, {n: t.seq + 1})));
}
__GAMES__
function render(t) {
  let box = document.getElementById("table-" + t.table);
  if (!box) {
    box = el("div", {id: "table-" + t.table});
    const all = document.getElementById("tables");
    const after = [...all.children].find(c => +c.dataset.table > t.table);
    all.insertBefore(box, after || null);
  }
  box.dataset.table = t.table;
  box.dataset.seq = t.seq === undefined ? -1 : t.seq;
  const seen = new Set((box.dataset.seen || "").split(" ").filter(x => x));
  seen.add(String(box.dataset.seq));
  box.dataset.seen = [...seen].join(" ");
  box.className = "table" + (t.status === "offline" ? " offline" : "")
    + (t.verified === false ? " unverified" : "")
    + ((t.alerts || []).length ? " alerting" : "");
  box.replaceChildren();
  const names = t.names || {};
  const who = (t.players || []).length
    ? t.players.map(p => named(t, p)).join(" – ")
    : `${names.red || word("red")} – ${names.black || word("black")}`;
  box.appendChild(el("div", {class: "head"},
    fmt(W.head, {table: t.table, players: who, status: word(t.status)})));
  if (t.round) box.appendChild(el("div", {}, t.board_no
    ? fmt(W.round_board, {round: t.round, board: t.board_no}) : fmt(W.round, {round: t.round})));
  if (t.status === "offline") {
    // No running sand or clocks for a table that does not answer: when it was last heard.
    const at = t.last_seen ? new Date(t.last_seen * 1000).toLocaleTimeString(W.lang) : W.never;
    box.appendChild(el("div", {class: "seen"}, fmt(W.last_seen, {at})));
    box.classList.add("stale");
  }
  const card = CARDS[t.kind];
  if (card) card(box, t);
  for (const a of t.answers || []) {
    box.appendChild(el("div", {class: `answer ${a.ok ? "ok" : "refused"}`},
      fmt(a.pairing ? W.pairing_answer : W.correction_answer,
          {verdict: word(a.verdict), detail: a.detail})));
  }
  const alerts = el("div", {class: "alerts"});
  for (const a of t.alerts || []) alerts.appendChild(el("div", {"data-kind": a.kind}, a.text));
  box.appendChild(alerts);
}
function take(data) {
  updates += 1;
  document.body.dataset.updates = updates;
  for (const t of data.tables) { t._got = Date.now(); tables[t.table] = t; render(t); }
  pickFields();
}
// The correction form shows (and sends) the fields of the chosen table's game only.
function pickFields() {
  const correct = document.getElementById("correct");
  const kind = (tables[Number(correct.elements.table.value)] || {}).kind;
  const sets = [...correct.querySelectorAll("fieldset[data-kind]")];
  const chosen = sets.some(s => s.dataset.kind === kind) ? kind
    : (sets.length ? sets[0].dataset.kind : "");
  for (const s of sets) {
    const on = s.dataset.kind === chosen;
    if (s.disabled === on) { s.disabled = !on; s.hidden = !on; }
  }
  correct.dataset.kind = chosen;
}
// Between pushes (only changed cards come, and every card every few seconds) the page runs
// the clocks of the online tables on by itself: each game's card reads t._age.
setInterval(() => {
  for (const t of Object.values(tables)) {
    if (t.status === "offline" || t.over || !t._got) continue;
    t._age = (Date.now() - t._got) / 1000;
    render(t);
  }
}, 1000);
function poll() {
  fetch("/api/state").then(r => r.json()).then(take).catch(() => {})
    .finally(() => setTimeout(poll, 300));
}
// The page ends each live stream after a minute and the browser opens the next one by itself
// (the stream's "retry"); a stream refused (a crowded page: 503) the browser gives up on, so
// the page opens a new one after a growing, jittered wait. "(reconnecting)" shows only when
// no stream is back within two seconds.
let streamWait = 1000, quiet = null, streams = 0;
function live() {
  const source = new EventSource("/api/stream");
  source.onmessage = e => take(JSON.parse(e.data));
  source.onopen = () => {
    streams += 1;
    document.body.dataset.streams = streams;
    streamWait = 1000;
    clearTimeout(quiet);
    quiet = null;
    document.getElementById("conn").textContent = "";
  };
  source.onerror = () => {
    if (quiet === null) {
      quiet = setTimeout(() => {
        document.getElementById("conn").textContent = W.reconnecting;
      }, 2000);
    }
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(live, streamWait * (0.5 + Math.random()));
      streamWait = Math.min(streamWait * 2, 30000);
    }
  };
}
if (params.get("transport") === "poll" || !window.EventSource) {
  poll();
} else {
  live();
}
// Every tournament of the page under its own name (from its file): round, pairings, exports.
function tournament() {
  fetch("/api/tournament").then(r => r.json()).then(info => {
    const list = info.tournaments || [];
    document.getElementById("tname").textContent = list.length === 1 ? list[0].name
      : "companion";
    const box = document.getElementById("tournaments");
    box.replaceChildren();
    const choose = document.getElementById("assign").elements.tournament;
    const chosen = choose.value;
    choose.replaceChildren();
    const pick = document.getElementById("controls").elements.tournament;
    const picked = pick.value;
    pick.replaceChildren();
    for (const t of list) {
      const sec = el("section", {class: "tournament", "data-slug": t.slug});
      sec.appendChild(el("h2", {}, t.name));
      if (t.problem) sec.appendChild(el("div", {class: "seen"}, t.problem));
      if (t.round) sec.appendChild(el("span", {class: "tround"},
        fmt(W.round_of, {round: t.round, rounds: t.rounds})));
      if (t.links) {
        const nav = el("nav", {class: "links"});
        nav.appendChild(document.getElementById("tlinks").content.cloneNode(true));
        for (const s of nav.querySelectorAll("[data-link-of]"))
          if (!t.links[s.dataset.linkOf]) s.remove();  // a cross table or a wall chart
        for (const a of nav.querySelectorAll("a[data-link]")) a.href = t.links[a.dataset.link];
        sec.appendChild(nav);
      }
      const rows = el("table", {class: "pairings"});
      for (const p of t.pairings || []) {
        const tr = el("tr", {});
        tr.appendChild(el("td", {}, fmt(W.board_table, {board: p.board, table: p.table})));
        tr.appendChild(el("td", {}, `${p.first} – ${p.second}`));
        tr.appendChild(el("td", {}, p.text || ""));
        rows.appendChild(tr);
      }
      for (const b of t.byes || []) {
        rows.appendChild(el("tr", {})).appendChild(el("td", {colspan: "3"},
          fmt(W.bye, {player: b.player})));
      }
      for (const w of t.warnings || []) {  // what a manual pairing breaks (FIDE criteria)
        rows.appendChild(el("tr", {class: "warning"})).appendChild(el("td", {colspan: "3"},
          "⚠ " + w));
      }
      sec.appendChild(rows);
      box.appendChild(sec);
      choose.appendChild(el("option", {value: t.name}, t.name));
      pick.appendChild(el("option", {value: t.slug}, t.name));
    }
    if (chosen) choose.value = chosen;
    if (picked) pick.value = picked;
    const recent = document.getElementById("recent");
    recent.replaceChildren();
    for (const line of info.recent || []) recent.appendChild(el("li", {}, line));
  }).catch(() => {}).finally(() => setTimeout(tournament, 5000));
}
tournament();
const form = document.getElementById("correct");
form.hidden = !ARBITER;
form.elements.table.addEventListener("input", pickFields);
// ?table=N: the form opens on that table (a link from a table's card or a test).
if (/^[0-9]{1,4}$/.test(params.get("table") || "")) form.elements.table.value = params.get("table");
pickFields();
const assign = document.getElementById("assign");
assign.hidden = !ARBITER;
assign.addEventListener("submit", e => {
  e.preventDefault();
  const f = new FormData(assign);
  const pairing = {tournament: f.get("tournament"),
                   round: Number(f.get("round")), board: Number(f.get("board")),
                   first: f.get("first"), second: f.get("second"), game: f.get("game")};
  const token = document.querySelector('meta[name="csrf-token"]').content;
  fetch("/api/pairing", {method: "POST", credentials: "same-origin",
                         headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                         body: JSON.stringify({pairing, pin: f.get("pin")})})
    .then(r => r.json().then(j => {
      document.getElementById("assigned").textContent = `${r.status}: ${j.detail}`;
    }));
});
const controls = document.getElementById("controls");
controls.hidden = !ARBITER;
controls.addEventListener("submit", e => {
  e.preventDefault();
  const f = new FormData(controls);
  const body = {tournament: f.get("tournament"), control: f.get("control"),
                pin: f.get("pin"), why: f.get("why") || undefined};
  const player = f.get("player"), round = f.get("round");
  if (round) body.round = Number(round);
  if (body.control === "player") body.name = player;
  else if (body.control === "swap") { body.a = player; body.b = f.get("b"); }
  else if (["withdraw", "reinstate"].includes(body.control)) {
    body.player = player;
    if (round) body.from = Number(round);
  } else body.player = player;
  if (body.control === "bye") body.points = Number(f.get("points"));
  if (body.control === "colours") body.board = Number(f.get("board"));
  if (body.control === "pairs") { body.pairs = f.get("pairs"); body.bye = f.get("bye"); }
  if (body.control === "settings") {
    body.settings = {tiebreaks: (f.get("tiebreaks") || "").split(",").map(x => x.trim())
      .filter(x => x)};
  }
  const token = document.querySelector('meta[name="csrf-token"]').content;
  fetch("/api/tournament/control", {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
        body: JSON.stringify(body)})
    .then(r => r.json().then(j => {
      const shown = document.getElementById("controlled");
      shown.textContent = `${r.status}: ${j.detail}` + ((j.warnings || []).length
        ? " — " + j.warnings.join("; ") : "");
      shown.dataset.status = r.status;
    }));
});
function submit(withPin) {
  const f = new FormData(form);
  const correction = {what: f.get("what"), reason: f.get("reason")};
  for (const input of form.querySelectorAll("fieldset:enabled [data-field]")) {
    const value = f.get(input.name);
    if (!value) continue;
    const as = input.dataset.field;
    if (as === "cell") {  // a cell as the table's map names it: the table takes q and r
      const t = tables[Number(f.get("table"))] || {};
      const at = ((t[t.kind] || {}).cells || {})[value.trim().toLowerCase()];
      if (!at) {
        document.getElementById("reply").textContent = fmt(W.no_cell, {cell: value});
        return Promise.resolve();
      }
      [correction.q, correction.r] = at;
      continue;
    }
    try {
      correction[input.name] = as === "number" ? Number(value) : as === "flag" ? true
        : as === "json" ? JSON.parse(value) : value;
    } catch (err) {
      correction[input.name] = value;  // the table refuses it with the reason
    }
  }
  const body = {table: Number(f.get("table")), correction};
  if (withPin) body.pin = f.get("pin");
  const token = document.querySelector('meta[name="csrf-token"]').content;
  return fetch("/api/command", {method: "POST", credentials: "same-origin",
                                headers: {"Content-Type": "application/json",
                                          "X-CSRF-Token": token},
                                body: JSON.stringify(body)})
    .then(r => r.json().then(j => {
      const reply = document.getElementById("reply");
      reply.textContent = `${r.status}: ${j.detail}`;
      reply.dataset.status = r.status;
    }));
}
form.addEventListener("submit", e => { e.preventDefault(); submit(true); });
// Signing in: the PIN gives this browser the arbiter's reserved place on a crowded page.
document.getElementById("signin").addEventListener("click", () => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  fetch("/api/session", {method: "POST", credentials: "same-origin",
                         headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
                         body: JSON.stringify({pin: form.elements.pin.value})})
    .then(r => r.json().then(j => {
      const reply = document.getElementById("reply");
      reply.textContent = `${r.status}: ${j.detail}`;
      reply.dataset.status = r.status;
    }));
});
// A spectator's attempt, for the page's own check (?try=spectator): no PIN is sent.
if (params.get("try") === "spectator") setTimeout(() => submit(false), 200);
</script></body></html>
"""
