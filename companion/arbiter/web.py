"""`companion arbiter`: a local web page showing every table live, served by the companion.

Standard library only (``http.server.ThreadingHTTPServer``): the page is one HTML file with its
script inline, live updates are Server-Sent Events (one long GET per open page, a thread each),
and the audience is one arbiter and a few spectators on a club's LAN, so a framework would add a
dependency and nothing the page needs. The server binds 127.0.0.1 unless told otherwise.

Routes::

    GET  /                 the live page (spectators: read-only)
    GET  /arbiter          the same page with the correction form
    GET  /api/state        every table as JSON
    GET  /board/N.svg      table N's board as SVG, for a game whose arbiter facet draws one
                           (others are drawn by the page from the JSON, by the game's script)
    GET  /api/stream       Server-Sent Events: tables as they change, everything once a second
    POST /api/command      {"table": 3, "pin": "....", "correction": {...}}: the arbiter's PIN is
                           checked (hash, constant-time, lock-out) and the correction goes to
                           the table as a signed MQTT command; refused without credentials
    GET  /api/results      the signed results the tables published, each checked
    GET  /standings.csv    standings (points, margin, head-to-head)
    GET  /results.trf      FIDE TRF-16 player lines
    GET  /round/N.html     a printable round sheet

Every refused command is written to ``arbiter-log.jsonl`` in the log folder and to the log.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from companion import registry
from companion.arbiter import signing
from companion.arbiter.kinds import arbiter_for
from companion.arbiter.pin import PinLock
from companion.arbiter.settings import ArbiterSettings

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
PUSH_GAP_S = 0.02
FULL_EVERY_S = 1.0


class Source(Protocol):
    """Where the page's data comes from (an :class:`~companion.arbiter.client.ArbiterClient`)."""

    changed: threading.Condition

    def snapshot(self) -> dict[str, Any]: ...

    def version(self) -> int: ...

    def send_command(
        self, table: int, correction: Mapping[str, Any], key: bytes
    ) -> dict[str, Any]: ...

    def results(self) -> list[dict[str, Any]]: ...


def page(arbiter: bool) -> str:
    """The live page: the games' own card scripts and correction fields (each registered
    game's arbiter facet) in the shared page, with the correction form for the arbiter."""
    scripts, fields = [], []
    for name in registry.names():
        game = registry.get(name).arbiter()
        if game is not None:
            scripts.append(game.page_script())
            fields.append(game.correction_fields())
    out = PAGE.replace("__FIELDS__", "".join(fields)).replace("__GAMES__", "".join(scripts))
    return out.replace("__ARBITER__", "true" if arbiter else "false")


