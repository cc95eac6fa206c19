"""`companion archive --before DATE`: old finished journals into one compressed tarball.

A season leaves thousands of journals in the folder. Start-up opens only the current game's,
but the folder still grows; this moves the finished journals last
written before ``DATE`` (with their ``.torn`` and ``.quarantine`` files) into
``archive-before-DATE-NOW.tar.xz`` in the same folder. The tarball is written, synced, then read
back and every member compared byte for byte (SHA-256) with the file on disk; only then are the
files removed. A game not over is never archived.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import sys
import tarfile
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO

from companion import journal, registry
from companion.files import fsync_dir
from companion.i18n import _

log = logging.getLogger(__name__)

#: Files kept beside a journal that go with it.
SIBLINGS = (journal.TORN_SUFFIX, journal.QUARANTINE_SUFFIX)


class ArchiveError(Exception):
    """The archive could not be written or did not read back the same: nothing was removed."""


@dataclass
class Plan:
    """What an archive run would move, and what it leaves (and why)."""

    journals: list[Path] = field(default_factory=list)
    left: list[tuple[Path, str]] = field(default_factory=list)

    def files(self) -> list[Path]:
        out = []
        for path in self.journals:
            out.append(path)
            out += [s for s in (path.with_name(path.name + x) for x in SIBLINGS) if s.exists()]
        return out


def plan(folder: Path, before: date) -> Plan:
    """The finished journals in ``folder`` last written before ``before`` (UTC)."""
    cutoff = datetime(before.year, before.month, before.day, tzinfo=UTC).timestamp()
    found = Plan()
    for path in sorted(folder.glob("*.jsonl")):
        try:
            if path.stat().st_mtime >= cutoff:
                continue
        except OSError:
            continue
        why = _not_finished(path)
        if why is None:
            found.journals.append(path)
        else:
            found.left.append((path, why))
    return found


def _not_finished(path: Path) -> str | None:
    """None when the game in ``path`` is over; else why it stays."""
    try:
        with open(path, "rb") as stream:
            scan = journal.Scan(stream)
            header = scan.journal.header
            if header is None:
                return "no intact header (see companion verify)"
            kind = registry.get(str(header.get("game")))
            state = kind.simulate(header, scan)
    except OSError as exc:
        return f"cannot read: {exc.strerror}"
    except registry.UnknownGame:
        return "a game this software does not know"
    except Exception as exc:  # a journal that does not fold is left where it is
        return f"does not fold: {exc}"
    return None if kind.is_over(state) else "the game is not over"


def _sha256(stream: IO[bytes]) -> str:
    h = hashlib.sha256()
    while chunk := stream.read(1 << 20):
        h.update(chunk)
    return h.hexdigest()


def write(folder: Path, files: list[Path], before: date, now: datetime) -> Path:
    """Write and check the tarball; ArchiveError (and no tarball) if it does not read back."""
    target = folder / f"archive-before-{before:%Y%m%d}-{now:%Y%m%d-%H%M%S}.tar.xz"
    expected = {}
    try:
        with open(target, "xb") as raw:
            with tarfile.open(fileobj=raw, mode="w:xz") as tar:
                for path in files:
                    with open(path, "rb") as f:
                        expected[path.name] = _sha256(f)
                    tar.add(path, arcname=path.name, recursive=False)
            raw.flush()
            os.fsync(raw.fileno())
        _check(target, expected)
    except (OSError, tarfile.TarError, ArchiveError) as exc:
        target.unlink(missing_ok=True)
        raise ArchiveError(f"{target.name}: {exc}") from None
    return target


def _check(target: Path, expected: dict[str, str]) -> None:
    """Read the tarball back: every file there, each the same bytes as on disk."""
    seen = {}
    with tarfile.open(target, mode="r:xz") as tar:
        for member in tar:
            f = tar.extractfile(member)
            if f is None:
                raise ArchiveError(f"{member.name} is not a file in the archive")
            seen[member.name] = _sha256(f)
    if seen != expected:
        raise ArchiveError("the archive does not read back the same as the files on disk")


def archive(folder: Path, before: date, now: datetime) -> tuple[Path | None, Plan]:
    """Archive the finished journals of ``folder`` written before ``before``; the tarball (None
    when there was nothing to move) and the plan carried out."""
    found = plan(folder, before)
    files = found.files()
    if not files:
        return None, found
    target = write(folder, files, before, now)
    for path in files:
        path.unlink()
    fsync_dir(folder)
    return target, found


def cmd_archive(args: argparse.Namespace) -> int:
    from companion.config import config_for_command

    try:
        before = date.fromisoformat(args.before)
    except ValueError:
        print(f"companion archive: --before {args.before!r}: not a date", file=sys.stderr)
        return 2
    folder = Path(args.journal_dir or config_for_command(args.config)["table"]["journal_dir"])
    if not folder.is_dir():
        print(f"companion archive: {folder}: no such folder", file=sys.stderr)
        return 2
    try:
        target, found = archive(folder, before, datetime.now(UTC))
    except ArchiveError as exc:
        print(f"companion archive: nothing removed: {exc}", file=sys.stderr)
        return 2
    for path, why in found.left:
        print(f"left {path.name}: {why}")
    if target is None:
        print(f"no finished journal written before {before} in {folder}")
    else:
        print(f"archived {len(found.journals)} journal(s) into {target} (read back and checked)")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("archive", help=_("move old finished journals into a checked tarball"))
    p.add_argument("--before", required=True, help=_("journals last written before this date"))
    p.add_argument("--journal-dir", help=_("the journal folder (default from the config)"))
    p.add_argument("--config", help=_("config file (default /etc/companion/config.toml)"))
    p.set_defaults(func=cmd_archive)
