"""The arbiter's commands: ``companion arbiter ...`` and ``companion dispute``.

``companion/cli.py`` adds them with :func:`add_commands`; everything they need is imported when
the command runs, so ``companion simulate`` never loads paho-mqtt or the web server.

::

    companion arbiter [serve] [--config F] [--host H] [--port P] [--log-dir D] [--tournament T]
    companion arbiter broker-config DIR [--tables N] [--host NAME]...
    companion arbiter hash-pin [PIN]              (also: companion arbiter --hash-pin)
    companion arbiter sign JOURNAL [--dir D] [--config F]
    companion arbiter verify-result FILE [--journal J] [--config F]
    companion arbiter standings JOURNAL... [--dir D] [--csv OUT] [--trf OUT] [--html OUT]
    companion dispute JOURNAL --at TIME [--window SECONDS] [--dir D]

``sign``, ``standings`` and ``dispute`` read journals only through the one verified reader
(:mod:`companion.tournament.journals`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion import oserrors
from companion.i18n import _


def _config(path: str | None) -> dict[str, Any]:
    from companion import config

    try:
        return config.load(path)
    except config.ConfigError as exc:
        print(f"companion arbiter: config: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def speak(language: str) -> str:
    """The page's language: ``--lang`` when given, else ``language`` (``[arbiter] language``,
    else ``[table] language``), else the environment's (checked when the config was loaded)."""
    from companion import i18n

    return i18n.use(language or None, explicit=False)


