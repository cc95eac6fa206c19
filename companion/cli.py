"""The `companion` command line. The only place that chooses between real and mock backends."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from companion import __version__, oserrors
from companion.config import config_for_command
from companion.i18n import N_, _
from companion.scenario import MalformedInput


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.simulate import load, simulator_for

    try:
        loaded = load(args.file)
        sim = simulator_for(loaded.scenario.game)
        result = sim.simulate(loaded.scenario.header, loaded.scenario.events)
    except MalformedInput as exc:
        print(f"companion simulate: {args.file}: {exc}", file=sys.stderr)
        return 2
    for note in loaded.notes:
        print(f"companion simulate: {args.file}: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(sim.summary(result))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from companion.arbiter.signing import arbiter_key_path, keyring_path
    from companion.keys import KeyFileError, Keyring, PublicKey
    from companion.verify import verify_path
    from companion.verify_words import in_words

    key = keyring = None
    arbiter: tuple[PublicKey, ...] = ()
    try:
        cfg = config_for_command(args.config)
        if args.key:
            key = PublicKey.from_file_or_line(args.key)
        else:
            keyring = Keyring.load(args.keyring or keyring_path(cfg))
        if args.arbiter_key:
            arbiter = (PublicKey.from_file_or_line(args.arbiter_key),)
        else:  # on the arbiter's laptop, his own key (the public half is enough)
            from companion.keys import public_path

            own = public_path(arbiter_key_path(cfg))
            if own.is_file():
                arbiter = (PublicKey.from_file_or_line(str(own)),)
    except KeyFileError as exc:
        print(f"companion verify: {in_words(str(exc))}", file=sys.stderr)
        return 2
    try:
        verdict = verify_path(
            args.file, key=key, keyring=keyring, against=args.against, arbiter_keys=arbiter
        )
    except OSError as exc:
        print(f"companion verify: {exc.filename or args.file}: {oserrors.problem(exc)}",
              file=sys.stderr)
        return 2
    except MalformedInput as exc:  # a line beyond the readers' limits
        print(f"companion verify: {args.file}: {in_words(str(exc))}", file=sys.stderr)
        return 2
    except ValueError as exc:  # a station record that cannot be read
        print(f"companion verify: {in_words(str(exc))}", file=sys.stderr)
        return 2
    print(verdict.report())
    return 0 if verdict.ok else 1


def cmd_config(args: argparse.Namespace) -> int:
    from companion import config

    if args.print_default:
        print(config.DEFAULT_TOML, end="")
        return 0
    try:
        cfg = config.load(args.config)
    except config.ConfigError as exc:
        print(f"companion config: {exc}", file=sys.stderr)
        return 2
    import tomli_w

    print(tomli_w.dumps(cfg), end="")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from pathlib import Path

    from companion.clock import MonotonicClock
    from companion.daemon import serve

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = config_for_command(args.config)
    backend = args.backend or str(cfg["table"]["backend"])
    journal_dir = Path(args.journal_dir or cfg["table"]["journal_dir"])
    from companion.config import ConfigError, keep_stored_sections
    from companion.tablekey import key_path

    try:
        for note in keep_stored_sections(
            cfg, args.config, key_path(cfg, journal_dir).parent / "settings.json"
        ):
            logging.warning("config: %s", note)
    except (ConfigError, OSError) as exc:
        print(f"companion run: config: {exc}", file=sys.stderr)
        return 2
    if backend == "desktop":
        from companion.desktop import main as desktop_main

        return desktop_main(cfg, journal_dir)
    from gpiozero.exc import BadPinFactory

    from companion.hw.display import DisplayMissing
    from companion.keys import KeyFileError

    quiet_pin_fallbacks()
    try:
        return asyncio.run(
            serve(
                cfg,
                backend=backend,
                journal_dir=journal_dir,
                clock=MonotonicClock(),
                stdin_driver=args.pins_from_stdin,
                new_game=args.new_game,
            )
        )
    except KeyboardInterrupt:
        return 0
    except (DisplayMissing, KeyFileError) as exc:  # no display, or an unusable signing key
        print(f"companion run: {exc}", file=sys.stderr)
        return 2
    except BadPinFactory:
        needs = ("the hub reads the sensors, but the buzzer is on the Pi's GPIO"
                 if backend == "hub" else "not a Raspberry Pi, or lgpio missing")
        print(
            f"companion run: no GPIO on this machine ({needs}: see docs/install.md); "
            "try --backend mock or --backend desktop",
            file=sys.stderr,
        )
        return 2
    except OSError as exc:
        print(
            f"companion run: {exc.filename or ''}: {oserrors.problem(exc)} "
            "(the journal folder, a GPIO chip, the I2C bus or the hub's port; "
            "see docs/install.md)",
            file=sys.stderr,
        )
        return 2


def quiet_pin_fallbacks() -> None:
    """gpiozero warns once for every pin library it tries and cannot load (four warnings with
    their source lines on a laptop) before it gives up: those go to the debug log, and the
    command says in one line what is missing. Other warnings are shown as before."""
    import logging
    import warnings

    from gpiozero.exc import PinFactoryFallback

    shown = warnings.showwarning
    if getattr(shown, "pin_fallbacks_quiet", False):
        return

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if issubclass(category, PinFactoryFallback):
            logging.getLogger("gpiozero").debug("%s", message)
        else:
            shown(message, category, filename, lineno, file, line)

    show.pin_fallbacks_quiet = True  # type: ignore[attr-defined]
    warnings.showwarning = show


def cmd_hub(args: argparse.Namespace) -> int:
    import os
    import stat

    from companion.hub.__main__ import main as hub_main

    try:
        is_device = stat.S_ISCHR(os.stat(args.port).st_mode)
    except OSError:
        is_device = False
    if not is_device:
        print(f"companion hub: {args.port}: " + _(
            "no such serial device (is the hub plugged in? `ls /dev/ttyACM*` lists the "
            "candidates)"), file=sys.stderr)
        return 2
    rc = hub_main([args.action, args.port])
    return int(rc or 0)


def _language(text: str) -> str:
    from companion import i18n

    try:
        return i18n.check(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("no catalog for language {language}: choose {choices}").format(
                language=repr(text), choices=", ".join(i18n.LANGUAGES))) from None


def _option_values(argv: Sequence[str], option: str) -> list[str]:
    """What ``option`` is given in ``argv`` (``--lang fr`` or ``--lang=fr``), in order; what
    follows ``--`` is not an option."""
    values = []
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == option and i + 1 < len(argv):
            values.append(argv[i + 1])
        elif word.startswith(option + "="):
            values.append(word[len(option) + 1:])
    return values


def language_of(argv: Sequence[str]) -> str | None:
    """The language ``--help`` and argparse's refusals speak, chosen before the parsers are
    built (their help is translated as they are built): as the command chooses it, ``--lang``
    anywhere in ``argv`` (the last one, as argparse keeps it), then the ``[table] language`` of
    the config (``--config`` or the default one), then None: the environment's.

    An unknown ``--lang`` is passed over here; argparse refuses it in one line, as before. A
    config that cannot be read is passed over too: the command that reads it says why."""
    from companion import config, i18n

    for value in reversed(_option_values(argv, "--lang")):
        try:
            return i18n.check(value)
        except ValueError:
            break
    paths = _option_values(argv, "--config")
    try:
        language = str(config.load(paths[-1] if paths else None)["table"]["language"])
    except (config.ConfigError, OSError):
        return None
    return language or None


LANG_HELP = N_("the players' language: en, fr or cs (default: [table] language, then LANG)")


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on ``parser`` and every command under it (``companion demo --lang fr`` and
    ``companion --lang fr demo`` both work)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                if "--lang" not in child._option_string_actions:
                    child.add_argument("--lang", type=_language, default=argparse.SUPPRESS,
                                       help=_(LANG_HELP))
                _add_lang(child)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, every help and description in the players' language.

    They are translated with ``_()`` as the parsers are built, not marked with ``N_`` and
    translated when help is printed: a command line builds its parsers once, after
    :func:`main` has chosen the language (:func:`language_of`), argparse prints a help string
    as it is (no formatter hook to translate it on the way), and the game kinds' own commands
    are added by code that knows nothing of a later translation step. Built again after
    another :func:`companion.i18n.use`, the parsers speak the new language. A help keeps
    argparse's ``%(default)s`` placeholders (argparse %-formats it), so a translation keeps
    them too and writes a literal percent sign as ``%%``; ``tests/test_help_translated.py``
    checks both. argparse's own words (``usage:``, its refusals) come from the same catalogs
    (:func:`companion.i18n.argparse_speaks`)."""
    from companion import i18n

    i18n.argparse_speaks()
    parser = argparse.ArgumentParser(
        prog="companion",
        description=_("Keeps a Tamsk, Tantrix or Tokami table honest, timed and recorded."),
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}",
                        help=_("show program's version number and exit"))  # argparse's words
    parser.add_argument("--lang", type=_language, help=_(LANG_HELP))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("simulate", help=_("run a scenario file or journal through the rules"))
    p.add_argument("file", help=_("a .jsonl scenario or a game journal"))
    p.add_argument("--json", action="store_true",
                   help=_("print the final state as one JSON object"))
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("run", help=_("run the table daemon"))
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.add_argument("--backend", choices=["pi", "hub", "mock", "desktop"])
    p.add_argument("--journal-dir", help=_("where journals go (default from the config)"))
    p.add_argument("--new-game", action="store_true", help=_("do not resume an unfinished game"))
    p.add_argument(
        "--pins-from-stdin",
        action="store_true",
        help=_("mock backend: drive the mock pins from JSON lines on stdin (tests)"),
    )
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("hub", help=_("the sensor hub: monitor its events, or hand it to its REPL"))
    p.add_argument("action", choices=["monitor", "repl"])
    p.add_argument("port", help=_("e.g. /dev/ttyACM0"))
    p.set_defaults(func=cmd_hub)

    p = sub.add_parser("config", help=_("show the configuration"))
    p.add_argument("--print-default", action="store_true", help=_("the built-in defaults as TOML"))
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.set_defaults(func=cmd_config)

    p = sub.add_parser("verify", help=_("check a journal's chain, signatures and rules"))
    p.add_argument("file", help=_("a game journal (.jsonl)"))
    p.add_argument("--key", help=_("the table's public key: a .pub file or the line "
                   "`companion keys show` prints (default: the arbiter's enrolled keys)"))
    p.add_argument("--keyring", help=_("the arbiter's keyring (default from the config)"))
    p.add_argument("--arbiter-key", help=_("the arbiter's public key, for corrections he "
                   "appended on his laptop (default: this laptop's own arbiter key)"))
    p.add_argument("--config", help=_("config file (for the keyring's place)"))
    p.add_argument("--against", metavar="STATION_RECORD",
                   help=_("the arbiter station's record of the table: is the journal whole?"))
    p.set_defaults(func=cmd_verify)

    from companion.keymap import add_command as add_keys_command
    from companion.keys_cli import add_verbs as add_key_verbs

    # "keys": the key map (--help prints it); "keys init|show": the table's signing key
    add_key_verbs(add_keys_command(sub))

    from companion.newgame import add_parser as add_new_game_parser

    add_new_game_parser(sub)

    from companion.replay.cli import add_parsers as add_replay_parsers

    add_replay_parsers(sub)  # "replay" and "notation"

    from companion.archive import add_commands as add_archive_commands

    add_archive_commands(sub)  # "archive"

    from companion.arbiter.cli import add_commands as add_arbiter_commands

    add_arbiter_commands(sub)  # "arbiter ..." and "dispute"

    from companion.tournament.cli import add_commands as add_tournament_commands

    add_tournament_commands(sub)  # "tournament ..."

    from companion import registry

    for kind in registry.kinds().values():  # each game's own commands
        kind.add_commands(sub)
    _add_lang(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from companion import i18n

    args: argparse.Namespace | None = None
    try:
        i18n.use(language_of(sys.argv[1:] if argv is None else argv))  # --help's language
        parser = build_parser()
        args = parser.parse_args(argv)
        i18n.use(args.lang)  # None: the environment's, until a config names one
        rc: int = args.func(args)
    except BrokenPipeError:  # e.g. `companion simulate x | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:  # Ctrl-C at a prompt, while lines are typed, or at any time
        print(f"\n{_prog(args)}: " + i18n._("stopped (Ctrl-C)"), file=sys.stderr)
        return INTERRUPTED
    except EOFError:  # the end of input where a command asks a question
        print(f"{_prog(args)}: " + i18n._("no answer (end of input)"), file=sys.stderr)
        return 2
    return rc


#: The exit status after Ctrl-C (128 + SIGINT, as the shell reports a process it interrupted).
INTERRUPTED = 130


def _prog(args: argparse.Namespace | None) -> str:
    """``companion arbiter enroll``: the command's name, as its messages begin."""
    words = [getattr(args, key, None) for key in ("command", "verb", "subverb")]
    return " ".join(["companion", *(str(w) for w in words if isinstance(w, str))])


if __name__ == "__main__":
    sys.exit(main())
