"""``companion tournament demo``: a whole small club evening on one machine, for arbiters to see.

What it does, in order (every part is the real thing, only the players are simulated):

1. writes the club's locked broker with ``companion arbiter broker-config``'s own code (a
   password and an ACL line per table, the arbiter's account) and starts the real mosquitto on
   it (local, plain listener; the TLS listener is configured too);
2. makes the arbiter's Ed25519 key, one key per table, and enrols the tables in the keyring;
3. opens two tables per game kind that has simulated players (a ``club_demo`` module in its
   package: six tables today), each the real table controller of that game with the daemon's
   arbiter hooks (publisher, pairing desk), on a fake clock for game time, so a game takes
   seconds;
4. serves the arbiter's page (the real aiohttp page, fed by the real MQTT client);
5. for each game a round-robin tournament of four players; three rounds, each paired by the
   software and sent to the tables as signed pairing commands; at each table the players
   press ``#`` (the game starts with names, round and board in its header) and play to the end;
   the results are read back from the journals into the tournament;
6. in round 2 the arbiter sends a signed correction over MQTT to a table mid-game (the table's
   answer is printed and shown on the page), and after round 3 writes a dispute account of a
   game (``companion dispute``'s text) to ``dispute.txt``;
7. writes each tournament's standings (CSV and HTML), TRF and round sheets into the folder.

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
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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
from companion.arbiter.commands import make_command, make_pairing_command
from companion.arbiter.hooks import ArbiterHooks
from companion.arbiter.pin import hash_pin
from companion.arbiter.settings import MqttSettings, arbiter_settings
from companion.arbiter.station import game_id_of
from companion.clock import FakeClock
from companion.config import defaults
from companion.inputs import RawInput
from companion.keys import Keyring, SigningKey
from companion.tables import make_table
from companion.tournament import pairing, sheets, store, trf
from companion.tournament.model import Result, Tournament, TournamentError, slug
from companion.tournament.send import pairing_bodies, send_commands
from companion.tournament.standings import record_from_journal, standings

PLAYERS = ("Alice", "Boris", "Clara", "Dmitri", "Eva", "Filip", "Greta", "Hugo", "Ilse",
           "Jonas", "Karla", "Luboš")
TABLES_PER_GAME = 2
ROUNDS = 3
#: The demo's arbiter PIN (printed: the page's correction and pairing forms ask for it).
PIN = "2580"


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
    say(f"broker: mosquitto on 127.0.0.1:{setup.local_port} (locked: {setup.conf})")

    def mqtt_for(user: str) -> MqttSettings:
        return MqttSettings(enabled=True, host="127.0.0.1", port=setup.local_port,
                            username=user, password=setup.passwords[user])

    # 2. keys
    keys = folder / "keys"
    keys.mkdir()
    arbiter_key = SigningKey.create(keys / "arbiter.key")
    keyring = Keyring(keys / "keyring.json")
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    club_key = secrets.token_hex(16)
    arbiter_config = defaults()
    arbiter_config["arbiter"].update(pin_hash=hash_pin(PIN), club_key=club_key,
                                     key_file=str(keys / "arbiter.key"),
                                     keyring=str(keys / "keyring.json"))

    # 3. the tables
    journals = folder / "journals"
    journals.mkdir()
    tables: dict[int, DemoTable] = {}
    for index, (kind, players) in enumerate(kinds):
        for i in range(TABLES_PER_GAME):
            n = index * TABLES_PER_GAME + i + 1
            key = SigningKey.create(keys / f"table{n}.key")
            keyring.enroll(str(n), key.public, stamp)
            config = defaults()
            config["game"]["kind"] = kind
            config["table"].update(number=n, key_file=str(keys / f"table{n}.key"))
            config["arbiter"].update(arbiter_key=arbiter_key.public.line(), club_key=club_key)
            mqtt = mqtt_for(table_user(n))
            config["mqtt"].update(enabled=True, host=mqtt.host, port=mqtt.port,
                                  username=mqtt.username, password=mqtt.password)
            clock = DemoClock()
            hooks = ArbiterHooks(config, clock)
            table = make_table(config, clock, journals, on_record=hooks.on_record)
            hooks.attach(table)
            evening._closers.append(hooks.close)
            evening._closers.append(table.close)
            tables[n] = DemoTable(n, kind, clock, hooks, table, players)
    keyring.save()
    say(f"tables: {', '.join(f'{t.number} ({t.kind})' for t in tables.values())}")

    # 4. the page
    from companion.arbiter.client import ArbiterClient
    from companion.arbiter.web import ArbiterServer

    tournaments: list[tuple[Tournament, Path, int]] = []
    names = iter(PLAYERS)
    for index, (kind, _) in enumerate(kinds):
        title = registry.get(kind).title
        t = Tournament(name=f"Club evening: {title}", game=kind, system="round-robin",
                       rounds=ROUNDS)
        for _ in range(4):
            t.add_player(next(names, f"Player {len(t.players) + 1}"))
        path = store.save(t, store.path_for(t.name, folder))
        tournaments.append((t, path, index * TABLES_PER_GAME))
        evening.tournaments.append(path)
    client = ArbiterClient(mqtt_for(ARBITER_USER), keyring=Keyring.load(keys / "keyring.json"),
                           client_id=f"companion-demo-arbiter-{seed}")
    client.start()
    evening._closers.append(client.stop)
    server = ArbiterServer(client, arbiter_settings(arbiter_config), host=host, port=port,
                           log_dir=folder, tournament=tournaments[0][0].name,
                           tournament_file=tournaments[0][1], signing_key=arbiter_key)
    server.start()
    evening._closers.append(server.stop)
    evening.url = f"http://{host}:{server.port}/"
    say(f"the page: {evening.url} (the arbiter's: {evening.url}arbiter, PIN {PIN})")

    arbiter_mqtt = mqtt_for(SENDER_USER)  # the command line's own user: never the page's
    corrected = False

    # 5. three rounds
    for round_no in range(1, ROUNDS + 1):
        say(f"--- round {round_no}")
        started: list[tuple[Tournament, Path, DemoTable, int]] = []
        for t, path, offset in tournaments:
            r = pairing.next_round(t)
            t.played.append(r)
            store.save(t, path)
            commands = []
            for board, body in pairing_bodies(t, r):
                commands.append((offset + board, make_pairing_command(
                    body, table=offset + board, key=arbiter_key, issued=time.time())))
                say(f"{t.name}: board {board} (table {offset + board}): "
                    f"{body['first']} - {body['second']}")
            answers = send_commands(arbiter_mqtt, commands, wait_s=10.0)
            for table_no, command in commands:
                answer = answers.get(command["nonce"])
                if answer is None or not answer.get("ok"):
                    raise DemoError(f"table {table_no} did not take its pairing: {answer}")
                started.append((t, path, tables[table_no], round_no))
        for t, path, dt, _ in started:
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
                command = make_command(fix, table=dt.number, game=game, key=arbiter_key,
                                       issued=time.time())
                answer = send_commands(arbiter_mqtt, [(dt.number, command)], wait_s=10.0)
                reply = answer.get(command["nonce"], {"ok": None, "detail": "no answer"})
                verdict = "accepted" if reply.get("ok") else "refused"
                say(f"correction at table {dt.number}: {verdict}: {reply.get('detail')}")

            dt.players.play(dt.table, dt.clock, rng, correction)
            _record_result(t, path, dt.table.journal_path, say)

    # 6. a dispute: the players of the corrected game ask what happened around the correction
    from companion.arbiter.dispute import account

    played = [path for dt in tables.values() for path in dt.journals]
    disputed = next(((p, m) for p in played if (m := _moment(p, "correct")) is not None),
                    next(((p, m) for p in played if (m := _moment(p, None)) is not None), None))
    if disputed is not None:
        path, moment = disputed
        text = account(path, moment, window=30.0)
        (folder / "dispute.txt").write_text(f"companion dispute {path.name} --at {moment:.1f}"
                                            f"\n\n{text}\n", encoding="utf-8")
        evening.exports.append(folder / "dispute.txt")
        say(f"a dispute over {path.name} at {moment:.0f} s: {folder / 'dispute.txt'}")

    # 7. exports
    for t, _, _ in tournaments:
        evening.exports += write_exports(t, folder)
    say(f"everything is in {folder}")


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


def _record_result(t: Tournament, path: Path, journal: Path | None,
                   say: Callable[[str], None]) -> None:
    """A finished game's result, read from its journal, into the tournament (as ``tournament
    import`` does: matched to the pairing by round and names)."""
    assert journal is not None
    _, record = record_from_journal(journal)
    a, b = record.players
    if record.round is None:
        raise TournamentError(f"{journal.name}: no round in its header")
    g, a_first = t.game_of(record.round, a, b)
    if not a_first:
        raise TournamentError(f"{journal.name}: {b} should move first")
    winner = "tie" if record.winner == "tie" else "first" if record.winner == a else "second"
    score = None if record.score is None else (record.score[a], record.score[b])
    g.result = Result(winner, record.forfeit, score, record.reason or "",
                      f"journal {journal.name}")
    store.save(t, path)
    say(f"{t.name}: round {record.round} board {g.table}: {a} - {b}: {record.winner}"
        + (f" ({record.reason})" if record.reason else ""))


def write_exports(t: Tournament, folder: Path) -> list[Path]:
    """Standings (CSV, HTML), TRF and every round's sheet of tournament ``t``."""
    base = folder / slug(t.name)
    table = standings(t.game, t.records(), [p.name for p in t.players])
    out = {
        base.with_name(base.name + "-standings.csv"): sheets.standings_csv(table),
        base.with_name(base.name + "-standings.html"): sheets.standings_html(
            table, title=f"{t.name}: standings", after=len(t.played)),
        base.with_name(base.name + ".trf"): trf.to_trf(
            t, {t.find(r.name).number: r.rank for r in table.rows}),
    }
    for r in t.played:
        out[base.with_name(f"{base.name}-round{r.number}.html")] = sheets.round_sheet(t, r, table)
    for path, text in out.items():
        path.write_text(text, encoding="utf-8")
    return list(out)


