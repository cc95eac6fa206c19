"""`companion verify`: is this journal exactly what the table wrote, and what do the rules say?

Three questions, each answered by its own check:

1. **Intact**: the hash chain (:mod:`companion.journal`'s reader): nothing edited, removed,
   inserted or reordered without the chain noticing.
2. **Signed by the right key**: every record's ``sig`` is the signature of the key that should
   have signed it: the one given (``--key``), or the one the arbiter enrolled for the table the
   header names (:class:`~companion.keys.Keyring`). The chain alone has no secret (anyone can
   recompute it after an edit); a signature needs the table's private key. A journal signed
   by a key nobody vouches for is "signer unknown".
3. **Whole**: optionally, against what the arbiter's station saw of it (``--against``,
   :mod:`companion.arbiter.tails`): a journal that ends before the station's last record was
   cut, and a finished game (its final record seen) cut off is reported as such.

The report names the first bad record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion.keys import KeyFileError, Keyring, PublicKey
from companion.scenario import MalformedInput
from companion.simulate import simulator_for

#: Signature problems kept per journal (a forged journal fails on every line; one is enough).
MAX_SIGNATURE_PROBLEMS = 20
#: A note that says the game is over and the journal complete (:func:`final_record`).
FINAL = "final"


@dataclass
class Verdict:
    path: str
    journal: journal_mod.Journal
    result: dict[str, Any] | None = None
    rule_errors: list[str] = field(default_factory=list)
    #: How the signer was decided: "given key", "enrolled for table N", "the header's own".
    trust: str = ""
    signer: PublicKey | None = None
    signer_unknown: str | None = None  # why nobody vouches for the signer
    signature_problems: list[journal_mod.Problem] = field(default_factory=list)
    signature_problem_count: int = 0
    tail_problems: list[str] = field(default_factory=list)
    final_seen: bool = False

    @property
    def ok(self) -> bool:
        return (
            self.journal.intact
            and not self.rule_errors
            and self.signer_unknown is None
            and not self.signature_problems
            and not self.tail_problems
        )

    @property
    def first_bad(self) -> journal_mod.Problem | None:
        """The first bad record of all the checks (by line)."""
        found = list(self.journal.problems) + list(self.signature_problems)
        if self.journal.torn is not None:
            found.append(self.journal.torn)
        return min(found, key=lambda p: p.line) if found else None

    def report(self) -> str:
        """The report, in the reader's language (:mod:`companion.verify_words`)."""
        from companion.i18n import _, ngettext
        from companion.verify_words import in_words, problem_in_words

        def said(p: journal_mod.Problem) -> str:
            return problem_in_words(p.line, p.offset, p.message)

        j = self.journal
        game = j.header.get("game") if j.header else None
        lines = [ngettext("{path}: {n} record", "{path}: {n} records", j.records).format(
            path=self.path, n=j.records)]
        first = self.first_bad
        if first is not None:
            lines.append(_("FIRST BAD RECORD: {problem}").format(problem=said(first)))
        if j.intact:
            lines.append(_("hash chain intact: no record was edited, removed, inserted or "
                           "reordered"))
        else:
            lines.append(_("ALTERED OR DAMAGED:"))
            for p in j.problems:
                lines.append(f"  {said(p)}")
            if j.torn is not None:
                lines.append(f"  {said(j.torn)}")
        if self.signer_unknown is not None:
            lines.append(_("signer unknown: {why}").format(why=in_words(self.signer_unknown)))
        elif self.signature_problems:
            lines.append(_("NOT SIGNED BY {key}:").format(key=in_words(self.trust).upper()))
            for p in self.signature_problems:
                lines.append(f"  {said(p)}")
            more = self.signature_problem_count - len(self.signature_problems)
            if more > 0:
                lines.append("  " + _("... and {n} more record(s)").format(n=more))
        elif self.signer is not None:
            which = (_("every record signed by {key} ({fingerprint})") if j.intact
                     else _("every readable record signed by {key} ({fingerprint})"))
            lines.append(which.format(key=in_words(self.trust),
                                      fingerprint=self.signer.short_fingerprint))
        for t in self.tail_problems:
            lines.append(_("CUT OFF: {problem}").format(problem=in_words(t)))
        for e in self.rule_errors:
            lines.append("  " + _("rules: {problem}").format(problem=in_words(e)))
        r = self.result
        if r is not None:
            lines += _rules_lines(game, r)
        if self.final_seen:
            lines.append(_("the journal ends with the table's final record: the game is "
                           "complete"))
        lines.append(_("OK") if self.ok else _("FAILED"))
        return "\n".join(lines)


