"""``companion tournament ...``: the arbiter's tournament, from the first player to the last
standings, every change a signed record of the tournament file.

::

    companion tournament new NAME --game KIND --system swiss|round-robin|swiss-simple --rounds N
                             [--tiebreaks BH-C1,BH,SB,DE,...] [--late-points 0|0.5]
                             [--max-byes N] [--bye-rounds-closed 4,5] [--double] ...
    companion tournament settings T [--tiebreaks ...] [--max-byes N] [--city C] ...
    companion tournament add-player T NAME [--rating R] [--club C] [--title T] [--sex m|w]
                                    [--federation F] [--fide-id N] [--birth D] [--from N]
    companion tournament withdraw T PLAYER [--from N]      reinstate T PLAYER [--from N]
    companion tournament bye T PLAYER [--round N] [--points 0.5|0]   bye-cancel T PLAYER
    companion tournament lots T [--seed S]                 (a round robin's numbers by lot)
    companion tournament pair T [--engine bbpPairings|javafo] [--engine-path P] [--send]
                                [--pairs "A-B,C-D" [--bye P]]   (by hand)
    companion tournament unpair T
    companion tournament repair T --swap A B | --colours BOARD | --pairs "A-B,C-D" [--bye P]
    companion tournament import-trf FILE --game KIND [--tiebreaks ...]
    companion tournament send T --round N [--board B]
    companion tournament result T --round R --board B 1-0|0-1|½-½|+-|-+|-- [--score A:B]
                                  [--reason R] [--replace WHY]
    companion tournament import T JOURNAL... [--replace WHY]
    companion tournament collect FOLDER
    companion tournament show T                history T               verify T
    companion tournament standings [T] [--journals J...] [--round N] [--csv F] [--html F]
                                       [--trf F]
    companion tournament sheet T [--round N] [--kind pairings|results|standings|crosstable|
                                 wallchart] [--html F]
    companion tournament upgrade OLD.tournament.json
    companion tournament correct JOURNAL --what W --reason R [--set K=V ...]   (asks the PIN)
    companion tournament demo [--out DIR]

``T`` is the tournament's name (its file ``NAME.tournament.jsonl`` in ``--dir``, default the
current folder: keep it beside the arbiter's journals) or the file itself. The file is signed
with the arbiter's key (``[arbiter] key_file`` of ``--config``, by default ``arbiter.key`` in
the arbiter's data folder, made on first use) and checked against its public key at every
reading (``--arbiter-key`` gives another). A refusal is one line on stderr: exit status 2 (bad
input) or 1 (what ``companion verify`` refuses: a forged file or journal); nothing is changed.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion import oserrors
from companion.i18n import _, say
from companion.keys import PublicKey, SigningKey
from companion.tournament.model import Tournament, TournamentError

PROG = "companion tournament"
#: What ``sheet --kind`` prints: the round sheet, and :data:`.printouts.KINDS` (not imported
#: here: the standings' modules would load with every command).
SHEETS = ("round", "pairings", "results", "standings", "crosstable", "wallchart")


def _print(text: str, *, err: bool = False) -> None:
    print(say(text), file=sys.stderr if err else sys.stdout, flush=True)


def _fail(message: str, code: int = 2) -> int:
    print(f"{PROG}: {say(message)}", file=sys.stderr)
    return code


# ---------------------------------------------------------------------------- keys and files


def _config(args: argparse.Namespace) -> dict[str, Any]:
    from companion import config as configuration

    try:
        return configuration.load(getattr(args, "config", None))
    except configuration.ConfigError as exc:
        raise TournamentError(_("config: {problem}").format(problem=exc)) from None


def arbiter_public(config: dict[str, Any], given: str | None = None) -> PublicKey:
    """The arbiter's public key: ``given`` (a file or a line), else this laptop's own."""
    from companion.arbiter.signing import arbiter_key_path
    from companion.keys import KeyFileError, public_path

    try:
        if given:
            return PublicKey.from_file_or_line(given)
        private = arbiter_key_path(config)
        pub = public_path(private)
        if pub.is_file():
            return PublicKey.from_file_or_line(str(pub))
        if private.is_file():
            return SigningKey.load(private).public
    except (KeyFileError, OSError) as exc:
        raise TournamentError(_("the arbiter's key: {problem}").format(problem=exc)) from None
    raise TournamentError(_("no arbiter key on this laptop ({path}): `companion keys init "
                            "--arbiter` makes it, or give --arbiter-key").format(path=private))


def arbiter_signing(config: dict[str, Any]) -> SigningKey:
    """The arbiter's own key pair (made on first use), which signs every change."""
    from companion.arbiter.signing import arbiter_key
    from companion.keys import KeyFileError

    try:
        return arbiter_key(config)
    except (KeyFileError, OSError) as exc:
        raise TournamentError(_("the arbiter's key: {problem}").format(problem=exc)) from None


def _path(args: argparse.Namespace, name: str | None = None) -> Path:
    from companion.tournament import store

    return store.path_for(name or args.tournament, args.dir)


def _read(args: argparse.Namespace, name: str | None = None) -> tuple[Tournament, Path]:
    from companion.tournament import store

    path = _path(args, name)
    store.not_version_1(path)
    done = store.read(path, arbiter_public(_config(args), _given_arbiter(args)))
    if done.note:
        _print(done.note, err=True)
    return done.tournament, path


