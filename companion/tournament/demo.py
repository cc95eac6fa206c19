"""``companion tournament demo``: a whole small club evening on one machine, for arbiters to see.

What it does, in order (every part is the real thing, only the players are simulated):

1. writes the club's locked broker with ``companion arbiter broker-config``'s own code (a
   password and an ACL line per table, the arbiter's account) and starts the real mosquitto on
   it (local, plain listener; the TLS listener is configured too);
2. takes the arbiter's key and keyring where the arbiter's commands look for them by default
   (:func:`companion.arbiter.signing.arbiter_key`: ``arbiter.key`` and ``keyring.json`` in
   the arbiter's data folder, ``$XDG_DATA_HOME/companion/arbiter``; the key is made there if
   there is none) and enrols the demo's tables in that keyring, each with a key of its own kept
   beside it (``demo-tables/``), so a second demo enrols nothing new; a keyring that enrols one
   of those table numbers with another key (a real table) stops the demo, changing nothing;
3. opens two tables per game kind that has simulated players (a ``club_demo`` module in its
   package: six tables today), each the real table controller of that game with the daemon's
   arbiter hooks (publisher, pairing desk), its journals in ``tables/table-N/`` (its SD card),
   on a fake clock for game time, so a game takes seconds;
4. serves the arbiter's page (the real aiohttp page, fed by the real MQTT client), with the
   journal inbox that keeps each table's journal in ``journals/`` as it arrives and records a
   finished game's result into its tournament file once the verified reader accepts it;
5. for each game a round-robin tournament file of four players (tables 1-2, 3-4, 5-6); three
   rounds, each paired by the software into the file and sent to the tables as signed pairing
   commands (``pair --send``); at each table the players press ``#`` and play to the end; the
   results reach the tournament files over MQTT, and the next round waits for them;
6. in round 2 the arbiter sends a signed correction over MQTT to a table mid-game (the table's
   answer is printed and shown on the page), and after round 3 writes a dispute account of a
   game (``companion dispute``'s text) to ``dispute.txt``;
7. writes each tournament's standings (CSV and HTML), TRF and round sheets (each with the
   standings after its own round) into the folder, checks that the page's ``/standings.csv``,
   ``tournament standings --csv`` and ``tournament standings --journals`` rank every game's
   players alike, and prints commands to try, each of which works as printed.

Time: game time runs on a fake clock (a Tamsk glass runs out in no time); the wall clock the
tables put in their records and check commands against is the real one, so the arbiter's
signed commands pass the tables' time window.
"""

from __future__ import annotations

import argparse
import getpass
import importlib
import importlib.util
import random
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import registry
from companion.arbiter.brokerconfig import (
    ARBITER_USER,
    SENDER_USER,
    table_user,
    write_broker_config,
)
from companion.arbiter.commands import make_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import MqttSettings, arbiter_settings
from companion.arbiter.signing import arbiter_key, data_dir, keyring_path
from companion.arbiter.station import game_id_of
from companion.clock import FakeClock
from companion.config import defaults
from companion.i18n import _, say
from companion.inputs import RawInput
from companion.keys import Keyring, SigningKey
from companion.tables import make_table
from companion.tournament import pairing, sheets, store, trf
from companion.tournament.journals import OK, Keys, check_journal
from companion.tournament.model import Settings, Tournament, TournamentError, header, slug
from companion.tournament.send import pairing_bodies, send_commands, send_pairings
from companion.tournament.standings import standings

PLAYERS = ("Alice", "Boris", "Clara", "Dmitri", "Eva", "Filip", "Greta", "Hugo", "Ilse",
           "Jonas", "Karla", "Luboš")
TABLES_PER_GAME = 2
ROUNDS = 3
#: The demo's arbiter PIN (printed: the page's correction and pairing forms ask for it).
PIN = "2580"
#: Seconds a round's results may take to reach the tournament files over MQTT.
RESULTS_WAIT_S = 60.0


class DemoError(RuntimeError):
    """Why the demo cannot run here (one line for the user)."""


class DemoClock(FakeClock):
    """Game time on a fake clock (moved by the simulated players), the real wall clock."""

    def wall(self) -> float:
        return time.time()


@dataclass
class DemoTable:
    number: int
    kind: str
    clock: DemoClock
    hooks: ArbiterHooks
    table: Any
    players: Any  # the game's club_demo module
    journals: list[Path] = field(default_factory=list)