def cmd_demo(args: argparse.Namespace) -> int:
    """``companion tournament demo``."""
    import logging
    import tempfile

    logging.basicConfig(level=logging.ERROR)  # the tables' routine warnings stay off the story
    folder = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="companion-evening-"))
    print(f"companion tournament demo: a club evening in {folder}", flush=True)
    try:
        evening = run_evening(folder, seed=args.seed, host=args.host, port=args.port,
                              say=lambda line: print(line, flush=True))
    except (DemoError, TournamentError, OSError) as exc:
        print(f"companion tournament demo: {exc}", file=sys.stderr)
        return 2
    try:
        if args.linger > 0:
            print(f"the page stays up for {args.linger:.0f} s: {evening.url} (Ctrl-C ends)",
                  flush=True)
            time.sleep(args.linger)
    except KeyboardInterrupt:
        pass
    finally:
        evening.close()
    print(f"standings, TRF and round sheets: {folder}")
    return 0


def add_arguments(v: argparse.ArgumentParser) -> None:
    v.add_argument("--out", help="a new (empty) folder for everything (default: a new temporary "
                                 "folder, printed)")
    v.add_argument("--seed", type=int, default=2026, help="the players' dice (same seed, same "
                                                          "evening)")
    v.add_argument("--host", default="127.0.0.1", help="the page's address")
    v.add_argument("--port", type=int, default=8470, help="the page's port (0: any free one)")
    v.add_argument("--linger", type=float, default=0.0,
                   help="keep the page up this many seconds after the last round")