def _given_arbiter(args: argparse.Namespace) -> str | None:
    given = getattr(args, "arbiter_key", None)
    if given is None and getattr(args, "key_is_arbiter", False):
        given = getattr(args, "key", None)
    return str(given) if given else None


def _write(args: argparse.Namespace, make: Callable[[Tournament], list[dict[str, Any]]],
           name: str | None = None) -> tuple[Tournament, list[dict[str, Any]]]:
    from companion.tournament import store

    key = arbiter_signing(_config(args))
    return store.append(_path(args, name), key, make)


def _stamp(record: dict[str, Any], why: str | None = None) -> dict[str, Any]:
    out = {**record, "wall": round(time.time(), 3), "via": "cli"}
    if why:
        out["why"] = why
    return out


def _journal_keys(args: argparse.Namespace) -> Any:
    from companion.keys import KeyFileError
    from companion.tournament.journals import keys_from

    table_key = None if getattr(args, "key_is_arbiter", False) else getattr(args, "key", None)
    try:
        keys = keys_from(_config(args), table_key, getattr(args, "keyring", None))
    except (KeyFileError, OSError) as exc:
        raise TournamentError(_("keys: {problem}").format(problem=exc)) from None
    if getattr(args, "arbiter_key", None):
        from dataclasses import replace

        keys = replace(keys, arbiter=(arbiter_public({}, args.arbiter_key),))
    return keys


# ---------------------------------------------------------------------------- players


def cmd_new(args: argparse.Namespace) -> int:
    from companion import registry
    from companion.tournament import store
    from companion.tournament.model import Settings, check_name, header
    from companion.tournament.standings import facet

    name = check_name(args.name, _("the tournament's name"))
    facet(args.game)  # a game without standings cannot hold a tournament
    registry.get(args.game)
    from companion.tournament.model import settings_from

    settings = settings_from(_setting_changes(args), Settings())
    path = store.path_for(name, args.dir)
    head = header(name, args.game, args.system, args.rounds, settings, round(time.time(), 3))
    store.create(path, head, arbiter_signing(_config(args)))
    print(path)
    return 0