def _key(path: str | None) -> bytes:
    from companion.arbiter.settings import ClubKeyError, arbiter_settings

    try:
        key = arbiter_settings(_config(path)).key()
    except ClubKeyError as exc:
        print(f"companion arbiter: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if key is None:
        print("companion arbiter: " + _("no [arbiter] club_key in the configuration"),
              file=sys.stderr)
        raise SystemExit(2)
    return key


def _ask_pin() -> str | None:
    """The PIN typed twice at a terminal (without echo), or one line from a pipe; None at the
    end of input, "" when the two typed PINs differ."""
    import getpass

    from companion.arbiter.pin import MAX_PIN_LENGTH

    try:
        if not sys.stdin.isatty():
            line = sys.stdin.readline()
            return line.strip() if line else None
        pin = getpass.getpass(_("arbiter PIN (4-{most} digits): ").format(most=MAX_PIN_LENGTH))
        return pin if getpass.getpass(_("again: ")) == pin else ""
    except EOFError:
        print(file=sys.stderr)  # getpass leaves the cursor after its prompt
        return None


def _arbiter_key(path: str | None) -> Any:
    """The arbiter's own key pair (made on first use), or exit 2 saying why."""
    from companion.arbiter.signing import arbiter_key
    from companion.keys import KeyFileError

    try:
        return arbiter_key(_config(path))
    except (KeyFileError, OSError) as exc:
        print(f"companion arbiter: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _arbiter_public(args: argparse.Namespace) -> Any:
    """The arbiter's public key: ``--key`` (file or line), else the arbiter's own key pair's."""
    from companion.arbiter.signing import arbiter_key
    from companion.keys import KeyFileError, PublicKey

    try:
        if getattr(args, "key", None):
            return PublicKey.from_file_or_line(args.key)
        return arbiter_key(_config(args.config), create=False).public
    except (KeyFileError, OSError) as exc:
        print(f"companion arbiter: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def cmd_hash_pin(args: argparse.Namespace) -> int:
    from companion.arbiter.pin import MAX_PIN_LENGTH, hash_pin, valid_pin

    pin = args.pin
    if pin is None:
        pin = _ask_pin()
        if pin is None:
            print("companion arbiter hash-pin: " + _("no PIN given (end of input)"),
                  file=sys.stderr)
            return 2
        if not pin:
            print("companion arbiter: " + _("the two PINs differ"), file=sys.stderr)
            return 2
    if not valid_pin(pin):
        print("companion arbiter: " + _("a PIN is 4 to {most} digits (the keypad has no "
                                        "letters)").format(most=MAX_PIN_LENGTH), file=sys.stderr)
        return 2
    value = hash_pin(pin)
    write = getattr(args, "write", None)
    if write:
        from companion.config import ConfigError, update_file

        try:
            update_file(write, "arbiter", {"pin_hash": value})
        except (ConfigError, OSError) as exc:
            print(f"companion arbiter hash-pin: {exc}", file=sys.stderr)
            return 2
        print("companion arbiter: " + _("the PIN's hash is now in {file} (mode 0600)").format(
            file=write))
        return 0
    print("[arbiter]")
    print(f'pin_hash = "{value}"')
    return 0


def _checked(args: argparse.Namespace, journal: str, name: str) -> Any:
    """The journal read by the one verified reader against the tournaments in ``--dir``
    (:func:`companion.tournament.journals.check_journal`), or exit saying why not."""
    from companion.i18n import say
    from companion.keys import KeyFileError
    from companion.tournament import store
    from companion.tournament.journals import check_journal, keys_from
    from companion.tournament.model import TournamentError

    config = _config(args.config)
    try:
        keys = keys_from(config, getattr(args, "key", None), getattr(args, "keyring", None))
        tournaments = []
        if store.tournament_files(args.dir):
            from companion.tournament.cli import arbiter_public

            tournaments = [t for t, _ in store.load_all(args.dir, arbiter_public(config))]
    except KeyFileError as exc:
        from companion.verify_words import in_words

        print(f"companion {name}: {in_words(str(exc))}", file=sys.stderr)
        raise SystemExit(2) from None
    except OSError as exc:
        print(f"companion {name}: {exc.filename or ''}: {oserrors.problem(exc)}", file=sys.stderr)
        raise SystemExit(2) from None
    except TournamentError as exc:
        print(f"companion {name}: {say(exc.message)}", file=sys.stderr)
        raise SystemExit(int(getattr(exc, "exit_code", 2))) from None
    return check_journal(journal, keys, tournaments)


def cmd_sign(args: argparse.Namespace) -> int:
    """Sign a finished game's result, once the verified reader accepts its journal: the chain,
    the table's signatures, the final record, and (a tournament game) the file's pairing."""
    from companion.arbiter.results import ResultError, write_signed
    from companion.i18n import say
    from companion.tournament.journals import OK, SKIPPED

    checked = _checked(args, args.journal, "arbiter sign")
    free = checked.status == SKIPPED and checked.skip == "no-tournament"
    if checked.status != OK and not free:
        print("companion arbiter sign: " + _("{problem}: not signed").format(
            problem=say(checked.line)), file=sys.stderr)
        return checked.exit_code or 1
    key = _arbiter_key(args.config)
    try:
        out = write_signed(args.journal, key)
    except (ResultError, OSError) as exc:
        print(f"companion arbiter sign: {exc}", file=sys.stderr)
        return 2
    print(out)
    return 0


def cmd_verify_result(args: argparse.Namespace) -> int:
    from companion.arbiter.results import verify_result

    verdict = verify_result(args.file, _arbiter_public(args), args.journal,
                            journal_check=lambda path: _journal_problem(args, path))
    print(verdict.report())
    return 0 if verdict.ok else 1


def _journal_problem(args: argparse.Namespace, path: str) -> str | None:
    """Why the verified reader refuses a result's journal (None: it does not)."""
    from companion.i18n import say
    from companion.tournament.journals import REFUSED, UNREADABLE

    checked = _checked(args, path, "arbiter verify-result")
    return say(checked.line) if checked.status in (REFUSED, UNREADABLE) else None


def cmd_enroll(args: argparse.Namespace) -> int:
    """Enrol a table's public key in the arbiter's keyring, once its fingerprint is compared."""
    from datetime import UTC, datetime

    from companion.arbiter.signing import keyring_path
    from companion.keys import KeyFileError, Keyring, PublicKey

    try:
        key = PublicKey.from_file_or_line(args.key)
        ring = Keyring.load(args.keyring or keyring_path(_config(args.config)))
    except (KeyFileError, OSError) as exc:
        print(f"companion arbiter enroll: {exc}", file=sys.stderr)
        return 2
    print(_("table {table}: {key}").format(table=args.table, key=key.line()))
    print(_("fingerprint: {short}  ({long})").format(short=key.short_fingerprint,
                                                     long=key.fingerprint))
    if args.fingerprint is not None:
        given = args.fingerprint.strip()
        if given.upper() not in (key.short_fingerprint, key.fingerprint.upper()):
            print("companion arbiter enroll: " + _(
                "the fingerprint {given!r} is not this key's ({short}): not enrolled").format(
                given=given, short=key.short_fingerprint), file=sys.stderr)
            return 1
    else:
        try:
            answer = input(_("Does table {table}'s screen show {short}? [y/N] ").format(
                table=args.table, short=key.short_fingerprint))
        except (EOFError, KeyboardInterrupt) as exc:
            why = "Ctrl-C" if isinstance(exc, KeyboardInterrupt) else _("end of input")
            print("\ncompanion arbiter enroll: " + _("no answer ({why}): not enrolled").format(
                why=why), file=sys.stderr)
            return 130 if isinstance(exc, KeyboardInterrupt) else 2
        if answer.strip().lower() not in ("y", "yes", _("y"), _("yes")):
            print("companion arbiter enroll: " + _("not enrolled"), file=sys.stderr)
            return 1
    when = datetime.now(UTC).isoformat(timespec="seconds")
    try:
        ring.enroll(str(args.table), key, when, replace=args.replace)
        ring.save()
    except (KeyFileError, OSError) as exc:
        print(f"companion arbiter enroll: {exc}", file=sys.stderr)
        return 1
    print(_("enrolled table {table} in {file}").format(table=args.table, file=ring.path))
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    """The one ranking: ``companion tournament standings --journals`` (the same code), for the
    tournaments in ``--dir`` the journals' headers name."""
    from companion.tournament import cli as tournament_cli

    journals = []
    for name in args.files:
        if name.endswith(".result.json"):
            print(f"companion arbiter standings: {name}: " + _(
                "a signed result is not a journal: give its journal (standings come from the "
                "tournament file and the verified journals)"), file=sys.stderr)
            continue
        journals.append(name)
    if not journals:
        return 2
    ns = argparse.Namespace(tournament=args.tournament or None, journals=journals,
                            dir=args.dir, config=args.config, arbiter_key=None,
                            key=args.key, keyring=args.keyring, round=args.round,
                            csv=args.csv, html=args.html, trf=args.trf)
    return tournament_cli._guard(tournament_cli.cmd_standings)(ns)


def cmd_serve(args: argparse.Namespace) -> int:
    import logging
    import threading

    from companion.arbiter.client import ArbiterClient
    from companion.arbiter.mqtt import MqttMissing
    from companion.arbiter.settings import arbiter_settings, mqtt_settings
    from companion.arbiter.signing import arbiter_key_path, data_dir, keyring_path
    from companion.arbiter.tails import TailStore
    from companion.arbiter.web import ArbiterServer
    from companion.keys import KeyFileError, Keyring, SigningKey

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    config = _config(args.config)
    from companion.folders import cannot_write

    if args.log_dir and (problem := cannot_write(Path(args.log_dir))) is not None:
        print(f"companion arbiter: --log-dir {args.log_dir}: {problem}", file=sys.stderr)
        return 2
    if not 1 <= args.port <= 65535:
        print("companion arbiter: " + _("--port must be 1-65535, got {port}").format(
            port=args.port), file=sys.stderr)
        return 2
    mqtt = mqtt_settings(config)
    settings = arbiter_settings(config)
    speak(settings.language or str(config.get("table", {}).get("language", "")))
    if (problem := cannot_write(Path(args.dir))) is not None:
        print(f"companion arbiter: --dir {args.dir}: {problem}", file=sys.stderr)
        return 2
    try:
        ring_path = keyring_path(config)
        keyring = Keyring.load(ring_path) if ring_path.exists() else None
        key_path = arbiter_key_path(config)
        signing_key = SigningKey.load(key_path) if key_path.exists() else None
    except KeyFileError as exc:
        print(f"companion arbiter: {exc}", file=sys.stderr)
        return 2
    if keyring is None:
        print("companion arbiter: " + _(
            "no keyring at {file}: every table will show as unverified (enrol them: "
            "companion arbiter enroll)").format(file=ring_path), file=sys.stderr)
    if signing_key is None:
        print("companion arbiter: " + _(
            "no arbiter key at {file}: the page cannot send corrections (companion keys init "
            "--arbiter)").format(file=key_path), file=sys.stderr)
    from companion.tournament.inbox import JournalInbox
    from companion.tournament.journals import Keys

    # Each table's journal is kept on the laptop as it arrives; a finished game's result goes
    # into its tournament file once the verified reader accepts it (companion.tournament.inbox).
    own = (signing_key.public,) if signing_key is not None else ()
    inbox = JournalInbox(Path(args.dir), Keys(keyring=keyring, arbiter=own), signing_key)
    try:
        # The page starts from what it last verified of each table (kept on this laptop), so
        # retained messages overwritten on the broker meanwhile cannot blind it.
        client = ArbiterClient(mqtt, keyring=keyring, retained=Path(args.retained_dir)
                               if args.retained_dir else data_dir() / "retained")
        # The station keeps each table's last (seq, hash): `companion verify --against`.
        tails = TailStore(Path(args.tails_dir) if args.tails_dir else data_dir() / "tails")

        def applied(table: int, game: str, record: dict[str, Any]) -> None:
            tails.saw(table, game, record)
            inbox.saw(table, game, record)

        client.view.on_applied = applied
        inbox.start()
        client.start()
    except MqttMissing as exc:
        inbox.stop()
        print(f"companion arbiter: {exc}", file=sys.stderr)
        return 2
    try:
        server = ArbiterServer(
            client,
            settings,
            signing_key=signing_key,
            host=args.host,
            port=args.port,
            log_dir=Path(args.log_dir) if args.log_dir else None,
            tournament=args.tournament,
            tournament_file=Path(args.tournament_file) if args.tournament_file else None,
            allowed_hosts=tuple(args.allow_host),
            tournament_dir=Path(args.dir),
            inbox=inbox,
        ).start()
    except OSError as exc:
        client.stop()
        inbox.stop()
        print("companion arbiter: " + _("cannot serve on {host}:{port}: {problem}").format(
            host=args.host, port=args.port, problem=oserrors.problem(exc)), file=sys.stderr)
        return 2
    print("companion arbiter: " + _(
        "broker {host}:{port}; the page is {url} (the arbiter's: /arbiter)").format(
        host=mqtt.host, port=mqtt.port, url=f"http://{args.host}:{server.port}/"), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        client.stop()
        inbox.stop()
    return 0


def cmd_broker_config(args: argparse.Namespace) -> int:
    from companion.arbiter.brokerconfig import write_broker_config

    if args.tables < 1:
        print("companion arbiter broker-config: " + _("--tables must be at least 1"),
              file=sys.stderr)
        return 2
    try:
        setup = write_broker_config(args.dir, range(1, args.tables + 1), hosts=args.host,
                                    tls_port=args.tls_port, local_port=args.local_port,
                                    run_as=args.user)
    except (OSError, ValueError) as exc:
        print(f"companion arbiter broker-config: {exc}", file=sys.stderr)
        return 2
    print(_("broker: {command}").format(command=f"mosquitto -c {setup.conf}"))
    print(_("club CA (copy to every table as /etc/companion/club-ca.crt): {file}").format(
        file=setup.ca_file))
    print(_("each table's [mqtt] section: {file}").format(
        file=f"{setup.folder / 'tables'}/table-N.toml"))
    print(_("the arbiter's: {file}").format(file=setup.folder / "tables" / "arbiter.toml"))
    return 0


def cmd_arbiter(args: argparse.Namespace) -> int:
    if args.hash_pin:
        args.pin = None
        return cmd_hash_pin(args)
    return cmd_serve(args)


def cmd_dispute(args: argparse.Namespace) -> int:
    from companion.arbiter.dispute import DisputeError, account, trust_line

    checked = _checked(args, args.file, "dispute")
    try:
        print(account(args.file, args.at, window=args.window, checked=checked))
        if not trust_line(checked)[1]:
            return 1
    except DisputeError as exc:
        print(f"companion dispute: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # `companion dispute ... | head`: the command line ends it quietly
    except OSError as exc:
        print(f"companion dispute: {args.file}: {oserrors.problem(exc)}", file=sys.stderr)
        return 2
    return 0


def _serve_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to serve on (0.0.0.0 for spectators on the LAN)"))
    p.add_argument("--port", type=int, default=8470)
    p.add_argument("--log-dir", help=_("where arbiter-log.jsonl (every command) is kept"))
    p.add_argument("--tournament", default="", help=argparse.SUPPRESS)
    p.add_argument("--dir", default=".", help=_("the arbiter's folder: the tournament files "
                   "(every one is shown) and journals/, where the tables' journals are kept "
                   "as they arrive (default .)"))
    p.add_argument("--tournament-file", help=_("one more tournament file to show"))
    p.add_argument("--tails-dir", help=_("where each table's last (seq, hash) is kept, for "
                   "`companion verify --against` (default ~/.local/share/companion/arbiter/tails)"))
    p.add_argument("--retained-dir", help=_("where the page keeps each table's last verified "
                   "status, state and results across its restarts "
                   "(default ~/.local/share/companion/arbiter/retained)"))
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help=_("a name the page is reached by, besides addresses and this machine's "
                        "own names (repeatable)"))


def add_commands(sub: Any) -> None:
    """Add ``arbiter`` and ``dispute`` to the ``companion`` command's subparsers."""
    from companion.argtypes import port, seconds, table_number, whole

    p = sub.add_parser("arbiter", help=_("the arbiter's page, PIN hash, signed results, standings"))
    _serve_options(p)
    p.add_argument("--hash-pin", action="store_true", help=_("print the hash of a PIN and exit"))
    p.set_defaults(func=cmd_arbiter)
    verbs = p.add_subparsers(dest="verb", metavar="VERB")

    v = verbs.add_parser("serve", help=_("show every table live (the default)"))
    _serve_options(v)
    v.set_defaults(func=cmd_serve)

    v = verbs.add_parser("hash-pin",
                         help=_("the salted scrypt hash of a PIN for [arbiter] pin_hash"))
    v.add_argument("pin", nargs="?", help=_("the PIN (asked for when left out)"))
    v.add_argument("--write", metavar="CONFIG",
                   help=_("put it into this config file (atomically, mode 0600) instead of "
                          "printing"))
    v.set_defaults(func=cmd_hash_pin)

    v = verbs.add_parser("enroll", help=_("trust a table's key once its fingerprint is compared"))
    v.add_argument("table", type=table_number,
                   help=_("the table's number (as its journal header names it)"))
    v.add_argument("key", help=_("the table's public key: the line `companion keys show` prints, "
                   "or its .pub file"))
    v.add_argument("--fingerprint", help=_("compare with this fingerprint (as the table's screen "
                   "shows it) instead of asking"))
    v.add_argument("--replace", action="store_true", help=_("replace the table's enrolled key"))
    v.add_argument("--keyring", help=_("the keyring file (default from the config)"))
    v.add_argument("--config")
    v.set_defaults(func=cmd_enroll)

    v = verbs.add_parser("broker-config", help=_("write a locked mosquitto setup for the club"))
    v.add_argument("dir", help=_("a new folder for mosquitto.conf, passwords, ACL and the CA"))
    v.add_argument("--tables", type=whole(1, what="the number of tables"), default=12,
                   help=_("tables 1..N get a user (default 12)"))
    v.add_argument("--host", action="append", default=[],
                   help=_("the broker's name or address on the club's network (repeatable)"))
    v.add_argument("--tls-port", type=port, default=8883)
    v.add_argument("--local-port", type=port, default=1883)
    v.add_argument("--user", default="mosquitto", help=_("the user mosquitto runs as"))
    v.set_defaults(func=cmd_broker_config)

    def verified(v: argparse.ArgumentParser, *, key: bool = True) -> None:
        """The options of the verified reader of journals."""
        v.add_argument("--dir", default=".", help=_("where the tournament files are (a game of "
                       "a tournament is checked against its pairing; default .)"))
        if key:
            v.add_argument("--key", help=_("the table's public key (default: the arbiter's "
                           "keyring of enrolled tables)"))
        v.add_argument("--keyring", help=_("the arbiter's keyring (default from the config)"))
        v.add_argument("--config")

    v = verbs.add_parser("sign", help=_("sign a finished game's result with the arbiter's key "
                         "(once its journal is verified)"))
    v.add_argument("journal", help=_("the game's journal"))
    verified(v)
    v.set_defaults(func=cmd_sign)

    v = verbs.add_parser("verify-result", help=_("check a signed result (and its journal)"))
    v.add_argument("file", help=_("a .result.json file"))
    v.add_argument("--journal", help=_("the journal it came from (default: beside it)"))
    v.add_argument("--key", help=_("the arbiter's public key (default: this laptop's own)"))
    verified(v, key=False)
    v.set_defaults(func=cmd_verify_result)

    v = verbs.add_parser("standings", help=_("the same as `companion tournament standings "
                         "--journals`: the tournaments' standings, results from the journals"))
    v.add_argument("files", nargs="+", help=_("finished games' journals (or folders of them)"))
    v.add_argument("--tournament", default="", help=_("the tournament (default: the ones the "
                   "journals name, in --dir)"))
    v.add_argument("--csv", help=_("write the standings as CSV here"))
    v.add_argument("--trf", help=_("write FIDE TRF-2016 here"))
    v.add_argument("--html", help=_("write printable standings here"))
    v.add_argument("--round", type=whole(1, what="a round"), help=_("after this round"))
    verified(v)
    v.set_defaults(func=cmd_standings)

    p = sub.add_parser("dispute", help=_("what happened around one moment of a game"))
    p.add_argument("file", help=_("a game's journal (of a game that tells disputes)"))
    p.add_argument("--at", required=True,
                   help=_("seconds (212.5), game clock (3:32.5) or time of day (14:03:12)"))
    p.add_argument("--window", type=seconds, default=20.0,
                   help=_("seconds each side (default 20)"))
    verified(p)
    p.set_defaults(func=cmd_dispute)
