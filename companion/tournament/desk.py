"""The tournaments on the arbiter's page: what it shows and exports, drawn from the files.

The page (:mod:`companion.arbiter.web`) asks this module for everything about tournaments, so
it shows exactly what the command line does: every tournament file of its folder (``--dir``)
and any given one (``--tournament-file``), each read and checked (:func:`companion.tournament.
store.read`: the chain and the arbiter's signatures) and ranked by the one standings function.

- ``GET /api/tournament``: every tournament under its name: the round, the pairings and byes,
  the links to its exports, and the inbox's last lines (results arrived over MQTT);
- ``GET /standings.csv``, ``/results.trf``, ``/round/N.html`` with ``?t=SLUG`` (the file's
  name without ``.tournament.jsonl``; not needed when the page shows one tournament): the
  standings CSV (:func:`companion.tournament.sheets.standings_csv`, the CLI's writer), the
  TRF (:mod:`companion.tournament.trf`), the round sheet with the standings after that round;
  ``/print/KIND.html?t=SLUG&round=N``: the printouts (:mod:`companion.tournament.printouts`);
- the arbiter's "Assign a pairing" (:meth:`TournamentDesk.assign`) goes through the file: the
  pairing must be one the file pairs in that round (players, who moves first, the game); sent
  to another table than the file's, while the round has no result, the file is paired again
  with that table (a signed ``repair`` record, ``via`` ``page``); anything else is refused;
- the arbiter's controls (:meth:`TournamentDesk.control`, ``POST /api/tournament/control``
  after the PIN): pair the next round, enter a player (a late entry once round 1 is paired),
  a requested bye and its cancellation, withdraw and reinstate, unpair the last round, a swap,
  a colour change or a whole manual pairing (warned of the FIDE criteria it breaks), lots for
  a round robin, the settings (tie-breaks until round 1): each a signed record made by
  :mod:`.controls` (the command line's own), ``via`` ``page``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from companion.i18n import _, say
from companion.keys import PublicKey, SigningKey
from companion.tournament import store
from companion.tournament.model import Tournament, TournamentError, name_key

CSV = "text/csv"
HTML = "text/html"
TEXT = "text/plain"


@dataclass
class Shown:
    """One tournament file as the page shows it (or why it cannot)."""

    path: Path
    tournament: Tournament | None
    problem: str = ""

    @property
    def slug(self) -> str:
        return self.path.name.removesuffix(store.SUFFIX)


Answer = tuple[int, str, str]  # HTTP status, content type, body


def printout_links(t: Tournament, slug: str) -> dict[str, str]:
    """The page's links to the printouts of the round in play: its pairing and result lists,
    the standings, and the cross table (a round robin) or the wall chart (a Swiss)."""
    number = len(t.played) or 1
    chart = "crosstable" if t.system == "round-robin" else "wallchart"
    return {kind: f"/print/{kind}.html?t={slug}&round={number}"
            for kind in ("pairings", "results", "standings", chart)}


def printout_page(t: Tournament, path: str, query: Mapping[str, str]) -> Answer:
    """``/print/KIND.html?round=N``: a printout of :mod:`companion.tournament.printouts`, in
    the page's language, dated today."""
    from datetime import date

    from companion.tournament import printouts

    kind = path[len("/print/"):-len(".html")] if path.endswith(".html") else ""
    number = query.get("round", "")
    if kind not in printouts.KINDS:
        return HTTPStatus.NOT_FOUND, TEXT, _("no such printout") + "\n"
    if number and (not number.isdigit() or len(number) > 4
                   or not 1 <= int(number) <= len(t.played)):
        return HTTPStatus.NOT_FOUND, TEXT, _("no such round") + "\n"
    shown = printouts.printout(t, kind, int(number) if number else None, printed=date.today())
    return HTTPStatus.OK, HTML, printouts.html_page(shown)