def _setting_changes(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the options of ``new`` or ``settings`` give (only those given)."""
    out: dict[str, Any] = {}
    for key in ("bye_points", "late_points", "max_byes", "first_colour", "first_table",
                "rated_default", "city", "host_federation", "start_date", "end_date",
                "chief_arbiter", "time_control"):
        value = getattr(args, key, None)
        if value is not None:
            out[key] = int(value) if key == "late_points" and value == 0 else value
    if getattr(args, "double", None):
        out["double"] = True
    if getattr(args, "tiebreaks", None) is not None:
        out["tiebreaks"] = [c.strip() for c in args.tiebreaks.split(",") if c.strip()]
    if getattr(args, "bye_rounds_closed", None) is not None:
        out["bye_rounds_closed"] = _rounds(args.bye_rounds_closed)
    if getattr(args, "deputy", None):
        out["deputy_arbiters"] = list(args.deputy)
    return out


def _rounds(text: str) -> list[int]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not all(p.isdigit() for p in parts):
        raise TournamentError(_("give round numbers separated by commas (4,5), not {text}")
                              .format(text=text[:40]))
    return [int(p) for p in parts]


def cmd_settings(args: argparse.Namespace) -> int:
    from companion.tournament import controls

    changes = _setting_changes(args)

    def make(t: Tournament) -> list[dict[str, Any]]:
        return [_stamp(controls.settings(changes), args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    return 0


def cmd_add_player(args: argparse.Namespace) -> int:
    from companion.tournament import controls

    fields = {k: v for k, v in (("name", args.name), ("rating", args.rating),
                                ("club", args.club), ("title", args.title), ("sex", args.sex),
                                ("federation", args.federation), ("fide_id", args.fide_id),
                                ("birth", args.birth)) if v not in (None, "")}

    def make(t: Tournament) -> list[dict[str, Any]]:
        return [_stamp(controls.late_entry(t, fields, args.from_round), args.why)]

    t, _records = _write(args, make)
    p = t.players[len(t.players)]
    text = f"{p.id}. {p.name}" + (f" ({p.rating})" if p.rating else "") + (
        f", {p.club}" if p.club else "")
    if p.late_from is not None:
        text += " " + _("(a late entry: paired from round {round}; {points} for each round "
                        "missed)").format(round=p.late_from,
                                          points=f"{t.settings.late_points:g}")
    print(text)
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    from companion.tournament import controls

    def make(t: Tournament) -> list[dict[str, Any]]:
        return [_stamp(controls.withdraw(t, t.find(args.player), args.from_round,
                                         back=args.verb == "reinstate"), args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    return 0


def cmd_bye(args: argparse.Namespace) -> int:
    from companion.tournament import controls

    def make(t: Tournament) -> list[dict[str, Any]]:
        who = t.find(args.player)
        if args.verb == "bye-cancel":
            return [_stamp(controls.bye_cancel(t, who, args.round), args.why)]
        return [_stamp(controls.bye(t, who, args.round, args.points), args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    return 0


def cmd_unpair(args: argparse.Namespace) -> int:
    from companion.tournament import controls

    def make(t: Tournament) -> list[dict[str, Any]]:
        return [_stamp(controls.unpair(t), args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    return 0


def cmd_repair(args: argparse.Namespace) -> int:
    """A manual pairing, a swap or a colour change of the last round, with its warnings."""
    from companion.tournament import controls, sheets

    chosen = sum(x is not None for x in (args.swap, args.colours, args.pairs))
    if chosen != 1:
        raise TournamentError(_("give one of --swap A B, --colours BOARD or --pairs "
                                "\"A-B,C-D\""))
    found: list[Any] = []

    def make(t: Tournament) -> list[dict[str, Any]]:
        if args.swap is not None:
            body, warned = controls.swap(t, t.find(args.swap[0]), t.find(args.swap[1]))
        elif args.colours is not None:
            body, warned = controls.colours(t, args.colours)
        else:
            bye_to = t.find(args.bye) if args.bye else None
            body, warned = controls.manual(t, controls.parse_pairs(t, args.pairs), bye_to)
        found[:] = warned
        return [_stamp(body, args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    r = t.played[-1]
    for w in found:
        _print(_("warning: {text}").format(text=say(w)), err=True)
    print(sheets.pairings_text(t, r))
    return 0


def cmd_lots(args: argparse.Namespace) -> int:
    import secrets

    from companion.tournament import controls

    seed = args.seed or secrets.token_hex(8)

    def make(t: Tournament) -> list[dict[str, Any]]:
        return [_stamp(controls.lots(t, seed), args.why)]

    t, _records = _write(args, make)
    _print(t.trail[-1].what)
    for p in t.ranked():
        print(f"  {t.numbers[p.id]:3d}. {p.name}")
    return 0


def cmd_import_trf(args: argparse.Namespace) -> int:
    """A tournament file made from a TRF (Swiss Manager, Vega, this program): every player,
    number, round, result, bye and withdrawal a signed record (``via`` ``import-trf``)."""
    from companion import journal as journal_mod
    from companion import registry
    from companion.tournament import store, trf
    from companion.tournament.model import Settings, check_name, header, settings_from
    from companion.tournament.standings import facet

    facet(args.game)
    registry.get(args.game)
    source = Path(args.file)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise TournamentError(f"{args.file}: {oserrors.problem(exc)}") from None
    f = trf.read(data)
    if not f.history.players:
        raise TournamentError(_("{file}: no player (001 line) in it").format(file=args.file))
    name = check_name(args.name or f.header.name or source.stem, _("the tournament's name"))
    records = trf.import_records(f, args.game, source.name)
    changes = {**trf.settings_of(f), **_setting_changes(args),
               "max_byes": max(trf.max_byes(records), 1)}
    rounds = max(f.history.total_rounds, len(f.history.rounds), 1)
    head = header(name, args.game, "swiss", rounds, settings_from(changes, Settings()),
                  round(time.time(), 3))
    path = store.path_for(name, args.dir)
    if path.exists():
        raise TournamentError(_("{file} exists already").format(file=path))
    key = arbiter_signing(_config(args))
    wall = round(time.time(), 3)
    stamped = [{**r, "wall": wall, "via": "import-trf"} for r in records]
    from companion.tournament.model import fold
    from companion.tournament.outcome import judge

    fold(head, enumerate(stamped, start=2), judge=judge(args.game))  # all or nothing
    writer = journal_mod.JournalWriter.create(path, head, signer=key)
    try:
        for r in stamped:
            writer.append(r)
    finally:
        writer.close()
    t, _path_ = _read(args, str(path))
    print(path)
    print(_("{name}: {players} players, {rounds} of {total} rounds imported from {file}").format(
        name=t.name, players=len(t.players), rounds=len(t.played), total=t.rounds,
        file=source.name))
    for problem in f.problems():
        _print(_("{file}: {problem}").format(file=source.name, problem=say(problem)), err=True)
    return 0


# ---------------------------------------------------------------------------- rounds


def cmd_pair(args: argparse.Namespace) -> int:
    from companion.tournament import controls, pairing, sheets

    found: list[Any] = []
    if args.pairs is None and args.bye is not None:
        raise TournamentError(_("--bye goes with --pairs"))

    def make(t: Tournament) -> list[dict[str, Any]]:
        if args.pairs is not None:
            if args.engine:
                raise TournamentError(_("--pairs pairs by hand: no --engine with it"))
            bye_to = t.find(args.bye) if args.bye else None
            made, warned = controls.manual_next(t, controls.parse_pairs(t, args.pairs), bye_to)
            found[:] = warned
            return [_stamp(r, args.why) for r in made]
        return [_stamp(r) for r in pairing.pair_records(t, args.engine or "",
                                                        engine_path=args.engine_path)]

    t, _records = _write(args, make)
    r = t.played[-1]
    for w in found:
        _print(_("warning: {text}").format(text=say(w)), err=True)
    print(sheets.pairings_text(t, r))
    if args.send:
        return _send(args, t, r.number, None)
    return 0


def _send(args: argparse.Namespace, t: Tournament, number: int, board: int | None) -> int:
    """Send round ``number``'s pairings (one board's) to the tables; print their answers."""
    from companion.arbiter.mqtt import MqttMissing
    from companion.arbiter.settings import mqtt_settings
    from companion.tournament.send import pairing_bodies, send_pairings

    config = _config(args)
    again = _("send it again with `companion tournament send {name!r} --round {round}`").format(
        name=t.name, round=number)
    try:
        key = arbiter_signing(config)
        bodies = pairing_bodies(t, t.round(number), board)
        if not bodies:
            raise TournamentError(_("round {round} has no game to send").format(round=number))
        answers = send_pairings(mqtt_settings(config), key, bodies, wait_s=args.wait)
    except (MqttMissing, OSError, TournamentError) as exc:
        text = exc.message if isinstance(exc, TournamentError) else oserrors.problem(exc)
        return _fail(_("round {round} is saved but not sent ({problem}): {again}").format(
            round=number, problem=say(text), again=again), 1)
    for sent in answers:
        print(sent.line())
    if all(s.answer is not None and s.answer.get("ok") for s in answers):
        return 0
    print(_("a table did not take its pairing: {again}").format(again=again))
    return 1


def cmd_send(args: argparse.Namespace) -> int:
    t, _path_ = _read(args)
    return _send(args, t, args.round, args.board)


# ---------------------------------------------------------------------------- results


def cmd_result(args: argparse.Namespace) -> int:
    from companion.tournament import outcome
    from companion.tournament.intake import record_result
    from companion.tournament.model import Source

    t, path = _read(args)
    r = t.round(args.round)
    if args.table is not None:
        g = r.at_table(args.table)
        if g is None:
            raise TournamentError(_("round {round} has no game at table {table}").format(
                round=args.round, table=args.table))
        board = g.board
    elif args.board is not None:
        board = t.game_at(args.round, args.board).board
    else:
        raise TournamentError(_("give --board B (or --table N)"))
    result = outcome.from_typed(t.game, args.result.lstrip("\0"), args.score, args.reason)
    done = record_result(path, arbiter_signing(_config(args)), args.round, board, result,
                         Source("arbiter"), via="cli", replace_why=args.replace)
    _print(done.line, err=done.code != 0)
    return done.code


def _record_journals(args: argparse.Namespace, files: Sequence[Path],
                     tournaments: Sequence[Tournament], only: Tournament | None,
                     paths: dict[str, Path], via: str, keep: Path | None = None) -> int:
    """Check each journal and record the good ones; one line each; the worst exit status."""
    from companion.tournament.intake import record_checked
    from companion.tournament.journals import OK, check_journal
    from companion.tournament.model import name_key

    keys = _journal_keys(args)
    key = arbiter_signing(_config(args))
    code = 0
    recorded = 0
    for f in files:
        checked = check_journal(f, keys, tournaments, only=only)
        if checked.status == OK and keep is not None:
            checked = check_journal(_keep(f, keep), keys, tournaments, only=only)
        if checked.status != OK:
            _print(checked.line, err=True)
            code = max(code, checked.exit_code)
            continue
        assert checked.tournament is not None
        done = record_checked(paths[name_key(checked.tournament.name)], key, checked, via=via,
                              replace_why=getattr(args, "replace", None))
        _print(f"{checked.path.name}: {say(done.line)}", err=done.code != 0)
        recorded += int(done.written)
        code = max(code, done.code)
    print(_("{n} result(s) recorded").format(n=recorded))
    return code


def _keep(journal: Path, folder: Path) -> Path:
    """The journal copied into the arbiter's journals folder (once; a different file of the
    same name gets another name)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = journal.read_bytes()
    for kept in sorted(folder.glob("*.jsonl")):  # the same journal kept already (over MQTT)
        if kept.stat().st_size == len(data) and kept.read_bytes() == data:
            return kept
    stem, n = journal.stem, 1
    while True:
        target = folder / (journal.name if n == 1 else f"{stem}-{n}.jsonl")
        if not target.exists():
            shutil.copyfile(journal, target)
            return target
        if target.resolve() == journal.resolve() or target.read_bytes() == data:
            return target
        n += 1


