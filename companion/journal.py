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
and :func:`read_stream` says where. The newline ends a record and its ``hash`` checks it: a line
whose text is not canonical or whose hash does not match is damage, and is never folded.

- After a power cut the end of the file may hold a torn line, or whatever the card wrote there
  (garbage, zeros, lines of it): everything after the last intact record is the *torn tail*,
  and :meth:`JournalWriter.resume` copies it to ``FILE.torn`` before cutting it off, so nothing
  acknowledged (fsynced with its newline) is lost and nothing unwritten is folded.
- A damaged line followed by intact records is damage in the middle: it stays in the file (a
  journal is never rewritten), the resume copies it byte for byte to ``FILE.quarantine``, and the
  game goes on from the intact records; ``companion verify`` reports it with its byte offset.

Durability: :meth:`JournalWriter.append` returns only after the line is on disk
(``os.write`` then ``os.fsync``), so a caller may acknowledge the input once it returns.
"""

from __future__ import annotations

import base64
import binascii
import filecmp
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
    if base64.b64encode(raw).decode("ascii") != sig:
        # The last character before the padding carries bits the decoder ignores: another
        # spelling of the same signature is still an edit of the file, and must show.
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
    """What reading a journal found: the header, the event records, and any problems.

    Only records that check themselves (canonical text, their own ``hash``) are kept as the
    header or events: a damaged line is reported, never folded. A damaged line followed by an
    intact record is damage in the middle (``damaged``: its byte range, kept in the file and
    copied to ``FILE.quarantine`` on resume); damaged or incomplete lines after the last intact
    record are the torn tail (``torn``: a write cut short, cut off on resume).
    """

    header: dict[str, Any] | None
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    torn: Problem | None = None
    good_length: int = 0  # bytes up to the end of the last intact record's line
    last_hash: str = GENESIS
    next_seq: int = 0
    #: Byte ranges ``(start, end)`` of damaged lines in the middle (newline included).
    damaged: list[tuple[int, int]] = field(default_factory=list)
    #: Every problem of the torn tail (``torn`` is the first).
    tail: list[Problem] = field(default_factory=list)
    #: Intact records read, the header included.
    records: int = 0
    #: The last intact event record (what a cheap check of the end of a game looks at).
    last: dict[str, Any] | None = None

    @property
    def intact(self) -> bool:
        """No edit, deletion, reordering or torn write anywhere."""
        return not self.problems and self.torn is None

    @property
    def game(self) -> str | None:
        return None if self.header is None else str(self.header.get("game"))

    def notes(self) -> list[str]:
        """Notes for the log after a resume: the torn tail cut off, damaged records set aside
        (the latter starts with :data:`DAMAGE_NOTE`, so the table can say so on its screen)."""
        notes = [str(self.torn)] if self.torn is not None else []
        if self.damaged:
            first = next(p for p in self.problems if p.offset == self.damaged[0][0])
            notes.append(
                f"{DAMAGE_NOTE}: {len(self.damaged)} damaged line(s) skipped, kept in "
                f"FILE{QUARANTINE_SUFFIX} (first: {first})"
            )
        return notes


#: How a resume note about damaged records begins.
DAMAGE_NOTE = "damaged record"
#: Beside ``FILE``: ``FILE.quarantine`` holds damaged middle lines, ``FILE.torn`` cut tails.
QUARANTINE_SUFFIX = ".quarantine"
TORN_SUFFIX = ".torn"


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


class Scan:
    """One pass over a journal, line by line: iterate it for the intact event records
    ``(line number, body)``, each yielded as it is read (memory does not grow with the file).

    ``journal`` holds the header as soon as the scan is made, and everything else (problems,
    the torn tail, the chain's end) once the iteration is over; its ``events`` stay empty.
    Never raises for bad content.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.journal = Journal(header=None)
        self._prev = GENESIS
        self._seq = 0
        self._pending: _Run | None = None  # damaged lines not yet followed by an intact one
        self._run = self._records(stream)
        self._first = next(self._run, None)  # reads the header (and the first event)

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any]]]:
        first, self._first = self._first, None
        if first is not None:
            yield first
        yield from self._run

    def _records(self, stream: IO[bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
        journal = self.journal
        for number, offset, raw, complete in _lines(stream):
            if not complete:
                self._damage(_torn(number, offset), offset)
                break
            end = stream.tell() if raw is None else offset + len(raw) + 1
            if raw is None:
                problem: Problem | None = Problem(
                    number,
                    offset,
                    "refused",
                    f"line longer than the limit of {lines.MAX_LINE_BYTES} bytes",
                )
                record = None
            else:
                problem, record = _check_line(raw, number, offset)
                if record is not None and (problem := self._out_of_chain(record, number, offset)):
                    record = None
            if record is None:
                assert problem is not None
                self._damage(problem, end)
                continue
            if self._pending is not None:  # damage before an intact record is in the middle
                journal.problems += self._pending.problems()
                journal.damaged.append((self._pending.first.offset, self._pending.end))
                self._pending = None
            body = self._take(record, number, offset, end)
            if body is not None:
                yield number, body
        self._finish()

    def _damage(self, problem: Problem, end: int) -> None:
        """One more damaged line: consecutive ones make one run (kept in constant memory)."""
        run = self._pending
        if run is None:
            self._pending = _Run(problem, end)
            return
        run.end = end
        run.lines += 1
        if problem.kind == "refused" and run.refused is None:
            run.refused = problem

    def _out_of_chain(self, record: dict[str, Any], number: int, offset: int) -> Problem | None:
        """Why a record that checks itself does not follow the last intact one, if it does
        not. Right after damaged lines a break is expected (the damage held the link), so any
        later ``seq`` is taken up; an older one (a stale block of the card) never is."""
        seq = record.get("seq")
        if record.get("prev") == self._prev and seq == self._seq:
            return None
        later = isinstance(seq, int) and not isinstance(seq, bool) and seq >= self._seq
        if self._pending is not None and later:
            return None
        if record.get("prev") != self._prev:
            return Problem(
                number,
                offset,
                "chain",
                "the record before this one was removed, inserted, reordered or edited",
            )
        return Problem(number, offset, "seq", f"record number {seq!r}, expected {self._seq}")

    def _take(
        self, record: dict[str, Any], number: int, offset: int, end: int
    ) -> dict[str, Any] | None:
        """Account for one intact record; its body when it is an event."""
        journal = self.journal
        self._prev = str(record["hash"])
        seq = record.get("seq")
        self._seq = (seq if isinstance(seq, int) else self._seq) + 1
        journal.good_length = end
        journal.records += 1
        body = {k: v for k, v in record.items() if k not in SEAL_KEYS}
        if number == 1 and "game" in body:
            journal.header = body
            return None
        if journal.records == 1:
            journal.problems.append(
                Problem(number, offset, "header", "the first record must be the game header")
            )
        journal.last = body
        return body

    def _finish(self) -> None:
        journal = self.journal
        if self._pending is not None:  # nothing intact after it: the torn tail
            journal.tail = self._pending.problems()
            first = journal.tail[0]
            if first.kind != "torn":
                first = Problem(
                    first.line,
                    first.offset,
                    "torn",
                    f"{first.message}; nothing intact follows, so it is taken for a write cut "
                    "short and ignored",
                )
            journal.torn = first
        journal.last_hash = self._prev
        journal.next_seq = self._seq
        if journal.header is None and journal.torn is None and not journal.problems:
            journal.problems.append(Problem(1, 0, "header", "the journal is empty"))


@dataclass
class _Run:
    """Consecutive damaged lines: the first one's problem, where the run ends, how many lines,
    and the first line in it beyond the readers' limits (a hostile file)."""

    first: Problem
    end: int
    lines: int = 1
    refused: Problem | None = None

    def __post_init__(self) -> None:
        if self.first.kind == "refused":
            self.refused = self.first

    def problems(self) -> list[Problem]:
        """What to report: the first line (with how many follow it) and the refused one."""
        first = self.first
        if self.lines > 1:
            first.message += f" (and the {self.lines - 1} lines after it, to byte {self.end})"
        extra = self.refused
        return [first] if extra is None or extra is first else [first, extra]


def _torn(number: int, offset: int) -> Problem:
    return Problem(
        number,
        offset,
        "torn",
        "the last line is incomplete (a write cut short by a power cut, or the file was "
        "cut or edited); it is ignored",
    )


def read_stream(stream: IO[bytes]) -> Journal:
    """Read a whole journal (see :class:`Scan`), keeping its events in ``events``.

    An intact record is one whose text is canonical and whose ``hash`` matches: only those
    are kept. A line beyond the readers' limits (:mod:`companion.lines`: length, nesting,
    number size, ``t``, encoding) is a problem of kind ``refused``.
    """
    scan = Scan(stream)
    scan.journal.events = list(scan)
    return scan.journal


def _check_line(
    raw: bytes, number: int, offset: int
) -> tuple[Problem | None, dict[str, Any] | None]:
    """The record on one line when it checks itself (canonical text, its own hash), else why
    not: a line that does not is damage and is never folded."""
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
    if not same:  # damaged: never folded
        return Problem(number, offset, "not-canonical", "this record was rewritten or edited"), None
    claimed = record.get("hash")
    body = {k: v for k, v in record.items() if k not in ("hash", "sig")}
    if not isinstance(claimed, str) or claimed != digest(canonical(body)):
        return Problem(
            number, offset, "hash", "this record was edited or damaged (its hash does not match)"
        ), None
    return None, record


def read_path(path: str | Path) -> Journal:
    with open(path, "rb") as stream:
        return read_stream(stream)


#: The journal last read by :func:`read_for_resume`, with the file's identity at that moment.
_read_once: tuple[tuple[int, int, int, int], Journal] | None = None


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def read_for_resume(path: str | Path) -> Journal:
    """Read a journal that is about to be resumed (to see whether its game is over): the
    :meth:`JournalWriter.resume` that follows takes this reading instead of reading the file
    again, as long as the file has not changed since (one slot, used once)."""
    global _read_once
    with open(path, "rb") as stream:
        journal = read_stream(stream)
        _read_once = (_identity(os.fstat(stream.fileno())), journal)
    return journal


def _recall(stream: IO[bytes]) -> Journal | None:
    """The reading of this very file by :func:`read_for_resume`, if it is unchanged."""
    global _read_once
    kept, _read_once = _read_once, None
    if kept is None or kept[0] != _identity(os.fstat(stream.fileno())):
        return None
    return kept[1]


def refused(journal: Journal) -> Problem | None:
    """The first line beyond the readers' limits, if any (a hostile file, not damage); in the
    torn tail only when nothing in the file is intact (it is not a journal at all)."""
    seen = journal.problems + (journal.tail if journal.records == 0 else [])
    return next((p for p in seen if p.kind == "refused"), None)


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


def _beside(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _copy(stream: IO[bytes], start: int, end: int, out: IO[bytes]) -> None:
    """Bytes ``start`` to ``end`` of ``stream`` into ``out``, a megabyte at a time."""
    stream.seek(start)
    left = end - start
    while left > 0 and (chunk := stream.read(min(left, 1 << 20))):
        out.write(chunk)
        left -= len(chunk)


def _quarantine(path: Path, stream: IO[bytes], journal: Journal) -> None:
    """Write ``FILE.quarantine``: for each damaged middle line, a ``#`` line saying where it
    was (line, byte range, what is wrong) and then its bytes exactly as they are in the journal
    (newline included). Replaced atomically, and only when what it would hold changed."""
    where = {p.offset: p for p in journal.problems}
    target = _beside(path, QUARANTINE_SUFFIX)
    tmp = _beside(path, QUARANTINE_SUFFIX + ".tmp")
    with open(tmp, "wb") as out:
        for start, end in journal.damaged:
            problem = where[start]
            out.write(
                f"# line {problem.line}, bytes {start}-{end} of {path.name}: {problem.kind}: "
                f"{problem.message}\n".encode()
            )
            _copy(stream, start, end, out)
        out.flush()
        os.fsync(out.fileno())
    if target.exists() and filecmp.cmp(tmp, target, shallow=False):
        tmp.unlink()
        return
    os.replace(tmp, target)
    _fsync_dir(path.parent)


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
        """Reopen a journal to go on appending after a restart (it is read once).

        A torn tail is copied to ``FILE.torn`` and cut off first, so the chain continues from
        the last intact record and nothing acknowledged is lost. Damaged lines in the middle
        stay where they are (the journal is never rewritten) and are copied byte for byte to
        ``FILE.quarantine``; they are not folded. A signed journal goes on
        only with the key that signed it (``signer``), or the records after the restart would
        carry a signature nobody can check: ValueError otherwise, and nothing is changed.
        ``appending_as`` is another key (the arbiter's, appending a correction to a finished
        game on his laptop): its records must name it in their body as ``signer``.
        """
        path = Path(path)
        with open(path, "rb") as stream:
            journal = _recall(stream) or read_stream(stream)
            if journal.header is None:
                raise ValueError(f"{path}: not a journal (no intact header record)")
            if appending_as is not None:  # the arbiter, appending with his own key: each
                signer = appending_as  # record names it (``signer``), see verify
            else:
                signer = _signer_for(path, journal.header, signer)
            size = stream.seek(0, io.SEEK_END)
            if journal.good_length < size:
                with open(_beside(path, TORN_SUFFIX), "ab") as keep:
                    _copy(stream, journal.good_length, size, keep)
                    keep.flush()
                    os.fsync(keep.fileno())
            if journal.damaged:
                _quarantine(path, stream, journal)
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