def _rules_lines(game: object, r: dict[str, Any]) -> list[str]:
    """What the rules made of the game: its refused inputs, and its result."""
    from companion.i18n import _
    from companion.numbers import clock
    from companion.verify_words import player_in_words, refusal_in_words, result_in_words

    refused = r.get("violations", [])
    lines = [_("rules: {n} refused input(s) recorded").format(n=len(refused))]
    for v in refused:
        t = v.get("t")
        when = clock(float(t)) if isinstance(t, (int, float)) and not isinstance(t, bool) \
            else "?"
        lines.append(f"  {when} {player_in_words(game, v.get('player'))}: "
                     f"{refusal_in_words(game, str(v.get('detail')), str(v.get('kind')))}")
    if r.get("over"):
        lines.append(_("result: {result}").format(result=result_in_words(game, r)))
    else:
        lines.append(_("result: the game was not finished"))
    return lines


def header_signer(header: dict[str, Any] | None) -> PublicKey | None:
    """The key a journal's header names as its signer (None: unsigned, or not a key)."""
    named = None if header is None else header.get(journal_mod.SIGNER)
    if not isinstance(named, str):
        return None
    try:
        return PublicKey.from_line(named)
    except KeyFileError:
        return None


def verify_path(
    path: str | Path,
    *,
    key: PublicKey | None = None,
    keyring: Keyring | None = None,
    against: str | Path | None = None,
    arbiter_keys: tuple[PublicKey, ...] = (),
) -> Verdict:
    """Check a journal; a line beyond the readers' limits (a hostile file, see
    :mod:`companion.lines`) raises MalformedInput naming it.

    The signer is ``key`` when given, else the key ``keyring`` holds for the header's table;
    with neither, only that the journal is consistently signed by the key its header names
    (what a table checks of its own journals; the command line always asks for a key).
    ``against`` is a station's tail record (:mod:`companion.arbiter.tails`); OSError or
    ValueError when it cannot be read. A record appended by the arbiter on his laptop (a
    correction to a finished game) names its own ``signer``: it must be one of
    ``arbiter_keys``.
    """
    with open(path, "rb") as stream:  # folded while it is read: memory does not grow with it
        scan = journal_mod.Scan(stream)
        verdict = Verdict(str(path), scan.journal)
        verdict.result = _fold(verdict, scan)
    j = scan.journal
    bad = journal_mod.refused(j)
    if bad is not None:
        raise MalformedInput(f"{bad.message} (at byte {bad.offset})", bad.line)
    if j.header is None:
        return verdict
    _check_signer(verdict, key, keyring)
    if verdict.signer is not None and verdict.signer_unknown is None:
        _check_signatures(verdict, Path(path), verdict.signer, arbiter_keys)
    if against is not None:
        from companion.arbiter.tails import check_tail, read_tail

        verdict.tail_problems += check_tail(Path(path), read_tail(against))
    verdict.final_seen = j.last is not None and is_final(j.last)
    return verdict


def verify_signed(path: str | Path, key: PublicKey, *, trust: str, whose: str) -> Verdict:
    """A signed journal that is not a game (a tournament file, signed by the arbiter): its
    chain and every record's signature by ``key``, in this module's words; nothing is folded
    (its own reader folds it). A line beyond the readers' limits raises MalformedInput."""
    j = journal_mod.read_path(path)
    verdict = Verdict(str(path), j)
    bad = journal_mod.refused(j)
    if bad is not None:
        raise MalformedInput(f"{bad.message} (at byte {bad.offset})", bad.line)
    if j.header is None:
        return verdict
    _check_signer(verdict, key, None, trust)
    if verdict.signer is not None:
        _check_signatures(verdict, Path(path), verdict.signer, (), whose)
    verdict.final_seen = False
    return verdict