def cmd_import(args: argparse.Namespace) -> int:
    from companion.tournament.model import name_key

    t, path = _read(args)
    from companion.tournament.journals import journal_files

    return _record_journals(args, journal_files(args.journals), [t], t,
                            {name_key(t.name): path}, "cli")


def _all_tournaments(args: argparse.Namespace) -> list[tuple[Tournament, Path]]:
    from companion.tournament import store

    out = []
    for path in store.tournament_files(args.dir):
        out.append(_read(args, str(path)))
    return out


def cmd_collect(args: argparse.Namespace) -> int:
    from companion.tournament.journals import journal_files
    from companion.tournament.model import name_key

    found = _all_tournaments(args)
    if not found:
        raise TournamentError(_("no tournament file in {dir}").format(dir=args.dir))
    files = journal_files(args.folders)
    if not files:
        raise TournamentError(_("no journal in {folder}").format(folder=" ".join(args.folders)))
    return _record_journals(args, files, [t for t, _ in found], None,
                            {name_key(t.name): p for t, p in found}, "collect",
                            keep=Path(args.dir) / "journals")


# ---------------------------------------------------------------------------- showing


def cmd_show(args: argparse.Namespace) -> int:
    from companion import registry
    from companion.tournament import printouts, sheets

    t, _path_ = _read(args)
    print(_("{name}: {game}, {system}, {paired} of {rounds} rounds paired").format(
        name=t.name, game=registry.get(t.game).title, system=printouts.system_words(t),
        paired=len(t.played), rounds=t.rounds))
    numbers = t.start_numbers()
    for p in t.ranked():
        extra = ", ".join(x for x in (str(p.rating) if p.rating else "", p.title, p.club,
                                      _("withdrawn") if p.withdrawn else "") if x)
        print(f"  {numbers[p.id]:3d}. {p.name}" + (f" ({extra})" if extra else ""))
    for r in t.played:
        print(sheets.pairings_text(t, r))
    return 0


