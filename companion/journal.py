"""The game journal: one append-only JSON Lines file per game, hash-chained and fsynced.

Line 1 is the header (game, level, rules, calibration, names, table, software); every later line
is one input event exactly as the scenario contract writes it, so ``companion simulate`` reads a
journal like any scenario. Each record also carries:

``seq``
    its position (the header is 0);
``prev``
    the SHA-256 of the previous record (64 zeros for the header);
``hash``
    the SHA-256 of the record's own canonical text without ``hash`` and ``sig``;
``sig``
    (a signed journal: the header names its ``signer``) the table's Ed25519 signature of
    ``hash``, base64. Since ``hash`` covers ``prev``, each signature vouches for the record
    and for everything before it; because every record carries its own, a power cut can
    never leave an acknowledged record uncovered. Checking: :func:`signature_problem`.

Records are written in canonical form (compact JSON, keys in written order), so any edit,
deletion, insertion or reordering breaks either the canonical form, a ``hash`` or a ``prev``,
and :func:`verify_bytes` says where. A power cut can leave the last line torn: reading drops it
with a note and loses nothing before it, and :meth:`JournalWriter.resume` keeps the torn bytes
beside the journal (``FILE.torn``) before it cuts them off and appends again.

Durability: :meth:`JournalWriter.append` returns only after the line is on disk
(``os.write`` then ``os.fsync``), so a caller may acknowledge the input once it returns.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from companion import lines
from companion.lines import MalformedInput

if TYPE_CHECKING:
    from companion.keys import PublicKey, SigningKey

GENESIS = "0" * 64
FORMAT = 1
SEAL_KEYS = ("seq", "prev", "hash", "sig")
#: The header field naming the key that signs every record (a ``companion-ed25519`` line).
SIGNER = "signer"
#: What a record signature covers is this prefix and the record's ``hash``: a signature made
#: for a journal can never be replayed as one for anything else the table signs.
SIG_DOMAIN = b"companion-journal-record\n"


def canonical(obj: Mapping[str, Any]) -> str:
    """The one text a record may have: compact JSON, UTF-8, keys in their order."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(
    body: Mapping[str, Any], seq: int, prev: str, signer: SigningKey | None = None
) -> tuple[str, str]:
    """The journal line for ``body`` (without newline) and its hash, signed by ``signer``.

    The record is JSON-encoded once: ``hash`` and ``sig`` are the last keys of the canonical
    form, so they are added to the encoded text instead of encoding the record again.
    """
    line, h, _ = _seal(body, seq, prev, signer)
    return line, h


def _seal(
    body: Mapping[str, Any], seq: int, prev: str, signer: SigningKey | None
) -> tuple[str, str, str | None]:
    if any(key in body for key in SEAL_KEYS):
        raise ValueError(f"a journal body may not set {', '.join(SEAL_KEYS)} itself")
    record = dict(body)
    record["seq"] = seq
    record["prev"] = prev
    text = canonical(record)
    h = digest(text)
    tail = f',"hash":"{h}"'
    sig = None
    if signer is not None:
        sig = sign_hash(signer, h)
        tail += f',"sig":"{sig}"'
    return text[:-1] + tail + "}", h, sig


def sign_hash(signer: SigningKey, h: str) -> str:
    """The base64 signature of one record's hash."""
    return base64.b64encode(signer.sign(SIG_DOMAIN + h.encode("ascii"))).decode("ascii")


def signature_problem(record: Mapping[str, Any], key: PublicKey) -> str | None:
    """Why ``record``'s ``sig`` is not ``key``'s signature of its ``hash`` (None: it is).

    Only the signature: that ``hash`` matches the record's content is the reader's check."""
    sig, h = record.get("sig"), record.get("hash")
    if sig is None:
        return "this record is not signed"
    if not isinstance(sig, str) or not isinstance(h, str):
        return "this record's signature is malformed"
    try:
        raw = base64.b64decode(sig, validate=True)
    except (binascii.Error, ValueError):
        return "this record's signature is malformed"
    if not key.verify(raw, SIG_DOMAIN + h.encode("ascii", "replace")):
        return "this record is not signed by the journal's key"
    return None


@dataclass
class Problem:
    """Something wrong in a journal, located by line number and byte offset."""

    line: int
    offset: int
    kind: str  # "torn", "not-json", "not-canonical", "hash", "chain", "seq", "header", "refused"
    message: str

    def __str__(self) -> str:
        return f"line {self.line} (byte {self.offset}): {self.message}"


@dataclass
class Journal:
    """What reading a journal found: the header, the event records, and any problems."""

    header: dict[str, Any] | None
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    torn: Problem | None = None
    good_length: int = 0  # bytes up to the end of the last complete, readable line
    last_hash: str = GENESIS
    next_seq: int = 0

    @property
    def intact(self) -> bool:
        """No edit, deletion, reordering or torn write anywhere."""
        return not self.problems and self.torn is None

    @property
    def game(self) -> str | None:
        return None if self.header is None else str(self.header.get("game"))


def read_bytes(data: bytes) -> Journal:
    """Read a journal from its bytes (see :func:`read_stream`)."""
    return read_stream(io.BytesIO(data))