class TournamentDesk:
    """The page's tournaments: files in ``folder`` and the ``files`` given."""

    def __init__(
        self,
        folder: Path | None,
        files: Sequence[Path] = (),
        *,
        public: PublicKey | None,
        signing: SigningKey | None,
        inbox: Any = None,
    ) -> None:
        self.folder = folder
        self.files = [Path(f) for f in files]
        self.public = public if public is not None else (
            signing.public if signing is not None else None)
        self.signing = signing
        self.inbox = inbox
        self._cache: dict[Path, tuple[tuple[int, int], Shown]] = {}

    def paths(self) -> list[Path]:
        found = list(self.files)
        if self.folder is not None:
            found += [p for p in store.tournament_files(self.folder) if p not in found]
        return found

    def shown(self) -> list[Shown]:
        """Every tournament, read again when its file changed."""
        out = []
        for path in self.paths():
            try:
                st = path.stat()
                stamp = (st.st_mtime_ns, st.st_size)
            except OSError:
                stamp = (0, 0)
            cached = self._cache.get(path)
            if cached is not None and cached[0] == stamp:
                out.append(cached[1])
                continue
            item = self._load(path)
            self._cache[path] = (stamp, item)
            out.append(item)
        return out

    def _load(self, path: Path) -> Shown:
        if self.public is None:
            return Shown(path, None, _("no arbiter key on this laptop to check the tournament "
                                       "file with (companion keys init --arbiter)"))
        try:
            return Shown(path, store.load(path, self.public))
        except TournamentError as exc:
            return Shown(path, None, say(exc.message))

    # ------------------------------------------------------------------ what it shows

    def info(self) -> dict[str, Any]:
        """``/api/tournament``: every tournament, and (for one-tournament pages and older
        scripts) the first one's name, round and pairings at the top."""
        items = [self._info(s) for s in self.shown()]
        out: dict[str, Any] = {"tournaments": items, "name": "", "round": None,
                               "rounds": None, "game": None, "pairings": []}
        if items:
            first = items[0]
            out.update({k: first.get(k) for k in ("name", "round", "rounds", "game",
                                                  "pairings")})
        if self.inbox is not None:
            out["recent"] = list(self.inbox.notes)[-10:]
        return out

    def _info(self, s: Shown) -> dict[str, Any]:
        item: dict[str, Any] = {"slug": s.slug, "file": s.path.name, "problem": s.problem,
                                "name": s.slug, "pairings": [], "byes": [], "round": None,
                                "rounds": None, "game": None}
        t = s.tournament
        if t is None:
            return item
        r = t.current
        item.update(name=t.name, game=t.game, system=t.system, rounds=t.rounds,
                    round=r.number if r is not None else None,
                    links={"csv": f"/standings.csv?t={s.slug}",
                           "trf": f"/results.trf?t={s.slug}",
                           "sheet": f"/round/{r.number if r else 1}.html?t={s.slug}",
                           **printout_links(t, s.slug)})
        for g in r.games if r is not None else []:
            item["pairings"].append({
                "board": g.board, "table": g.table,
                "first": t.players[g.first].name, "second": t.players[g.second].name,
                "result": g.result.to_dict() if g.result is not None else None,
                "text": g.result.text() if g.result is not None else "",
            })
        for b in r.byes if r is not None else []:
            item["byes"].append({"player": t.players[b.player].name, "kind": b.kind})
        if r is not None:
            item.update(engine=r.engine, warnings=list(r.warnings),
                        withdrawn=[p.name for p in t.players.values() if p.withdrawn])
        return item

    def _pick(self, query: Mapping[str, str]) -> Shown | Answer:
        shown = self.shown()
        wanted = query.get("t")
        if not shown:
            return (HTTPStatus.NOT_FOUND, TEXT,
                    _("no tournament file on this page (--dir, --tournament-file)") + "\n")
        if wanted is None:
            if len(shown) > 1:
                names = ", ".join(f"?t={s.slug}" for s in shown)
                return (HTTPStatus.BAD_REQUEST, TEXT,
                        _("this page shows several tournaments: choose one ({names})")
                        .format(names=names) + "\n")
            return shown[0]
        found = next((s for s in shown if s.slug == wanted), None)
        if found is None:
            return HTTPStatus.NOT_FOUND, TEXT, _("no such tournament") + "\n"
        return found

    def export(self, path: str, query: Mapping[str, str]) -> Answer:
        """``/standings.csv``, ``/results.trf``, ``/round/N.html`` or ``/print/KIND.html``
        of one tournament."""
        from companion.tournament import sheets, trf
        from companion.tournament.standings import NoStandings, standings

        picked = self._pick(query)
        if not isinstance(picked, Shown):
            return picked
        t = picked.tournament
        if t is None:
            return HTTPStatus.CONFLICT, TEXT, picked.problem + "\n"
        try:
            if path == "/standings.csv":
                return HTTPStatus.OK, CSV, sheets.standings_csv(standings(t))
            if path == "/results.trf":
                return HTTPStatus.OK, TEXT, trf.to_trf(t)
            if path.startswith("/print/"):
                return printout_page(t, path, query)
            number = path[len("/round/"):-len(".html")]
            if not number.isdigit() or len(number) > 4 or not 1 <= int(number) <= len(
                    t.played):
                return HTTPStatus.NOT_FOUND, TEXT, _("no such round") + "\n"
            r = t.round(int(number))
            return HTTPStatus.OK, HTML, sheets.round_sheet(t, r, standings(t, after=r.number))
        except (TournamentError, NoStandings) as exc:
            message = exc.message if isinstance(exc, TournamentError) else str(exc)
            return HTTPStatus.CONFLICT, TEXT, say(message) + "\n"

    # ------------------------------------------------------------------ the arbiter's hand

    def assign(self, pairing: Any) -> tuple[int, str, list[tuple[int, dict[str, Any]]]]:
        """A pairing assigned on the page: (HTTP status, what to say, what to send where). It
        must be a game the tournament file pairs; a new table for it is written to the file."""
        from companion.tournament.send import pairing_bodies

        if self.signing is None:
            return (HTTPStatus.SERVICE_UNAVAILABLE,
                    _("refused: no arbiter key on this laptop ([arbiter] key_file)"), [])
        shown = next((s for s in self.shown() if s.tournament is not None
                      and name_key(s.tournament.name) == name_key(pairing.tournament)), None)
        if shown is None or shown.tournament is None:
            return (HTTPStatus.CONFLICT, _("refused: no tournament called {name} on this page")
                    .format(name=pairing.tournament), [])
        t = shown.tournament
        if t.game != pairing.game:
            return HTTPStatus.CONFLICT, _("refused: {name} plays {game}, not {other}").format(
                name=t.name, game=t.game, other=pairing.game), []
        if not 1 <= pairing.round <= len(t.played):
            return HTTPStatus.CONFLICT, _("refused: round {round} of {name} is not paired: pair "
                                          "it with `companion tournament pair`").format(
                round=pairing.round, name=t.name), []
        r = t.round(pairing.round)
        first, second = name_key(pairing.first), name_key(pairing.second)
        g = next((g for g in r.games if (name_key(t.players[g.first].name),
                                         name_key(t.players[g.second].name)) == (first, second)),
                 None)
        if g is None:
            swapped = any((name_key(t.players[x.first].name),
                           name_key(t.players[x.second].name)) == (second, first)
                          for x in r.games)
            why = (_("{name} moves first in round {round}").format(name=pairing.second,
                                                                   round=r.number) if swapped
                   else _("round {round} does not pair {first} - {second}").format(
                       round=r.number, first=pairing.first, second=pairing.second))
            return HTTPStatus.CONFLICT, _("refused: {why} (the tournament file)").format(
                why=why), []
        table = pairing.board  # the page's "board" field is the table that gets it
        if g.table != table:
            other = r.at_table(table)
            if other is not None:
                return HTTPStatus.CONFLICT, _("refused: table {table} plays board {board} in "
                                              "round {round}").format(
                    table=table, board=other.board, round=r.number), []
            if r.started:
                return HTTPStatus.CONFLICT, _("refused: round {round} has results: board "
                                              "{board} stays at table {table}").format(
                    round=r.number, board=g.board, table=g.table), []
            t = self._move(shown.path, r.number, g.board, table)
            r = t.round(pairing.round)
        return HTTPStatus.ACCEPTED, "", pairing_bodies(t, r, g.board)

    def control(self, body: Any) -> tuple[int, dict[str, Any]]:
        """One of the arbiter's controls from the page (the PIN checked by the caller):
        (HTTP status, the answer: ``ok``, ``detail``, the ``warnings`` of a manual pairing)."""
        if self.signing is None:
            return HTTPStatus.SERVICE_UNAVAILABLE, {
                "ok": False, "detail": _("refused: no arbiter key on this laptop "
                                         "([arbiter] key_file)")}
        if not isinstance(body, Mapping):
            return HTTPStatus.BAD_REQUEST, {"ok": False, "detail": _("refused: give an object")}
        picked = self._pick({"t": str(body["tournament"])[:200]}
                            if body.get("tournament") is not None else {})
        if not isinstance(picked, Shown):
            return picked[0], {"ok": False, "detail": picked[2].strip()}
        what = str(body.get("control", ""))[:40]
        if what not in CONTROLS:
            return HTTPStatus.BAD_REQUEST, {"ok": False, "detail": _(
                "refused: the control is one of {controls}").format(
                controls=", ".join(CONTROLS))}
        warned: list[Any] = []
        why = body.get("why")

        def make(t: Tournament) -> list[dict[str, Any]]:
            made = _control(t, what, body, warned)
            stamp = {"wall": round(time.time(), 3), "via": "page"}
            if isinstance(why, str) and why.strip():
                stamp["why"] = why.strip()[:300]
            return [{**r, **stamp} for r in made]

        try:
            t, _records = store.append(picked.path, self.signing, make)
        except (TournamentError, ValueError, TypeError, KeyError) as exc:
            message = exc.message if isinstance(exc, TournamentError) else str(exc)
            return HTTPStatus.CONFLICT, {"ok": False, "detail": _("refused: {why}").format(
                why=say(message))}
        self._cache.pop(picked.path, None)
        return HTTPStatus.OK, {"ok": True, "detail": say(t.trail[-1].what),
                               "warnings": [say(w) for w in warned]}

    def _move(self, path: Path, number: int, board: int, table: int) -> Tournament:
        """Pair the round again with board ``board`` at table ``table`` (signed, via the
        page)."""
        assert self.signing is not None

        def make(t: Tournament) -> list[dict[str, Any]]:
            body = t.round(number).to_dict()
            for game in body["games"]:
                if game["board"] == board:
                    game["table"] = table
            return [{"ev": "repair", **body, "wall": round(time.time(), 3), "via": "page",
                     "why": f"board {board} sent to table {table} on the page"}]

        t, _records = store.append(path, self.signing, make)
        self._cache.pop(path, None)
        return t