def _journal_results(args: argparse.Namespace, t: Tournament, files: Sequence[Path]
                     ) -> tuple[dict[tuple[int, int], Any], int]:
    """The results the given journals give for ``t``'s games (verified), and the worst exit
    status; a line for each journal not counted and each game the file has otherwise."""
    from companion.tournament.journals import OK, check_journal

    keys = _journal_keys(args)
    results: dict[tuple[int, int], Any] = {}
    code = 0
    for f in files:
        checked = check_journal(f, keys, only=t)
        if checked.status != OK:
            _print(checked.line, err=True)
            code = max(code, checked.exit_code)
            continue
        assert checked.round is not None and checked.board is not None
        results[(checked.round, checked.board)] = checked.result
    for r in t.played:
        for g in r.games:
            got = results.get((r.number, g.board))
            if got is None and g.result is not None:
                _print(_("{name}: round {round} board {board}: no journal given: the file's "
                         "{result} (from {source}) is counted").format(
                    name=t.name, round=r.number, board=g.board, result=g.result.text(),
                    source=say(g.source.text()) if g.source else "?"), err=True)
            elif got is not None and g.result is not None and got != g.result:
                _print(_("{name}: round {round} board {board}: the file has {file}, the "
                         "journal {journal}").format(name=t.name, round=r.number,
                                                     board=g.board, file=g.result.text(),
                                                     journal=got.text()), err=True)
    return results, code


def cmd_standings(args: argparse.Namespace) -> int:
    from companion.tournament import sheets, trf
    from companion.tournament.journals import journal_files
    from companion.tournament.model import name_key
    from companion.tournament.standings import standings

    files = journal_files(args.journals) if args.journals else []
    if args.tournament:
        chosen = [_read(args)[0]]
    elif args.journals:
        chosen = _tournaments_of(args, files)
    else:
        raise TournamentError(_("give a tournament or --journals"))
    if len(chosen) > 1 and (args.csv or args.html or args.trf):
        raise TournamentError(_("these journals are of {n} tournaments: name one to write "
                                "--csv, --html or --trf").format(n=len(chosen)))
    code = 0
    for t in chosen:
        results = None
        if args.journals:
            mine = files if args.tournament else [
                f for f in files if _named(f) in (None, name_key(t.name))]
            results, worst = _journal_results(args, t, mine)
            code = max(code, worst)
        table = standings(t, after=args.round, results=results)
        if args.csv:
            Path(args.csv).write_text(sheets.standings_csv(table), encoding="utf-8")
        if args.html:
            Path(args.html).write_text(sheets.standings_html(table), encoding="utf-8")
        if args.trf:
            text = trf.to_trf(t, {row.id: row.rank for row in table.rows})
            Path(args.trf).write_text(text, encoding="utf-8", newline="")
        if len(chosen) > 1 or args.journals:
            print(_("{name}: standings after round {round}").format(name=t.name,
                                                                    round=table.after))
        print(sheets.standings_text(table))
        if len(chosen) > 1:
            print()
    return code


def _named(journal: Path) -> str | None:
    """The tournament a journal's header names (casefolded), None when it cannot be read."""
    import json

    from companion.tournament.model import name_key

    try:
        with open(journal, "rb") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    name = header.get("tournament") if isinstance(header, dict) else None
    return name_key(name) if isinstance(name, str) else ""


def _tournaments_of(args: argparse.Namespace, files: Sequence[Path]) -> list[Tournament]:
    """The tournaments (kept in ``--dir``) the journals' headers name, in file order; a line
    for each journal naming none kept here."""
    from companion.tournament import store
    from companion.tournament.model import name_key

    by_name = {name_key(t.name): t for t, _ in _all_tournaments(args)}
    out: list[Tournament] = []
    for f in files:
        named = _named(f)
        t = by_name.get(named or "")
        if t is None:
            _print((_("{file}: skipped: a game of no tournament kept in {dir}") if named else
                    _("{file}: skipped: not a tournament game (its header names no tournament)"))
                   .format(file=f.name, dir=args.dir), err=True)
            continue
        if t not in out:
            out.append(t)
    if not out:
        raise TournamentError(_("none of these journals is a game of a tournament kept in "
                                "{dir} ({suffix} files)").format(dir=args.dir,
                                                                 suffix=store.SUFFIX))
    return out


