"""``companion new-game``: a new game of any kind at a table, and the table pointed at it.

The new journal is written first (so a full disk leaves the game in play untouched); then the
game it replaces is ended in its own journal (``end`` at its last time: the rules give the
result, or none) and the table's ``current`` pointer (:mod:`companion.current`) is switched.
When a daemon is running the table, it holds the journal's writer, so the pointer only records
which game to end, and the daemon ends it itself on ``systemctl reload companion``.

Journals must belong to the service user: one written by root cannot be appended to by the
daemon. Run as root, the command becomes the service user (``companion``, created by
``systemd/companion.sysusers.conf``) before it touches a file, or refuses and prints the exact
command to use instead (``--as-root`` keeps root: a folder no service appends to).
"""

from __future__ import annotations

import argparse
import os
import pwd
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import oserrors
from companion.i18n import _

#: The daemon's system user (systemd/companion.sysusers.conf, User= in companion.service).
SERVICE_USER = "companion"


def become_service_user(user: str | None = None) -> bool:
    """As root, become ``user`` for good (groups, gid, uid); True if the process now runs
    as a non-root user, False when ``user`` does not exist or cannot be taken."""
    if os.geteuid() != 0:
        return True
    try:
        entry = pwd.getpwnam(user or SERVICE_USER)
    except KeyError:
        return False
    if entry.pw_uid == 0:
        return False
    try:
        os.initgroups(entry.pw_name, entry.pw_gid)
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)
    except OSError:
        return False
    os.environ["HOME"] = entry.pw_dir
    return os.geteuid() == entry.pw_uid


def service_user_command(argv: Sequence[str], user: str | None = None) -> str:
    """The command a root user should type instead."""
    return shlex.join(["sudo", "-u", user or SERVICE_USER, "companion", *argv])


def _fail(message: str) -> int:
    print(f"companion new-game: {message}", file=sys.stderr)
    return 2


def cmd_new_game(args: argparse.Namespace) -> int:
    from companion import registry
    from companion.clock import MonotonicClock
    from companion.config import config_for_command
    from companion.current import (
        TableLock,
        end_game,
        game_to_resume,
        read_pointer,
        settle_previous,
        write_pointer,
    )

    if not args.as_root and not become_service_user():
        argv = list(getattr(args, "argv", None) or sys.argv[1:])
        return _fail(
            f"run as root, and the service user {SERVICE_USER!r} cannot be taken: its "
            f"journals must belong to it. Use: {service_user_command(argv)}"
        )
    cfg = config_for_command(args.config)
    try:
        kind = registry.get(args.game) if args.game else registry.configured(cfg)
    except registry.UnknownGame as exc:
        return _fail(str(exc))
    game = cfg.setdefault("game", {})
    game["kind"] = kind.name
    for key in ("level", "ruleset", "start"):
        if getattr(args, key, None) is not None:
            game[key] = getattr(args, key)
    if args.round is not None:
        game["round"] = args.round
    if args.table is not None:
        cfg["table"]["number"] = args.table
    players = _players(args)
    try:
        own_options = getattr(kind, "new_game_options", None)
        if own_options is not None:  # the game's own new-game options (not in GameKind)
            own_options(args, cfg)
        if players is not None:
            configure = getattr(kind, "configure_players", None)
            if configure is None:
                raise ValueError(f"{kind.title}: new-game takes no --players")
            configure(cfg, players)
        kind.validate_config(cfg)
    except ValueError as exc:  # ConfigError is a ValueError too
        return _fail(str(exc))
    table_no = int(cfg["table"]["number"])
    folder = Path(args.journal_dir or cfg["table"]["journal_dir"])
    configured = registry.configured(cfg).name
    lock = TableLock(folder, table_no)
    try:
        daemon_running = not lock.acquire()
        pointer = read_pointer(folder, table_no)
        in_play = folder / pointer.journal if pointer is not None else None
        if pointer is None:
            found = game_to_resume(folder, configured, table_no)
            in_play = found
        table: Any = kind.make_table(MonotonicClock(), folder, config=cfg)
        try:
            path = kind.start_from_config(table, cfg)
        finally:
            table.close()
    except ValueError as exc:
        lock.release()
        return _fail(str(exc))
    except OSError as exc:
        lock.release()
        return _fail(f"{exc.filename or folder}: {oserrors.problem(exc)}")
    try:
        if daemon_running:
            # The daemon holds the game in play: it ends it on reload. A game that a previous
            # new-game made and the daemon never opened has no writer: end it here.
            pending = pointer.previous if pointer is not None else None
            if pending is not None and in_play is not None and in_play.is_file():
                print(end_game(in_play), file=sys.stderr)
            to_end = pending if pending is not None else (in_play.name if in_play else None)
            write_pointer(folder, table_no, path, previous=to_end)
            hint = "the daemon takes it up (and ends the old game) on `systemctl reload companion`"
        else:
            pending = pointer.previous if pointer is not None else None
            if pending is not None and (folder / pending).is_file():
                print(end_game(folder / pending), file=sys.stderr)
            # Point at the new game first, the old one as still to end: if ending it fails
            # (a full disk), the daemon ends it when it starts.
            write_pointer(folder, table_no, path, previous=in_play.name if in_play else None)
            done = settle_previous(folder, table_no, src="new-game")
            if done:
                print(done, file=sys.stderr)
            hint = "the daemon takes it up when it starts (`systemctl start companion`)"
    except OSError as exc:
        return _fail(f"{exc.filename or folder}: {oserrors.problem(exc)}")
    finally:
        lock.release()
    print(path)
    if configured != kind.name:
        hint += f"; the config plays {configured}: it resumes this {kind.name} game all the same"
    print(hint, file=sys.stderr)
    return 0


def _players(args: argparse.Namespace) -> list[str] | None:
    if args.players is not None:
        return [p.strip() for p in args.players.split(",")]
    if args.red or args.black:
        return [args.red or "", args.black or ""]
    return None


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from companion import registry
    from companion.argtypes import table_number, whole

    p = sub.add_parser(
        "new-game",
        help=_("start a new game at a table (any kind): ends the one in play, points the table "
               "at it"),
    )
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.add_argument("--journal-dir", help=_("where journals go (default from the config)"))
    p.add_argument("--game", choices=registry.names(), help=_("the game (default from the config)"))
    p.add_argument(
        "--players",
        help=_("comma-separated, in seat order: two names (red, black), colours, or names"),
    )
    p.add_argument("--round", type=whole(1, what="a round"),
                   help=_("tournament round, recorded in the journal header"))
    p.add_argument("--table", type=table_number, help=_("table number (default from the config)"))
    p.add_argument("--level", type=int, choices=[1, 2, 3], help=_("hourglass game: level"))
    p.add_argument("--ruleset", choices=["adjusted", "original"], help=_("hourglass game: rules"))
    p.add_argument("--start", choices=["standard", "free"], help=_("hourglass game: start"))
    p.add_argument(
        "--as-root",
        action="store_true",
        help=_("run as root, write root-owned journals (a folder no service appends to: tests)"),
    )
    p.add_argument("--red", help=_("red player's name (same as the first of --players)"))
    p.add_argument("--black", help=_("black player's name"))
    for kind in registry.kinds().values():  # each game's own options
        add_options = getattr(kind, "add_new_game_options", None)
        if add_options is not None:
            add_options(p)
    p.set_defaults(func=cmd_new_game)
