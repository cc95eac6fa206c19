"""The tournament file: ``NAME.tournament.jsonl``, a journal signed by the arbiter's key.

The file is a companion journal (:mod:`companion.journal`): canonical JSON Lines, each record
chained to the one before (``seq``, ``prev``, ``hash``), signed (``sig``) with the arbiter's
Ed25519 key (:func:`companion.arbiter.signing.arbiter_key`), and on disk (fsynced) before a
command says it is done. Nothing in it is ever rewritten: a change is one more record, and the
tournament is the fold of them all (:func:`companion.tournament.model.fold`).

Reading (:func:`read`) checks the chain and every signature against the arbiter's public key
(this laptop's, or one given), exactly as ``companion verify`` checks a table's journal and in
its words: a file edited by hand, re-chained, or signed with another key is refused
(:class:`TournamentForged`, exit status 1). A torn last line (a write cut short by a power
cut, never acknowledged) is left out and cut off by the next writer.

Writers (the command line and the page, on the same laptop) append under an exclusive
``flock`` on the file, after reading it again under the lock (:func:`append`), so two of them
never interleave or write on a stale tournament.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion import oserrors
from companion.keys import PublicKey, SigningKey
from companion.remark import N_, Remark
from companion.tournament.model import Tournament, TournamentError, fold, refuse, slug, start

SUFFIX = ".tournament.jsonl"
#: A version 1 file (JSON, unsigned): read only by ``companion tournament upgrade``.
V1_SUFFIX = ".tournament.json"
TRUST = "the arbiter's key"


class TournamentForged(TournamentError):
    """A tournament file that is not what the arbiter's key signed (``companion verify``'s
    exit status: 1)."""

    exit_code = 1


def path_for(name: str, directory: str | Path = ".") -> Path:
    """The file of the tournament called ``name`` (or ``name`` itself when it is a file)."""
    if name.endswith((SUFFIX, V1_SUFFIX)):
        return Path(name)
    return Path(directory) / (slug(name) + SUFFIX)


def tournament_files(directory: str | Path) -> list[Path]:
    """The tournament files in a folder, by name."""
    return sorted(Path(directory).glob("*" + SUFFIX))


def refusal(verdict: Any) -> str:
    """One line saying why ``companion verify`` refuses what it checked (its own words: a
    :class:`~companion.remark.Remark` said in the reader's language where it is shown)."""
    from companion.remark import Remark

    return Remark.via(lambda _english: refusal_words(verdict), refusal_words(verdict, True))


def refusal_words(verdict: Any, english: bool = False) -> str:
    """:func:`refusal`'s line, in English or in the reader's language."""
    from companion.i18n import _
    from companion.verify_words import in_words, problem_in_words

    def said(msgid: str) -> str:
        return msgid if english else _(msgid)

    def message(text: str) -> str:
        return text if english else in_words(text)

    if verdict.signer_unknown is not None:
        why = said("signer unknown: {why}").format(why=message(verdict.signer_unknown))
    elif verdict.first_bad is not None:
        first = verdict.first_bad
        damaged = first in verdict.journal.problems or first is verdict.journal.torn
        shown = str(first) if english else problem_in_words(first.line, first.offset,
                                                            first.message)
        head = said("ALTERED OR DAMAGED") if damaged else said("NOT SIGNED BY {key}").format(
            key=message(verdict.trust).upper())
        why = said("{head}: FIRST BAD RECORD: {problem}").format(head=head, problem=shown)
    elif verdict.tail_problems:
        why = said("CUT OFF: {problem}").format(problem=message(verdict.tail_problems[0]))
    elif verdict.rule_errors:
        why = said("rules: {problem}").format(problem=message(verdict.rule_errors[0]))
    else:
        why = said("no header")
    return said("FAILED: {why}").format(why=why)


#: The words of :func:`refusal_words`, marked for the catalogs.
_REFUSAL_WORDS = (N_("signer unknown: {why}"), N_("ALTERED OR DAMAGED"),
                  N_("NOT SIGNED BY {key}"), N_("{head}: FIRST BAD RECORD: {problem}"),
                  N_("CUT OFF: {problem}"), N_("rules: {problem}"), N_("no header"),
                  N_("FAILED: {why}"))


def not_version_1(path: Path) -> None:
    """Refuse a version 1 file, saying how to upgrade it."""
    if path.name.endswith(V1_SUFFIX):
        raise refuse(N_("{file} is a version 1 tournament file: `companion tournament upgrade "
                        "{file}` makes the signed version 2 file"), file=str(path))


@dataclass
class Read:
    """A tournament file read and checked: the tournament, ``companion verify``'s verdict on
    the file, and a note when a torn last line was left out."""

    tournament: Tournament
    verdict: Any
    note: str = ""


def _judge(header: Mapping[str, Any]) -> Any:
    from companion.tournament.outcome import judge
    from companion.tournament.standings import NoStandings

    try:
        return judge(str(header.get("game")))
    except NoStandings as exc:
        raise refuse(N_("line {line}: {problem}"), line=1, problem=str(exc)) from None


def read(path: str | Path, key: PublicKey) -> Read:
    """The tournament in ``path``, its chain and every signature checked against ``key``."""
    from companion.scenario import MalformedInput
    from companion.verify import verify_signed

    path = Path(path)
    not_version_1(path)
    try:
        verdict = verify_signed(path, key, trust=TRUST, whose=TRUST)
    except FileNotFoundError:
        raise refuse(N_("{file}: no such tournament (make it with `companion tournament "
                        "new`)"), file=str(path)) from None
    except OSError as exc:
        raise refuse(N_("{file}: {problem}"), file=str(path),
                     problem=oserrors.problem(exc)) from None
    except MalformedInput as exc:
        raise refuse(N_("{file}: {problem}"), file=str(path),
                     problem=Remark.via(_in_words, str(exc))) from None
    j = verdict.journal
    if j.header is None:
        raise refuse(N_("{file}: not a tournament file (no header)"), file=str(path))
    note = ""
    torn_only = not j.problems and j.torn is not None
    if not verdict.ok and not (torn_only and verdict.signature_problems == []
                               and verdict.signer_unknown is None):
        raise TournamentForged(Remark(N_("{file}: refused as `companion verify` refuses it: "
                                         "{why}"), file=str(path), why=refusal(verdict)))
    if torn_only:
        torn = j.torn
        assert torn is not None
        note = Remark(N_("{file}: {problem} (the next change cuts it off)"), file=str(path),
                      problem=Remark.via(lambda _english: _problem_words(torn), str(torn)))
    try:
        t = fold(j.header, j.events, judge=_judge(j.header))
    except TournamentError as exc:
        raise TournamentError(Remark(N_("{file}: {problem}"), file=str(path),
                                     problem=exc.message), line=exc.line) from None
    return Read(t, verdict, note)


def _in_words(text: str) -> str:
    from companion.verify_words import in_words

    return in_words(text)


def _problem_words(problem: journal_mod.Problem) -> str:
    from companion.verify_words import problem_in_words

    return problem_in_words(problem.line, problem.offset, problem.message)


def load(path: str | Path, key: PublicKey) -> Tournament:
    return read(path, key).tournament


def load_all(directory: str | Path, key: PublicKey) -> list[tuple[Tournament, Path]]:
    """Every tournament file of a folder, each read and checked."""
    return [(load(path, key), path) for path in tournament_files(directory)]


def create(path: str | Path, header: Mapping[str, Any], key: SigningKey) -> Tournament:
    """A new tournament file with its header, signed; refuses to overwrite a file."""
    path = Path(path)
    start(header)
    try:
        writer = journal_mod.JournalWriter.create(path, header, signer=key)
    except FileExistsError:
        raise refuse(N_("{file} exists already"), file=str(path)) from None
    writer.close()
    return load(path, key.public)


Records = Callable[[Tournament], list[dict[str, Any]]]


def append(path: str | Path, key: SigningKey, make: Records) -> tuple[Tournament, list[dict[str,
           Any]]]:
    """Append the records ``make`` gives for the tournament as it is now: under an exclusive
    lock on the file, read again and checked; the records are folded first (a record the
    tournament refuses is never written), then each is written and fsynced. Returns the
    tournament after them and the records written."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        raise refuse(N_("{file}: no such tournament (make it with `companion tournament "
                        "new`)"), file=str(path)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        before = read(path, key.public)
        records = make(before.tournament)
        if not records:
            return before.tournament, []
        j = before.verdict.journal
        judge = _judge(j.header)
        events = list(j.events) + [(j.records + 1 + i, r) for i, r in enumerate(records)]
        try:
            after = fold(j.header, events, judge=judge)
        except TournamentError as exc:
            # the new record's own problem, without the line it would have had
            inner = exc.message
            values = getattr(inner, "values", {})
            raise TournamentError(values.get("problem", inner)) from None
        writer, _ = journal_mod.JournalWriter.resume(path, signer=key)
        try:
            for record in records:
                writer.append(record)
        finally:
            writer.close()
        return after, records
    finally:
        os.close(fd)