def cmd_sheet(args: argparse.Namespace) -> int:
    """A printout (:mod:`.printouts`), or the round sheet (:func:`.sheets.round_sheet`): as
    HTML ready to print with ``--html``, else as text."""
    from datetime import date

    from companion.tournament import printouts, sheets
    from companion.tournament.standings import standings

    t, _path_ = _read(args)
    if not t.played:
        raise TournamentError(_("no round is paired yet"))
    if args.kind == "round":
        r = t.round(args.round or len(t.played))
        table = standings(t, after=r.number)
        if not args.html:
            print(sheets.pairings_text(t, r) + "\n\n" + _("Standings after round {round}")
                  .format(round=table.after) + "\n" + sheets.standings_text(table))
            return 0
        page = sheets.round_sheet(t, r, table)
    else:
        shown = printouts.printout(t, args.kind, args.round, printed=date.today())
        if not args.html:
            print(printouts.text(shown), end="")
            return 0
        page = printouts.html_page(shown)
    Path(args.html).write_text(page, encoding="utf-8")
    print(args.html)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from companion.tournament.history import trail_lines

    t, _path_ = _read(args)
    for line in trail_lines(t):
        print(line)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from companion.tournament.history import verify_report

    text, code = verify_report(_path(args), arbiter_public(_config(args), _given_arbiter(args)),
                               _journal_keys(args), Path(args.dir))
    print(text)
    return code


def cmd_upgrade(args: argparse.Namespace) -> int:
    from companion.tournament.upgrade import upgrade

    out = upgrade(Path(args.old), Path(args.dir), arbiter_signing(_config(args)),
                  round(time.time(), 3))
    print(out)
    return 0


def cmd_correct(args: argparse.Namespace) -> int:
    """An arbiter's correction appended to a finished game's journal, after his PIN."""
    from companion.arbiter.settings import arbiter_settings
    from companion.config import ConfigError, load
    from companion.tournament.correct import check_pin, correct, parse_fields

    try:
        settings = arbiter_settings(load(args.config))
    except (ConfigError, ValueError) as exc:
        raise TournamentError(f"config: {exc}") from None
    if not settings.pin_hash:
        raise TournamentError("no [arbiter] pin_hash in the configuration: corrections "
                              "need the arbiter's PIN")
    if args.pin_stdin:
        pin = sys.stdin.readline().strip()
    else:
        import getpass

        pin = getpass.getpass("arbiter PIN: ")
    check_pin(pin, settings.pin_hash)
    key = arbiter_signing(load(args.config))
    print(correct(args.journal, args.what, args.reason, parse_fields(args.set or []), key))
    return 0