def _fold(verdict: Verdict, scan: journal_mod.Scan) -> dict[str, Any] | None:
    """The rules' result for the intact records as they are read; the scan is read to its end
    whatever happens, so every problem of the journal is found."""
    header = scan.journal.header
    try:
        if header is None:
            return None
        try:
            sim = simulator_for(str(header.get("game")))
        except ImportError:
            verdict.rule_errors.append(f"unknown game {header.get('game')!r} in the header")
            return None
        try:
            return sim.simulate(dict(header), scan)
        except MalformedInput as exc:
            verdict.rule_errors.append(str(exc))
            return None
    finally:
        for _ in scan:  # whatever the fold did not read
            pass


def is_final(body: dict[str, Any]) -> bool:
    """Whether a record is the table's final record of a finished game."""
    return body.get("ev") == "note" and isinstance(body.get(FINAL), dict)


def _check_signer(verdict: Verdict, key: PublicKey | None, keyring: Keyring | None,
                  given: str = "the given key") -> None:
    header = verdict.journal.header
    assert header is not None
    named = header_signer(header)
    if key is not None:
        verdict.signer, verdict.trust = key, given
    elif keyring is not None:
        table = header.get("table")
        enrolled = keyring.key_for(str(table)) or keyring.key_for(f"table-{table}")
        if enrolled is None:
            shown = f" (the journal names {named.short_fingerprint})" if named else ""
            verdict.signer_unknown = (
                f"table {table} is not enrolled in the arbiter's keyring {keyring.path}{shown}; "
                "enrol it (`companion arbiter enroll`) or give --key"
            )
            return
        verdict.signer, verdict.trust = enrolled, f"table {table}'s enrolled key"
    elif named is not None:
        verdict.signer, verdict.trust = named, "the key the header names"
    if named is None:
        verdict.signature_problems.append(
            journal_mod.Problem(
                1, 0, "unsigned", "the journal is not signed (its header names no signer)"
            )
        )
        verdict.signature_problem_count = 1
        return
    if verdict.signer is not None and named != verdict.signer:
        verdict.signature_problems.append(
            journal_mod.Problem(
                1,
                0,
                "signer",
                f"the journal was signed with another key ({named.short_fingerprint}), "
                f"not {verdict.trust} ({verdict.signer.short_fingerprint})",
            )
        )
        verdict.signature_problem_count = 1


def _check_signatures(
    verdict: Verdict, path: Path, key: PublicKey, arbiter_keys: tuple[PublicKey, ...],
    whose: str = "the table's key",
) -> None:
    """Every complete, readable line's signature (damaged lines are the reader's to report)."""
    with open(path, "rb") as stream:
        offset = 0
        for number, raw in enumerate(stream, start=1):
            start, offset = offset, offset + len(raw)
            if not raw.endswith(b"\n"):
                break
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(record, dict):
                continue
            why = _record_problem(record, number, key, arbiter_keys)
            if why is None:
                continue
            if number == 1 and verdict.signature_problems:
                continue  # the header's problem (another signer) is already said
            verdict.signature_problem_count += 1
            if len(verdict.signature_problems) < MAX_SIGNATURE_PROBLEMS:
                verdict.signature_problems.append(
                    journal_mod.Problem(
                        number,
                        start,
                        "signature",
                        f"{why} (edited and re-chained, appended or spliced in by someone "
                        f"without {whose})",
                    )
                )


def _record_problem(
    record: dict[str, Any], number: int, key: PublicKey, arbiter_keys: tuple[PublicKey, ...]
) -> str | None:
    """Why one record is not signed as it should be: by the table's key, or (a record that
    names its own ``signer`` after the header) by one of the arbiter's keys."""
    named = record.get(journal_mod.SIGNER) if number > 1 else None
    if named is None:
        return journal_mod.signature_problem(record, key)
    try:
        own = PublicKey.from_line(str(named))
    except KeyFileError:
        return "this record names a signer that is not a key"
    if own not in arbiter_keys:
        return (f"this record was appended with a key that is not the arbiter's "
                f"({own.short_fingerprint})")
    why = journal_mod.signature_problem(record, own)
    return None if why is None else why.replace("the journal's key", "the arbiter's key")