class ArbiterServer:
    """The page's HTTP server (``serve_forever`` in a thread of its own)."""

    def __init__(
        self,
        source: Source,
        settings: ArbiterSettings,
        *,
        host: str = "127.0.0.1",
        port: int = 8470,
        log_dir: Path | None = None,
        tournament: str = "",
    ) -> None:
        self.source = source
        self.settings = settings
        self.key = settings.key()
        self.lock = PinLock(
            settings.pin_hash, attempts=settings.pin_attempts, lockout_s=settings.pin_lockout_s
        )
        self.pin_mutex = threading.Lock()
        self.log_dir = log_dir
        self.tournament = tournament
        handler = type("Handler", (_Handler,), {"app": self})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()
        self._boards: dict[int, tuple[tuple[Any, ...], str]] = {}
        self._boards_lock = threading.Lock()

    def start(self) -> ArbiterServer:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="arbiter-http",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        with self.source.changed:
            self.source.changed.notify_all()
        self.httpd.shutdown()
        self.httpd.server_close()

    def audit(self, what: str, **fields: Any) -> None:
        """Record a refused or accepted command (never the PIN)."""
        entry = {"wall": round(time.time(), 3), "what": what, **fields}
        log.warning("arbiter page: %s %s", what, fields)
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            with open(self.log_dir / "arbiter-log.jsonl", "a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    # ------------------------------------------------------------------ commands

    def command(self, body: Any, client: str) -> tuple[int, dict[str, Any]]:
        """Check the arbiter's credentials and send the correction; (HTTP status, answer)."""
        if not isinstance(body, dict):
            return HTTPStatus.BAD_REQUEST, {"ok": False, "detail": "a JSON object is expected"}
        table = body.get("table")
        pin = body.get("pin")
        correction = body.get("correction")
        if not isinstance(pin, str) or not pin:
            self.audit("refused", reason="no credentials", table=table, client=client)
            return HTTPStatus.UNAUTHORIZED, {
                "ok": False,
                "detail": "refused: corrections need the arbiter's PIN (spectators are read-only)",
            }
        with self.pin_mutex:
            check = self.lock.check(pin, time.monotonic())
        if not check.ok:
            self.audit("refused", reason=check.message, table=table, client=client)
            status = HTTPStatus.SERVICE_UNAVAILABLE if check.status == "disabled" else (
                HTTPStatus.TOO_MANY_REQUESTS if check.status == "locked" else HTTPStatus.FORBIDDEN
            )
            return status, {"ok": False, "detail": f"refused: {check.message}"}
        if self.key is None:
            self.audit("refused", reason="no club key", table=table, client=client)
            return HTTPStatus.SERVICE_UNAVAILABLE, {
                "ok": False, "detail": "refused: no club key configured on the arbiter's laptop"}
        if isinstance(table, bool) or not isinstance(table, int) or not isinstance(
            correction, dict
        ):
            return HTTPStatus.BAD_REQUEST, {
                "ok": False, "detail": 'give "table" (a number) and "correction" (an object)'}
        if not str(correction.get("reason", "")).strip():
            return HTTPStatus.BAD_REQUEST, {"ok": False, "detail": "a correction needs a reason"}
        try:
            sent = self.source.send_command(table, correction, self.key)
        except LookupError as exc:
            return HTTPStatus.NOT_FOUND, {"ok": False, "detail": str(exc)}
        self.audit("sent", table=table, nonce=sent["nonce"], correction=correction, client=client)
        return HTTPStatus.ACCEPTED, {"ok": True, "nonce": sent["nonce"],
                                     "detail": "sent to the table; its answer shows there"}

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
        svg = game.board_svg(shown, label=f"table {table}, record {shown.get('seq')}")
        if svg is None:
            return None
        with self._boards_lock:
            self._boards[table] = (key, svg)
        return svg

    def checked_results(self) -> list[dict[str, Any]]:
        """The tables' published results, with whether each signature holds."""
        out = []
        for record in self.source.results():
            bad = signing.check(record, self.key) if self.key is not None else "no club key"
            out.append({**record, "verified": bad is None, "problem": bad})
        return out


class _Handler(BaseHTTPRequestHandler):
    app: ArbiterServer
    server_version = "companion-arbiter"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.client_address[0], *args)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json")

    def do_GET(self) -> None:
        path = urlparse(self.path).path
        if path in ("/", "/arbiter"):
            html = page(arbiter=path == "/arbiter")
            self._send(HTTPStatus.OK, html.encode(), "text/html; charset=utf-8")
        elif path == "/api/state":
            self._json(HTTPStatus.OK, self.app.source.snapshot())
        elif path == "/api/stream":
            self._stream()
        elif path.startswith("/board/") and path.endswith(".svg"):
            number = path[len("/board/") : -len(".svg")]
            svg = self.app.board(int(number)) if number.isdigit() else None
            if svg is None:
                self._send(HTTPStatus.NOT_FOUND, b"no board to draw for that table\n",
                           "text/plain")
            else:
                self._send(HTTPStatus.OK, svg.encode(), "image/svg+xml")
        elif path == "/api/results":
            self._json(HTTPStatus.OK, self.app.checked_results())
        elif path in ("/standings.csv", "/results.trf") or (
            path.startswith("/round/") and path.endswith(".html")
        ):
            self._standings(path)
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _standings(self, path: str) -> None:
        from companion.arbiter.standings import (
            StandingsError,
            pairing_from_result,
            round_sheet,
            standings,
            to_csv,
            to_trf,
        )

        pairings = []
        for record in self.app.checked_results():
            if not record["verified"]:
                continue
            try:
                pairings.append(pairing_from_result(record))
            except StandingsError:
                continue
        rows = standings(pairings)
        if path == "/standings.csv":
            self._send(HTTPStatus.OK, to_csv(rows).encode(), "text/csv; charset=utf-8")
        elif path == "/results.trf":
            text = to_trf(rows, tournament=self.app.tournament)
            self._send(HTTPStatus.OK, text.encode(), "text/plain; charset=utf-8")
        else:
            number = path[len("/round/") : -len(".html")]
            if not number.isdigit():
                self._send(HTTPStatus.NOT_FOUND, b"no such round\n", "text/plain")
                return
            page = round_sheet(pairings, rows, round_no=int(number),
                               tournament=self.app.tournament)
            self._send(HTTPStatus.OK, page.encode(), "text/html; charset=utf-8")

    def _stream(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        source = self.app.source
        seen: dict[int, int] = {}
        last_full = 0.0
        try:
            while not self.app.stopping.is_set():
                sent_version = source.version()
                snap = source.snapshot()
                now = time.monotonic()
                full = now - last_full >= FULL_EVERY_S
                tables = [
                    t for t in snap["tables"] if full or t["version"] > seen.get(t["table"], -1)
                ]
                if tables:
                    for t in tables:
                        seen[t["table"]] = t["version"]
                    data = json.dumps({"full": full, "tables": tables})
                    self.wfile.write(f"data: {data}\n\n".encode())
                    self.wfile.flush()
                if full:
                    last_full = now
                time.sleep(PUSH_GAP_S)  # changes arriving meanwhile go out together
                with source.changed:
                    if source.version() == sent_version:
                        source.changed.wait(max(0.0, last_full + FULL_EVERY_S - time.monotonic()))
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def do_POST(self) -> None:
        if urlparse(self.path).path != "/api/command":
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"ok": False, "detail": "too large"})
            return
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except (ValueError, UnicodeDecodeError):
            body = None
        status, answer = self.app.command(body, self.client_address[0])
        self._json(status, answer)