def _guard(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    from companion.tournament.standings import NoStandings

    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except TournamentError as exc:
            return _fail(exc.message, int(getattr(exc, "exit_code", 2)))
        except NoStandings as exc:
            return _fail(str(exc))
        except BrokenPipeError:
            raise  # `companion tournament standings T | head`: ended quietly by the CLI
        except OSError as exc:
            return _fail(f"{exc.filename or ''}: {oserrors.problem(exc)}")
    return run


# ---------------------------------------------------------------------------- the parser

#: Results that start with "-" (argparse would take them for options) or are "--".
_DASHED = ("-+", "--", "−+", "–+")


class _ResultParser(argparse.ArgumentParser):
    """``tournament result``'s parser: ``-+`` and ``--`` are results, typed as the score
    sheets write them (argparse would take the one for an option and the other for the end
    of the options)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> Any:
        if args is not None:
            args = list(args)
            for i, a in enumerate(args):
                nxt = args[i + 1] if i + 1 < len(args) else None
                if a in _DASHED and (a != "--" or nxt is None or nxt.startswith("--")):
                    args[i] = "\0" + a
        return super().parse_known_args(args, namespace)


def settings_options(v: Any, *, new: bool) -> None:
    """The settings' options (``new`` and ``settings``)."""
    from companion.tournament.fide.tiebreaks import CODES

    v.add_argument("--tiebreaks", help=_(
        "the tie-breaks in order, comma separated: {codes}, game:<column> (default: the "
        "game's own columns)").format(codes=", ".join(CODES)))
    v.add_argument("--bye-points", type=float, choices=(0.0, 0.5, 1.0),
                   help=_("the pairing-allocated bye's points (default 1)"))
    v.add_argument("--late-points", type=float, choices=(0.0, 0.5),
                   help=_("what a late entrant scores for each round he missed (default 0)"))
    v.add_argument("--max-byes", type=int, help=_("requested byes a player may take (default 1)"))
    v.add_argument("--bye-rounds-closed", help=_("rounds without requested byes (4,5)"))
    v.add_argument("--first-table", type=int,
                   help=_("the table that plays board 1 (board b: table FIRST + b - 1)"))
    v.add_argument("--first-colour", choices=("white", "black"),
                   help=_("the colour of the top-ranked player in round 1 (default white)"))
    v.add_argument("--rated-default", type=int,
                   help=_("the rating that stands for the unrated (default 0)"))
    if new:
        v.add_argument("--double", action="store_true",
                       help=_("a double round robin (each pair twice, colours reversed)"))
    for option, help_ in (("--city", "022"), ("--host-federation", "032"),
                          ("--start-date", "042, YYYY/MM/DD"), ("--end-date", "052"),
                          ("--chief-arbiter", "102"), ("--time-control", "122")):
        v.add_argument(option, help=_("the TRF's line {line}").format(line=help_))
    v.add_argument("--deputy", action="append", help=_("a deputy arbiter (TRF 112; repeat)"))


def add_commands(sub: Any) -> None:
    """Add ``tournament`` to the ``companion`` command's subparsers."""
    from companion import registry
    from companion.tournament.model import SYSTEMS

    p = sub.add_parser("tournament", help=_("a club tournament: players, pairings, standings"))
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)

    def verb(name: str, func: Callable[[argparse.Namespace], int], help_: str, *,
             tournament: bool = True, arbiter: bool = True, parser: type | None = None) -> Any:
        v = verbs.add_parser(name, help=help_)
        if parser is not None:
            v.__class__ = parser
        if tournament:
            v.add_argument("tournament", help=_("its name (or its .tournament.jsonl file)"))
        v.add_argument("--dir", default=".", help=_("where the tournament file is kept "
                                                  "(beside the journals; default .)"))
        v.add_argument("--config", help=_("the arbiter's config (default "
                                        "/etc/companion/config.toml): [arbiter] key_file"))
        if arbiter:
            v.add_argument("--arbiter-key", help=_("the arbiter's public key the tournament file "
                                                 "is checked against (default: this laptop's)"))
        v.set_defaults(func=_guard(func))
        return v

    def journal_keys(v: Any) -> None:
        v.add_argument("--key", help=_("one table's public key the journals must be signed by "
                                     "(default: the arbiter's keyring of enrolled tables)"))
        v.add_argument("--keyring", help=_("the arbiter's keyring (default from the config)"))

    v = verb("new", cmd_new, _("make a tournament file"), tournament=False, arbiter=False)
    v.add_argument("name")
    v.add_argument("--game", required=True, choices=registry.names())
    v.add_argument("--system", required=True, choices=SYSTEMS)
    v.add_argument("--rounds", required=True, type=int)
    settings_options(v, new=True)

    v = verb("add-player", cmd_add_player, _("enter a player (after round 1: a late entry)"))
    v.add_argument("name")
    v.add_argument("--rating", type=int)
    v.add_argument("--club")
    v.add_argument("--title", help=_("GM, IM, FM, CM, WGM, WIM, WFM, WCM"))
    v.add_argument("--sex", choices=("m", "w"))
    v.add_argument("--federation", help=_("three capital letters (CZE)"))
    v.add_argument("--fide-id", type=int)
    v.add_argument("--birth", help=_("YYYY/MM/DD or YYYY"))
    v.add_argument("--from", dest="from_round", type=int,
                   help=_("a late entry: the first round he is paired in (default: the next)"))
    v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("settings", cmd_settings, _("change the tournament's settings (tie-breaks and "
             "pairing rules until round 1; byes, tables and the event's words any time)"))
    settings_options(v, new=False)
    v.add_argument("--why", help=_("the reason, kept in the file"))

    for name, help_ in (("bye", _("a player asks for a bye (½ or 0 point) in a round not yet "
                                  "paired")),
                        ("bye-cancel", _("take a requested bye back"))):
        v = verb(name, cmd_bye, help_)
        v.add_argument("player", help=_("name or entry number"))
        v.add_argument("--round", type=int, help=_("default: the next to pair"))
        if name == "bye":
            v.add_argument("--points", type=float, default=0.5, choices=(0.5, 0.0),
                           help=_("0.5 (default) or 0"))
        v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("unpair", cmd_unpair, _("take the last round back while none of its results is in"))
    v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("repair", cmd_repair, _("change the last round by hand (a swap, a colour change or "
             "a whole manual pairing), warned of each FIDE criterion it breaks"))
    v.add_argument("--swap", nargs=2, metavar=("A", "B"),
                   help=_("two players (names or entry numbers) change places"))
    v.add_argument("--colours", type=int, metavar="BOARD",
                   help=_("the board whose players change colours (who moves first)"))
    v.add_argument("--pairs", help=_('the whole round: "A-B,C-D,..." (first mover first)'))
    v.add_argument("--bye", help=_("with --pairs: the player given the pairing-allocated bye"))
    v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("lots", cmd_lots, _("a round robin's starting numbers drawn by lot (before round "
             "1; the seed is kept so the draw can be checked)"))
    v.add_argument("--seed", help=_("the draw's seed (default: a random one)"))
    v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("import-trf", cmd_import_trf, _("a tournament file from a TRF-2016 (Swiss Manager, "
             "Vega): players, numbers, rounds, results, byes, withdrawals"), tournament=False,
             arbiter=False)
    v.add_argument("file", help=_("the TRF file"))
    v.add_argument("--game", required=True, choices=registry.names())
    v.add_argument("--name", help=_("the tournament's name (default: the TRF's 012 line)"))
    v.add_argument("--tiebreaks", help=_("the tie-breaks in order (default: the game's own)"))

    for name, help_ in (("withdraw", _("a player leaves a Swiss tournament from a round on")),
                        ("reinstate", _("a withdrawn player comes back from a round on"))):
        v = verb(name, cmd_withdraw, help_)
        v.add_argument("player", help=_("name or entry number"))
        v.add_argument("--from", dest="from_round", type=int,
                       help=_("the first round concerned (default: the next to pair)"))
        v.add_argument("--why", help=_("the reason, kept in the file"))

    v = verb("pair", cmd_pair, _("pair the next round and print it"))
    v.add_argument("--engine", choices=("bbpPairings", "javafo"),
                   help=_("pair with this FIDE-endorsed engine instead of the built-in Dutch "
                        "system (never a fallback: refused when it is not found)"))
    v.add_argument("--engine-path",
                   help=_("bbpPairings' program (default: $BBP_PAIRINGS, then the PATH) or "
                        "JaVaFo's jar (default: $JAVAFO_JAR)"))
    v.add_argument("--pairs", help=_('pair the round by hand: "A-B,C-D,..." (names or entry '
                   "numbers, first mover first), warned of each FIDE criterion it breaks"))
    v.add_argument("--bye", help=_("with --pairs: the player given the pairing-allocated bye"))
    v.add_argument("--why", help=_("with --pairs: the reason, kept in the file"))
    v.add_argument("--send", action="store_true",
                   help=_("send each pairing to its table over MQTT (signed with the arbiter's "
                        "key; [mqtt] of --config)"))
    v.add_argument("--wait", type=float, default=5.0,
                   help=_("seconds to wait for the tables' answers (default 5)"))

    v = verb("send", cmd_send, _("send a paired round's pairings to the tables (again)"))
    v.add_argument("--round", type=int, required=True)
    v.add_argument("--board", type=int, help=_("only this board's"))
    v.add_argument("--wait", type=float, default=5.0)

    from companion.tournament import demo

    v = verb("demo", demo.cmd_demo, _("a whole small club evening on this machine (mosquitto, "
             "tables, rounds, page, exports)"), tournament=False, arbiter=False)
    demo.add_arguments(v)

    v = verb("result", cmd_result, _("record a game's result by hand"), parser=_ResultParser)
    v.add_argument("--round", type=int, required=True)
    v.add_argument("--board", type=int, help=_("the board (as on the round sheet)"))
    v.add_argument("--table", type=int, help=_("or the table that played it"))
    v.add_argument("result", help=_("1-0, 0-1, ½-½ (=, draw), +-, -+ (forfeits), -- or 0-0 "
                                  "(both forfeit); the first mover's side first"))
    v.add_argument("--score", help=_("the game's score A:B (first mover's first)"))
    v.add_argument("--reason", help=_("the game's reason (docs/tournament.md lists them)"))
    v.add_argument("--replace", metavar="WHY",
                   help=_("replace the result recorded already, saying why"))

    v = verb("import", cmd_import, _("record results from finished games' journals (verified)"))
    v.add_argument("journals", nargs="+", help=_("journals, or folders of them"))
    v.add_argument("--replace", metavar="WHY",
                   help=_("replace results recorded already, saying why"))
    journal_keys(v)

    v = verb("collect", cmd_collect, _("record the results of every journal in folders copied "
             "from the tables (USB stick, scp), for every tournament in --dir"),
             tournament=False)
    v.add_argument("folders", nargs="+", help=_("folders (or journals) copied from the tables"))
    v.add_argument("--replace", metavar="WHY",
                   help=_("replace results recorded already, saying why"))
    journal_keys(v)

    v = verb("show", cmd_show, _("players and rounds"))
    v.add_argument("--key", help=argparse.SUPPRESS)
    v.set_defaults(key_is_arbiter=True)

    v = verb("standings", cmd_standings, _("standings: points, then the tie-breaks"),
             tournament=False)
    v.add_argument("tournament", nargs="?", help=_("its name or file (or use --journals)"))
    v.add_argument("--journals", nargs="+",
                   help=_("count the results these finished games' journals give (verified), "
                        "for their tournaments in --dir"))
    v.add_argument("--round", type=int, help=_("after this round (default: the last paired)"))
    v.add_argument("--csv", help=_("write the standings as CSV here"))
    v.add_argument("--html", help=_("write printable standings here"))
    v.add_argument("--trf", help=_("write FIDE TRF-2016 here"))
    journal_keys(v)

    v = verb("sheet", cmd_sheet, _("a printout: the round sheet, the pairing or result list, "
             "the standings, the cross table or the wall chart (as text, or --html to print)"))
    v.add_argument("--round", type=int, help=_("the round (of the pairings or results), or "
                                              "after it (the others); default: the last paired"))
    v.add_argument("--kind", default="round", choices=SHEETS,
                   help=_("round: pairings, results and standings after the round (default)"))
    v.add_argument("--html", help=_("write it here as a page ready to print (A4)"))

    v = verb("history", cmd_history, _("the trail: every change, when, who, what and why"))
    v.add_argument("--key", help=_("the arbiter's public key (as --arbiter-key)"))
    v.set_defaults(key_is_arbiter=True)

    v = verb("verify", cmd_verify, _("check the tournament file's chain and signatures (as "
             "`companion verify`) and each result's journal when it is here"))
    v.add_argument("--key", help=_("the arbiter's public key (as --arbiter-key)"))
    v.add_argument("--keyring", help=_("the tables' keyring, for the journals"))
    v.set_defaults(key_is_arbiter=True)

    v = verb("upgrade", cmd_upgrade, _("make the signed file of a version 1 .tournament.json"),
             tournament=False, arbiter=False)
    v.add_argument("old", help=_("the version 1 file"))

    v = verb("correct", cmd_correct, _("an arbiter's correction to a finished game's journal "
             "(after the PIN)"), tournament=False, arbiter=False)
    v.add_argument("journal")
    v.add_argument("--what", required=True, help=_("the correction (see docs/tournament.md)"))
    v.add_argument("--reason", required=True, help=_("why: every correction says why"))
    v.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help=_("a field of the correction (tile=17, player=yellow, ...)"))
    v.add_argument("--pin-stdin", action="store_true", help=_("read the PIN from standard input"))