def _lines(stream: IO[bytes]) -> Iterator[tuple[int, int, bytes | None, bool]]:
    """``(number, offset, line without newline, complete)``; the line is None when it is longer
    than the limit (it is skipped without being held in memory)."""
    number = 0
    offset = 0
    while True:
        raw = stream.readline(lines.MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        size = len(raw)
        if raw.endswith(b"\n"):
            yield number, offset, raw[:-1], True
        elif size <= lines.MAX_LINE_BYTES:
            yield number, offset, raw, False
        else:
            complete = False
            while True:  # skip the rest of the over-long line
                chunk = stream.readline(1 << 16)
                size += len(chunk)
                if not chunk or chunk.endswith(b"\n"):
                    complete = bool(chunk)
                    break
            yield number, offset, None, complete
        offset += size


def read_stream(stream: IO[bytes]) -> Journal:
    """Read a journal line by line. Never raises for bad content: problems are collected.

    Every complete line that parses is kept (an altered record is reported, not dropped, so an
    arbiter can see what it says); a final line cut short is reported as torn and dropped. A
    line beyond the readers' limits (:mod:`companion.lines`: length, nesting, number size,
    ``t``, encoding) is a problem of kind ``refused`` and is not kept.
    """
    journal = Journal(header=None)
    prev = GENESIS
    expected_seq = 0
    number = 0
    for number, offset, raw, complete in _lines(stream):
        if not complete:
            journal.torn = Problem(
                number,
                offset,
                "torn",
                "the last line is incomplete (a write cut short by a power cut, or the file was "
                "cut or edited); it is ignored",
            )
            break
        if raw is None:
            problem: Problem | None = Problem(
                number,
                offset,
                "refused",
                f"line longer than the limit of {lines.MAX_LINE_BYTES} bytes",
            )
            record = None
        else:
            problem, record = _check_line(raw, number, offset, prev, expected_seq)
        newline_end = offset + (len(raw) if raw is not None else 0) + 1
        if record is None:
            assert problem is not None
            if raw is not None and stream.read(1) == b"":
                problem.kind = "torn"
                problem.message += "; as the last line it may be a write cut short"
                journal.torn = problem
                break
            if raw is not None:
                stream.seek(-1, io.SEEK_CUR)
            journal.problems.append(problem)
            journal.good_length = stream.tell() if raw is None else newline_end
            continue
        if problem is not None:
            journal.problems.append(problem)
        prev = str(record.get("hash", ""))
        seq = record.get("seq")
        expected_seq = (seq if isinstance(seq, int) else expected_seq) + 1
        body = {k: v for k, v in record.items() if k not in SEAL_KEYS}
        if journal.header is None:
            if number != 1 or "game" not in body:
                journal.problems.append(
                    Problem(number, offset, "header", "the first record must be the game header")
                )
            journal.header = body
        else:
            journal.events.append((number, body))
        journal.good_length = newline_end
    journal.last_hash = prev
    journal.next_seq = expected_seq
    if journal.header is None and journal.torn is None and not journal.problems:
        journal.problems.append(Problem(1, 0, "header", "the journal is empty"))
    return journal


def _check_line(
    raw: bytes, number: int, offset: int, prev: str, seq: int
) -> tuple[Problem | None, dict[str, Any] | None]:
    try:
        text = lines.decode(raw, number)
        record = lines.loads(text, number)
    except MalformedInput as exc:
        if exc.message.startswith("not valid JSON"):
            return Problem(number, offset, "not-json", "this line is not a readable record"), None
        return Problem(number, offset, "refused", exc.message), None
    if not isinstance(record, dict):
        return Problem(number, offset, "not-json", "this line is not a JSON object"), None
    try:
        lines.check_time(record.get("t"), number)
    except MalformedInput as exc:
        return Problem(number, offset, "refused", exc.message), None
    try:
        same = canonical(record) == text
    except (TypeError, ValueError):
        same = False
    if not same:
        return (
            Problem(number, offset, "not-canonical", "this record was rewritten or edited"),
            record,
        )
    claimed = record.get("hash")
    body = {k: v for k, v in record.items() if k not in ("hash", "sig")}
    if claimed != digest(canonical(body)):
        return Problem(
            number, offset, "hash", "this record was edited (its hash does not match)"
        ), record
    if record.get("prev") != prev:
        return (
            Problem(
                number,
                offset,
                "chain",
                "the record before this one was removed, inserted, reordered or edited",
            ),
            record,
        )
    if record.get("seq") != seq:
        return (
            Problem(number, offset, "seq", f"record number {record.get('seq')!r}, expected {seq}"),
            record,
        )
    return None, record


def read_path(path: str | Path) -> Journal:
    with open(path, "rb") as stream:
        return read_stream(stream)


def refused(journal: Journal) -> Problem | None:
    """The first line beyond the readers' limits, if any (a hostile file, not damage)."""
    return next((p for p in journal.problems if p.kind == "refused"), None)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync(fd: int) -> None:
    """Data and the file size on disk (fdatasync skips the timestamps fsync would also write)."""
    sync = getattr(os, "fdatasync", os.fsync)
    sync(fd)


def _signer_for(
    path: Path, header: Mapping[str, Any], signer: SigningKey | None
) -> SigningKey | None:
    """The key to go on signing a reopened journal with: its own signer's, or none for a journal
    written unsigned (by an older companion: it stays unsigned, and ``verify`` says so)."""
    named = header.get(SIGNER)
    if named is None:
        return None
    if signer is None:
        raise ValueError(f"{path}: a signed journal needs its table's key to go on")
    if str(named).split()[:2] != signer.public.line().split()[:2]:
        raise ValueError(
            f"{path}: signed with another key than this table's "
            f"({signer.public.short_fingerprint}); it is not continued"
        )
    return signer


class JournalWriter:
    """Appends records to one journal file; each append is on disk when it returns."""

    def __init__(
        self,
        path: Path,
        fd: int,
        last_hash: str,
        next_seq: int,
        signer: SigningKey | None = None,
    ) -> None:
        self.path = path
        self._fd = fd
        self.last_hash = last_hash
        self.next_seq = next_seq
        self.signer = signer

    @classmethod
    def create(
        cls, path: str | Path, header: Mapping[str, Any], signer: SigningKey | None = None
    ) -> JournalWriter:
        """Start a new journal with its header; refuses to overwrite an existing file.

        With ``signer`` (the table's key) the header names its public key and every record
        is signed."""
        path = Path(path)
        if "game" not in header:
            raise ValueError("a journal header must name the game")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        writer = cls(path, fd, GENESIS, 0, signer)
        first = dict(header, journal=header.get("journal", FORMAT))
        if signer is not None:
            first[SIGNER] = signer.public.line()
        try:
            writer.append(first)
            _fsync_dir(path.parent)
        except OSError:  # a full disk: leave no empty journal behind (we made the file)
            writer.close()
            path.unlink(missing_ok=True)
            raise
        return writer

    @classmethod
    def create_unique(
        cls,
        folder: str | Path,
        stem: str,
        header: Mapping[str, Any],
        signer: SigningKey | None = None,
    ) -> JournalWriter:
        """Start a new journal named ``stem.jsonl`` in ``folder``, or ``stem-2.jsonl``, ... when
        that name is taken (two games started in the same second)."""
        folder = Path(folder)
        for n in range(1, 1000):
            path = folder / (f"{stem}.jsonl" if n == 1 else f"{stem}-{n}.jsonl")
            try:
                return cls.create(path, header, signer)
            except FileExistsError:
                continue
        raise FileExistsError(f"{folder}: no free journal name for {stem}")

    @classmethod
    def resume(
        cls,
        path: str | Path,
        signer: SigningKey | None = None,
        *,
        appending_as: SigningKey | None = None,
    ) -> tuple[JournalWriter, Journal]:
        """Reopen a journal to go on appending after a restart.

        A torn last line is copied to ``FILE.torn`` and cut off first, so the chain continues
        from the last complete record and nothing complete is lost. A signed journal goes on
        only with the key that signed it (``signer``), or the records after the restart would
        carry a signature nobody can check: ValueError otherwise, and nothing is changed.
        ``appending_as`` is another key (the arbiter's, appending a correction to a finished
        game on his laptop): its records must name it in their body as ``signer``.
        """
        path = Path(path)
        with open(path, "rb") as stream:
            journal = read_stream(stream)
            if journal.header is None:
                raise ValueError(f"{path}: not a journal (no header record)")
            if appending_as is not None:  # the arbiter, appending with his own key: each
                signer = appending_as  # record names it (``signer``), see verify
            else:
                signer = _signer_for(path, journal.header, signer)
            size = stream.seek(0, io.SEEK_END)
            if journal.good_length < size:
                stream.seek(journal.good_length)
                with open(path.with_name(path.name + ".torn"), "ab") as keep:
                    while chunk := stream.read(1 << 20):
                        keep.write(chunk)
                    keep.flush()
                    os.fsync(keep.fileno())
        if journal.good_length < size:
            fd = os.open(path, os.O_WRONLY)
            try:
                os.ftruncate(fd, journal.good_length)
                os.fsync(fd)
            finally:
                os.close(fd)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        return cls(path, fd, journal.last_hash, journal.next_seq, signer), journal

    def append(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Write one record and wait until it is on disk. Returns the sealed record."""
        if self._fd < 0:
            raise ValueError(f"{self.path}: the journal is closed")
        line, h, sig = _seal(body, self.next_seq, self.last_hash, self.signer)
        data = (line + "\n").encode("utf-8")
        view = memoryview(data)
        start = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            _sync(self._fd)
        except OSError:
            # A full disk (or a failing card): take back whatever part of the line got in, so
            # the journal ends on its last acknowledged record and the next append fits on.
            try:
                os.ftruncate(self._fd, start)
            except OSError:
                pass
            raise
        record = dict(body)
        record.update(seq=self.next_seq, prev=self.last_hash, hash=h)
        if sig is not None:
            record["sig"] = sig
        self.last_hash = h
        self.next_seq += 1
        return record

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