@dataclass
class Evening:
    """A running (or finished) demo evening: close it to stop the page, tables and broker."""

    folder: Path
    url: str = ""
    tournaments: list[Path] = field(default_factory=list)
    exports: list[Path] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: Commands to try afterwards, as printed (each works as printed, with the same HOME).
    commands: list[str] = field(default_factory=list)
    inbox: Any = None
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self._closers:
            try:
                self._closers.pop()()
            except Exception:  # closing the rest matters more than one failure here
                pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))  # free on every address: the TLS listener binds them all
        return int(s.getsockname()[1])


def _mosquitto() -> str:
    for candidate in ("mosquitto", "/usr/sbin/mosquitto"):
        found = shutil.which(candidate)
        if found:
            return found
    raise DemoError("the demo needs mosquitto: apt-get install mosquitto")


def _wait_port(port: int, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise DemoError("mosquitto did not start listening") from None
            time.sleep(0.05)


def demo_kinds() -> list[tuple[str, Any]]:
    """The game kinds with simulated players (a ``club_demo`` module), with that module."""
    out = []
    for name in registry.names():
        package = getattr(registry.get(name), "package", "")
        if package and importlib.util.find_spec(f"{package}.club_demo") is not None:
            out.append((name, importlib.import_module(f"{package}.club_demo")))
    return out


def run_evening(
    folder: Path,
    *,
    seed: int = 2026,
    host: str = "127.0.0.1",
    port: int = 8470,
    say: Callable[[str], None] = print,
) -> Evening:
    """Run the whole evening; returns it with the page still served (call ``close()``)."""
    folder = folder.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        raise DemoError(f"{folder} is not empty: give the demo a new folder")
    evening = Evening(folder)
    try:
        _run(evening, seed=seed, host=host, port=port, say=say)
    except BaseException:
        evening.close()
        raise
    return evening


def enrol_demo_tables(numbers: list[int], say: Callable[[str], None]) -> dict[int, SigningKey]:
    """The demo tables' keys (kept in the arbiter's data folder, ``demo-tables/``), enrolled in
    the arbiter's keyring where ``companion arbiter`` and ``companion verify`` look by default;
    :class:`DemoError` (nothing changed) when the keyring enrols one of these tables with
    another key."""
    ring_path = keyring_path(defaults())
    ring = Keyring.load(ring_path)
    keys = {n: SigningKey.load_or_create(data_dir() / "demo-tables" / f"table{n}.key")
            for n in numbers}
    for n, key in keys.items():
        enrolled = ring.key_for(str(n))
        if enrolled is not None and enrolled != key.public:
            raise DemoError(f"the arbiter's keyring {ring_path} enrols table {n} with another "
                            "key (a real table?): the demo leaves it alone; run it as another "
                            "user, or with XDG_DATA_HOME set to a folder of its own")
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    new = [n for n in numbers if ring.key_for(str(n)) is None]
    for n in new:
        ring.enroll(str(n), keys[n].public, stamp)
    if new:
        ring.save()
    say(_("keys: the arbiter's {key}; tables {tables} enrolled in {keyring}").format(
        key=data_dir() / "arbiter.key", tables=", ".join(map(str, numbers)), keyring=ring_path))
    return keys


def _run(evening: Evening, *, seed: int, host: str, port: int,
         say: Callable[[str], None]) -> None:
    folder = evening.folder
    rng = random.Random(seed)
    kinds = demo_kinds()
    if not kinds:
        raise DemoError("no game kind has simulated players (club_demo)")
    numbers = list(range(1, TABLES_PER_GAME * len(kinds) + 1))

    # 1. the club's locked broker
    exe = _mosquitto()
    setup = write_broker_config(folder / "broker", numbers, tls_port=_free_port(),
                                local_port=_free_port(), run_as=getpass.getuser())
    broker = subprocess.Popen([exe, "-c", str(setup.conf)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)

    def stop_broker() -> None:
        broker.terminate()
        try:
            broker.wait(5)
        except subprocess.TimeoutExpired:
            broker.kill()
            broker.wait(5)

    evening._closers.append(stop_broker)
    _wait_port(setup.local_port, broker)
    say(_("broker: mosquitto on {address} (locked: {conf})").format(
        address=f"127.0.0.1:{setup.local_port}", conf=setup.conf))

    def mqtt_for(user: str) -> MqttSettings:
        return MqttSettings(enabled=True, host="127.0.0.1", port=setup.local_port,
                            username=user, password=setup.passwords[user])

    # 2. keys, where the arbiter's commands look by default
    signing = arbiter_key(defaults())
    table_keys = enrol_demo_tables(numbers, say)
    arbiter_config = defaults()
    arbiter_config["arbiter"].update(pin_hash=hash_pin(PIN))
    mqtt = mqtt_for(ARBITER_USER)  # the page's user
    # the command line's own user (pairings and the correction): never the page's session
    sender = replace(mqtt, send_username=SENDER_USER, send_password=setup.passwords[SENDER_USER])
    (folder / "arbiter.toml").write_text(
        "# the demo's arbiter: its broker accounts (while the demo runs) and PIN\n"
        f'[arbiter]\npin_hash = "{arbiter_config["arbiter"]["pin_hash"]}"\n\n'
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {mqtt.port}\n'
        f'username = "{mqtt.username}"\npassword = "{mqtt.password}"\n'
        f'send_username = "{sender.send_username}"\n'
        f'send_password = "{sender.send_password}"\n', encoding="utf-8")
    (folder / "arbiter.toml").chmod(0o600)

    # 3. the tables
    tables: dict[int, DemoTable] = {}
    for index, (kind, players) in enumerate(kinds):
        for i in range(TABLES_PER_GAME):
            n = index * TABLES_PER_GAME + i + 1
            config = defaults()
            config["game"]["kind"] = kind
            config["table"].update(number=n, key_file=str(table_keys[n].path))
            config["arbiter"].update(arbiter_key=signing.public.line())
            own = mqtt_for(table_user(n))
            config["mqtt"].update(enabled=True, host=own.host, port=own.port,
                                  username=own.username, password=own.password)
            clock = DemoClock()
            hooks = ArbiterHooks(config, clock)
            table = make_table(config, clock, folder / "tables" / f"table-{n}",
                               on_record=hooks.on_record)
            hooks.attach(table)
            evening._closers.append(hooks.close)
            evening._closers.append(table.close)
            tables[n] = DemoTable(n, kind, clock, hooks, table, players)
    say(_("tables: {tables}").format(tables=", ".join(
        f"{t.number} ({registry.get(t.kind).title})" for t in tables.values())))

    # 4. the tournament files, the page and its journal inbox
    paths: list[Path] = []
    names = iter(PLAYERS)
    for index, (kind, _system) in enumerate(kinds):
        title = registry.get(kind).title
        name = f"Club evening: {title}"
        path = store.path_for(name, folder)
        store.create(path, header(name, kind, "round-robin", ROUNDS,
                                  Settings(first_table=index * TABLES_PER_GAME + 1),
                                  round(time.time(), 3)), signing)
        entrants = [next(names, f"Player {i + 1}") for i in range(4)]
        entries: list[dict[str, Any]] = [
            {"ev": "player", "id": i + 1, "name": who, "wall": round(time.time(), 3),
             "via": "demo"} for i, who in enumerate(entrants)]
        store.append(path, signing, _these(entries))
        paths.append(path)
        evening.tournaments.append(path)
    from companion.arbiter.client import ArbiterClient
    from companion.arbiter.web import ArbiterServer
    from companion.tournament.inbox import JournalInbox

    keyring = Keyring.load(keyring_path(defaults()))
    keys = Keys(keyring=keyring, arbiter=(signing.public,))
    inbox = evening.inbox = JournalInbox(folder, keys, signing, say_line=say).start()
    evening._closers.append(inbox.stop)
    client = ArbiterClient(mqtt, keyring=keyring)
    client.view.on_applied = inbox.saw
    client.start()
    evening._closers.append(client.stop)
    server = ArbiterServer(client, arbiter_settings(arbiter_config), host=host, port=port,
                           log_dir=folder, tournament_dir=folder, signing_key=signing,
                           inbox=inbox)
    server.start()
    evening._closers.append(server.stop)
    evening.url = f"http://{host}:{server.port}/"
    say(_("the page: {url} (the arbiter's: {url}arbiter, PIN {pin})").format(url=evening.url,
                                                                            pin=PIN))

    corrected = False

    # 5. three rounds
    for round_no in range(1, ROUNDS + 1):
        say("--- " + _("round {round}").format(round=round_no))
        started: list[DemoTable] = []
        for path in paths:
            t, _records = store.append(path, signing, lambda t: [
                {**r, "wall": round(time.time(), 3), "via": "demo"}
                for r in pairing.pair_records(t)])
            r = t.played[-1]
            bodies = pairing_bodies(t, r)
            for table_no, body in bodies:
                say(_("{tournament}: board {board} (table {table}): {first} - {second}").format(
                    tournament=t.name, board=body["board"], table=table_no,
                    first=body["first"], second=body["second"]))
            for sent in send_pairings(sender, signing, bodies, wait_s=10.0):
                if sent.answer is None or not sent.answer.get("ok"):
                    raise DemoError(f"table {sent.table} did not take its pairing: "
                                    f"{sent.answer}")
                started.append(tables[sent.table])
        for dt in started:
            dt.table.feed(RawInput("key", "#", True, dt.clock.now()))  # the players confirm
            assert dt.table.journal_path is not None
            dt.journals.append(dt.table.journal_path)

            def correction(dt: DemoTable = dt, round_no: int = round_no) -> None:
                nonlocal corrected
                fix = getattr(dt.players, "DEMO_CORRECTION", None)
                if corrected or round_no != 2 or dt.hooks.station is None or fix is None:
                    return  # once, in round 2, at a table whose game takes corrections
                corrected = True
                game = game_id_of(dt.table.journal_path)
                assert game is not None
                command = make_command(fix, table=dt.number, game=game, key=signing,
                                       issued=time.time())
                answer = send_commands(sender, [(dt.number, command)], wait_s=10.0)
                reply = answer.get(command["nonce"], {"ok": None, "detail": "no answer"})
                line = (_("correction at table {table}: accepted: {detail}") if reply.get("ok")
                        else _("correction at table {table}: refused: {detail}"))
                say(line.format(table=dt.number, detail=reply.get("detail")))

            dt.players.play(dt.table, dt.clock, rng, correction)
        _wait_for_results(paths, signing, round_no, inbox)

    # 6. a dispute: the players of the corrected game ask what happened around the correction
    from companion.arbiter.dispute import account

    tournaments = [store.load(p, signing.public) for p in paths]
    kept = sorted((folder / "journals").glob("*.jsonl"))
    disputed = next(((p, m) for p in kept if (m := _moment(p, "correct")) is not None),
                    next(((p, m) for p in kept if (m := _moment(p, None)) is not None), None))
    if disputed is not None:
        where, moment = disputed
        checked = check_journal(where, keys, tournaments)
        text = account(where, moment, window=30.0, checked=checked)
        command = (f"companion dispute {shlex.quote(str(where))} --at {moment:.1f} --window 30 "
                   f"--dir {shlex.quote(str(folder))}")
        (folder / "dispute.txt").write_text(f"{command}\n\n{text}\n", encoding="utf-8")
        evening.exports.append(folder / "dispute.txt")
        evening.commands.append(command)
        say(_("a dispute over {journal} at {seconds} s: {file}").format(
            journal=where.name, seconds=f"{moment:.0f}", file=folder / "dispute.txt"))

    # 7. exports, and the three standings agree
    for t in tournaments:
        evening.exports += write_exports(t, folder)
    _agree(evening, tournaments, keys, say)
    _commands(evening, tournaments)
    say(_("everything is in {folder}").format(folder=folder))
    say(_("try (with the same HOME; the page and the broker only while the demo runs):"))
    for command in evening.commands:
        say(f"  {command}")


def _these(records: list[dict[str, Any]]) -> Callable[[Tournament], list[dict[str, Any]]]:
    return lambda t: records


def _wait_for_results(paths: list[Path], signing: SigningKey, round_no: int, inbox: Any
                      ) -> None:
    """Until every game of round ``round_no`` has its result in the tournament files (they
    come over MQTT, through the inbox)."""
    deadline = time.monotonic() + RESULTS_WAIT_S
    while True:
        inbox.wait(5.0)
        missing = []
        for path in paths:
            t = store.load(path, signing.public)
            missing += [f"{t.name} board {g.board}" for g in t.round(round_no).games
                        if g.result is None]
        if not missing:
            return
        if time.monotonic() > deadline:
            raise DemoError(f"round {round_no}: no result reached the tournament file for "
                            f"{', '.join(missing)} (inbox: {list(inbox.notes)[-3:]})")
        time.sleep(0.1)


def journal_standings(t: Tournament, folder: Path, keys: Keys) -> Any:
    """The standings with every result the verified journals in ``folder/journals`` give."""
    results = {}
    for path in sorted((folder / "journals").glob("*.jsonl")):
        checked = check_journal(path, keys, only=t)
        if checked.status == OK and checked.round is not None and checked.board is not None \
                and checked.result is not None:
            results[(checked.round, checked.board)] = checked.result
    return standings(t, results=results)


def _agree(evening: Evening, tournaments: list[Tournament], keys: Keys,
           say: Callable[[str], None]) -> None:
    """The page's ``/standings.csv``, ``tournament standings --csv`` and ``tournament
    standings --journals`` give the same ranking for every tournament."""
    for t in tournaments:
        cli = sheets.standings_csv(standings(t))
        url = evening.url + "standings.csv?t=" + slug(t.name)
        with urllib.request.urlopen(url, timeout=10) as answer:
            page = answer.read().decode("utf-8")
        journals = sheets.standings_csv(journal_standings(t, evening.folder, keys))
        if not page == cli == journals:
            raise DemoError(f"{t.name}: the page, the file and the journals rank differently")
        ranking = ", ".join(f"{row[0]} {row[1]}" for row in
                            (line.split(",") for line in cli.splitlines()[1:]))
        say(_("{tournament}: the page, `tournament standings` and the journals agree: "
              "{ranking}").format(tournament=t.name, ranking=ranking))


def _commands(evening: Evening, tournaments: list[Tournament]) -> None:
    """Commands to try afterwards, each working as printed."""
    folder = shlex.quote(str(evening.folder))
    journals = sorted((evening.folder / "journals").glob("*.jsonl"))
    first = tournaments[0]
    name = shlex.quote(first.name)
    evening.commands[:0] = [
        f"companion tournament standings {name} --dir {folder}",
        f"companion tournament standings --journals {folder}/journals --dir {folder}",
        f"companion tournament history {name} --dir {folder}",
        f"companion tournament verify {name} --dir {folder}",
        f"companion tournament collect {folder}/tables --dir {folder}",
        f"companion tournament sheet {name} --round 2 --html {folder}/round2.html --dir {folder}",
    ]
    if journals:
        one = shlex.quote(str(journals[0]))
        evening.commands += [f"companion verify {one}",
                             f"companion arbiter sign {one} --dir {folder}"]


def _moment(path: Path, ev: str | None) -> float | None:
    """The game time of the first record of kind ``ev`` (None: the middle record's)."""
    import json

    times = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            t = record.get("t")
            if isinstance(t, (int, float)) and not isinstance(t, bool):
                if ev is not None and record.get("ev") == ev:
                    return float(t)
                times.append(float(t))
    if ev is not None or not times:
        return None
    return times[len(times) // 2]


def write_exports(t: Tournament, folder: Path) -> list[Path]:
    """Standings (CSV, HTML), TRF and every round's sheet (with the standings after that
    round) of tournament ``t``."""
    base = folder / slug(t.name)
    table = standings(t)
    out = {
        base.with_name(base.name + "-standings.csv"): sheets.standings_csv(table),
        base.with_name(base.name + "-standings.html"): sheets.standings_html(table),
        base.with_name(base.name + ".trf"): trf.to_trf(t, {r.id: r.rank for r in table.rows}),
    }
    for r in t.played:
        out[base.with_name(f"{base.name}-round{r.number}.html")] = sheets.round_sheet(
            t, r, standings(t, after=r.number))
    for path, text in out.items():
        path.write_text(text, encoding="utf-8")
    return list(out)


def cmd_demo(args: argparse.Namespace) -> int:
    """``companion tournament demo``."""
    import logging
    import tempfile

    logging.basicConfig(level=logging.ERROR)  # the tables' routine warnings stay off the story
    folder = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="companion-evening-"))
    print("companion tournament demo: " + _("a club evening in {folder}").format(folder=folder),
          flush=True)
    try:
        evening = run_evening(folder, seed=args.seed, host=args.host, port=args.port,
                              say=lambda line: print(line, flush=True))
    except TournamentError as exc:
        print(f"companion tournament demo: {say(exc.message)}", file=sys.stderr)
        return 2
    except (DemoError, OSError) as exc:
        print(f"companion tournament demo: {exc}", file=sys.stderr)
        return 2
    try:
        if args.linger > 0:
            print(_("the page stays up for {seconds} s: {url} (Ctrl-C ends)").format(
                seconds=f"{args.linger:.0f}", url=evening.url), flush=True)
            time.sleep(args.linger)
    except KeyboardInterrupt:
        pass
    finally:
        evening.close()
    print(_("standings, TRF and round sheets: {folder}").format(folder=folder))
    return 0


def add_arguments(v: argparse.ArgumentParser) -> None:
    v.add_argument("--out", help=_("a new (empty) folder for everything (default: a new "
                                   "temporary folder, printed)"))
    v.add_argument("--seed", type=int, default=2026,
                   help=_("the players' dice (same seed, same evening)"))
    v.add_argument("--host", default="127.0.0.1", help=_("the page's address"))
    v.add_argument("--port", type=int, default=8470,
                   help=_("the page's port (0: any free one)"))
    v.add_argument("--linger", type=float, default=0.0,
                   help=_("keep the page up this many seconds after the last round"))