#: The controls the page offers (``control`` of ``POST /api/tournament/control``).
CONTROLS = ("pair", "player", "bye", "bye-cancel", "withdraw", "reinstate", "unpair", "swap",
            "colours", "pairs", "lots", "settings")


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise TournamentError(_("give {field}").format(field=key))
    return value[:200]


def _number(body: Mapping[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(_("{field} must be a whole number").format(field=key))
    return value


def _control(t: Tournament, what: str, body: Mapping[str, Any], warned: list[Any]
             ) -> list[dict[str, Any]]:
    """The records of one control from the page, made as the command line makes them."""
    from companion.tournament import controls, pairing

    if what == "pair":
        engine = body.get("engine") or ""
        return pairing.pair_records(t, str(engine)[:20])
    if what == "player":
        fields = {k: body[k] for k in ("name", "rating", "title", "sex", "federation",
                                       "fide_id", "birth", "club")
                  if body.get(k) not in (None, "")}
        return [controls.late_entry(t, fields, _number(body, "from"))]
    if what in ("bye", "bye-cancel"):
        who = t.find(_text(body, "player"))
        if what == "bye-cancel":
            return [controls.bye_cancel(t, who, _number(body, "round"))]
        points = body.get("points", 0.5)
        if points not in (0, 0.5):
            raise TournamentError(_("points must be 0.5 or 0"))
        return [controls.bye(t, who, _number(body, "round"), float(points))]
    if what in ("withdraw", "reinstate"):
        return [controls.withdraw(t, t.find(_text(body, "player")), _number(body, "from"),
                                  back=what == "reinstate")]
    if what == "unpair":
        return [controls.unpair(t)]
    if what == "lots":
        import secrets

        seed = body.get("seed") or secrets.token_hex(8)
        return [controls.lots(t, str(seed)[:64])]
    if what == "settings":
        changes = body.get("settings")
        if not isinstance(changes, Mapping):
            raise TournamentError(_("give settings (an object)"))
        return [controls.settings(changes)]
    if what == "swap":
        made, found = controls.swap(t, t.find(_text(body, "a")), t.find(_text(body, "b")))
    elif what == "colours":
        board = _number(body, "board")
        if board is None:
            raise TournamentError(_("give {field}").format(field="board"))
        made, found = controls.colours(t, board)
    else:
        bye_to = t.find(str(body["bye"])[:200]) if body.get("bye") else None
        made, found = controls.manual(t, controls.parse_pairs(t, _text(body, "pairs")), bye_to)
    warned[:] = found
    return [made]
