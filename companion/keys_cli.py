"""``companion keys init|show``: the table's (or, ``--arbiter``, the arbiter's) signing key.

::

    companion keys init [--config F] [--journal-dir D] [--arbiter]
    companion keys show [--config F] [--journal-dir D] [--arbiter]

``show`` prints the public line (what the arbiter enrols: ``companion arbiter enroll``) and the
short fingerprint the table's screen shows, which the arbiter compares.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.config import config_for_command
from companion.i18n import _
from companion.keys import KeyFileError, SigningKey


def _key(args: argparse.Namespace, *, create: bool) -> tuple[SigningKey, bool]:
    config = config_for_command(args.config)
    if args.arbiter:
        from companion.arbiter.signing import arbiter_key, arbiter_key_path

        existed = arbiter_key_path(config).exists()
        return arbiter_key(config, create=create), not existed
    from companion.tablekey import key_path, load_or_init

    journal_dir = args.journal_dir or config["table"]["journal_dir"]
    path = key_path(config, journal_dir)
    existed = path.exists()
    return load_or_init(path, create=create), not existed


def _label(args: argparse.Namespace) -> str:
    if args.arbiter:
        return "arbiter"
    config = config_for_command(args.config)
    return f"table-{config['table']['number']}"


def cmd_init(args: argparse.Namespace) -> int:
    try:
        key, made = _key(args, create=True)
    except (KeyFileError, OSError) as exc:
        print(f"companion keys init: {exc}", file=sys.stderr)
        return 2
    if args.arbiter:
        done = _("made the arbiter's key: {file}") if made else _("kept the arbiter's key: {file}")
    else:
        done = _("made this table's key: {file}") if made else _("kept this table's key: {file}")
    print(done.format(file=key.path))
    print(key.public.line(_label(args)))
    print(_fingerprint(key.public))
    return 0


def _fingerprint(public: Any) -> str:
    return _("fingerprint: {short}  ({long})").format(short=public.short_fingerprint,
                                                      long=public.fingerprint)


def cmd_show(args: argparse.Namespace) -> int:
    try:
        key, _made = _key(args, create=False)
    except (KeyFileError, OSError) as exc:
        print(f"companion keys show: {exc}", file=sys.stderr)
        return 2
    print(key.public.line(_label(args)))
    print(_fingerprint(key.public))
    return 0


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.add_argument("--journal-dir",
                   help=_("the table's journal folder (default from the config)"))
    p.add_argument("--arbiter", action="store_true",
                   help=_("the arbiter's key (on the arbiter's laptop) instead of the "
                               "table's"))


def add_verbs(p: argparse.ArgumentParser) -> None:
    """``keys init`` and ``keys show`` under the ``keys`` command (which, with no verb, prints
    the key map of :mod:`companion.keymap`)."""
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    v = verbs.add_parser(
        "init", help=_("make the key (kept if it exists); print its public line"))
    _options(v)
    v.set_defaults(func=cmd_init)
    v = verbs.add_parser("show", help=_("print the public line and the short fingerprint"))
    _options(v)
    v.set_defaults(func=cmd_show)