PAGE = r"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>companion: the tables</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: system-ui, sans-serif; margin: 0.5em; background: #f4f1ea; }
h1 { font-size: 1.2em; margin: 0.2em 0 0.5em; }
#tables { display: flex; flex-wrap: wrap; gap: 0.6em; }
.table { background: #fff; border: 2px solid #999; border-radius: 6px; padding: 0.4em;
         width: 260px; font-size: 12px; }
.table.offline { border-color: #b00; opacity: 0.7; }
.table.alerting { border-color: #e07000; }
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
#reply { font-weight: bold; }
</style></head><body>
<h1>companion: every table, live <span id="conn"></span></h1>
<form id="correct" hidden>
 <b>Correction</b> (the table journals it)
 <label>table <input name="table" type="number" min="1" value="1" size="3"></label>
 __FIELDS__
 <label>reason <input name="reason" size="24" value="arbiter's ruling"></label>
 <label>PIN <input name="pin" type="password" size="8" autocomplete="off"></label>
 <button>send</button> <span id="reply"></span>
</form>
<div id="tables"></div>
<script>
const ARBITER = __ARBITER__;
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
  return n && n !== p ? `${n} (${p})` : p;
}
function picture(t) {
  // One <img> a table, fetched again only when its address (game and record) changes.
  let img = pictures[t.table];
  if (!img || img.dataset.src !== t.board) {
    img = el("img", {class: "board", src: t.board, "data-src": t.board, "data-kind": t.kind,
                     alt: `table ${t.table}: the ${t.kind} board`});
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
  return `over: ${w === "tie" ? "a tie" : (w ? w + " wins" : "stopped")}`
    + (t.reason ? ` (${t.reason})` : "");
}
function keypadCard(box, t, lines) {
  // A keypad game's card: the board's picture, the game's lines, the records.
  box.classList.add("keypad");
  box.appendChild(picture(t));
  for (const line of lines) box.appendChild(line);
  box.appendChild(el("div", {}, `records: ${t.seq + 1}`));
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
    + ((t.alerts || []).length ? " alerting" : "");
  box.replaceChildren();
  const names = t.names || {};
  const who = (t.players || []).length
    ? t.players.map(p => named(t, p)).join(" – ")
    : `${names.red || "red"} – ${names.black || "black"}`;
  box.appendChild(el("div", {class: "head"}, `Table ${t.table}: ${who} (${t.status})`));
  const card = CARDS[t.kind];
  if (card) card(box, t);
  const alerts = el("div", {class: "alerts"});
  for (const a of t.alerts || []) alerts.appendChild(el("div", {"data-kind": a.kind}, a.text));
  box.appendChild(alerts);
}
function take(data) {
  updates += 1;
  document.body.dataset.updates = updates;
  for (const t of data.tables) { tables[t.table] = t; render(t); }
}
function poll() {
  fetch("/api/state").then(r => r.json()).then(take).catch(() => {})
    .finally(() => setTimeout(poll, 300));
}
if (params.get("transport") === "poll" || !window.EventSource) {
  poll();
} else {
  const source = new EventSource("/api/stream");
  source.onmessage = e => take(JSON.parse(e.data));
  source.onopen = () => { document.getElementById("conn").textContent = ""; };
  source.onerror = () => { document.getElementById("conn").textContent = "(reconnecting)"; };
}
const form = document.getElementById("correct");
form.hidden = !ARBITER;
function submit(withPin) {
  const f = new FormData(form);
  const correction = {what: f.get("what"), reason: f.get("reason")};
  for (const input of form.querySelectorAll("[data-field]")) {
    const value = f.get(input.name);
    if (value) correction[input.name] = input.dataset.field === "number" ? Number(value) : value;
  }
  const body = {table: Number(f.get("table")), correction};
  if (withPin) body.pin = f.get("pin");
  return fetch("/api/command", {method: "POST", headers: {"Content-Type": "application/json"},
                                body: JSON.stringify(body)})
    .then(r => r.json().then(j => {
      const reply = document.getElementById("reply");
      reply.textContent = `${r.status}: ${j.detail}`;
      reply.dataset.status = r.status;
    }));
}
form.addEventListener("submit", e => { e.preventDefault(); submit(true); });
// A spectator's attempt, for the page's own check (?try=spectator): no PIN is sent.
if (params.get("try") === "spectator") setTimeout(() => submit(false), 200);
</script></body></html>
"""
