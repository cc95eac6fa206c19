"""The tournament file's audit trail, and its check (``tournament history`` and ``verify``).

``history`` prints one line per record: its number, when (the record's wall time, local), who
wrote it (``via``: the command line, the page, a table over MQTT, ``collect``, the demo, the
upgrade), what it did, and why when a person gave a reason; a result that replaced another
shows the old and the new and the rounds paired since on the old one.

``verify`` checks the file as ``companion verify`` checks a table's journal (the chain, every
record signed by the arbiter's key, in its words), then that every record makes sense in the
fold, then each result's evidence: a result from a table's journal names the journal (its
identity, its final record): when that journal is here (``--dir`` or its ``journals`` folder)
it is read again by the verified reader and must still give that result.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from companion import oserrors, registry
from companion.i18n import _, say
from companion.keys import PublicKey
from companion.tournament import printouts
from companion.tournament.model import Tournament, TournamentError


def when(wall: float) -> str:
    return datetime.fromtimestamp(wall).strftime("%Y-%m-%d %H:%M:%S")


def trail_lines(t: Tournament) -> list[str]:
    """The audit trail, oldest first."""
    lines = [_("{name}: {n} record(s) after the header ({game}, {system}, {rounds} rounds; "
               "made {when})").format(name=t.name, n=len(t.trail),
                                      game=registry.get(t.game).title,
                                      system=printouts.system_words(t), rounds=t.rounds,
                                      when=when(t.wall))]
    for c in t.trail:
        line = f"{c.seq:4d}  {when(c.wall)}  {c.via:<7}  {say(c.what)}"
        if c.why:
            line += "  " + _("why: {why}").format(why=c.why)
        if c.old is not None and c.rounds_after:
            line += "  " + _("(round(s) {rounds} were paired on the old result)").format(
                rounds=", ".join(str(r) for r in c.rounds_after))
        lines.append(line)
    return lines


def _evidence(t: Tournament, keys: Any, folder: Path) -> tuple[list[str], int]:
    """Each journal-backed result checked again against its journal, when it is here."""
    from companion.tournament.journals import OK, check_journal

    lines: list[str] = []
    code = 0
    for r in t.played:
        for g in r.games:
            src = g.source
            if g.result is None or src is None or src.kind not in ("table", "journal"):
                continue
            where = _("round {round} board {board}").format(round=r.number, board=g.board)
            found = next((p for p in (folder / "journals" / src.file, folder / src.file)
                          if src.file and p.is_file()), None)
            if found is None:
                lines.append(_("  {where}: {result} from {file}: the journal is not here").format(
                    where=where, result=g.result.text(), file=src.file))
                continue
            checked = check_journal(found, keys, only=t)
            # the same game (its header's hash) giving the same result; a later final record
            # of the same game (written again after a note) changes neither
            same = (checked.status == OK and checked.source is not None
                    and checked.source.game_id == src.game_id and checked.result == g.result)
            if same:
                lines.append(_("  {where}: {result} from {file}: the journal gives it").format(
                    where=where, result=g.result.text(), file=found))
                continue
            code = 1
            why = say(checked.line) if checked.status != OK else _(
                "it gives {result}, or is another game").format(
                result=checked.result.text() if checked.result else "?")
            lines.append(_("  {where}: {result} from {file}: DIFFERS: {why}").format(
                where=where, result=g.result.text(), file=found, why=why))
    return lines, code


def verify_report(path: Path, key: PublicKey, keys: Any, folder: Path) -> tuple[str, int]:
    """``tournament verify``'s text and exit status (0 good, 1 refused, 2 unreadable)."""
    from companion.scenario import MalformedInput
    from companion.tournament import store
    from companion.verify import verify_signed

    try:
        verdict = verify_signed(path, key, trust=store.TRUST, whose=store.TRUST)
    except FileNotFoundError:
        return _("{file}: no such tournament").format(file=path), 2
    except OSError as exc:
        return f"{path}: {oserrors.problem(exc)}", 2
    except MalformedInput as exc:
        from companion.verify_words import in_words

        return f"{path}: {in_words(str(exc))}", 2
    report = verdict.report().splitlines()
    if not verdict.ok:
        return "\n".join(report), 1
    lines = report[:-1]
    try:
        t = store.read(path, key).tournament
    except TournamentError as exc:
        lines += [_("the records: {problem}").format(problem=say(exc.message)), _("FAILED")]
        return "\n".join(lines), 2
    lines.append(_("the records: all {n} make sense in order (players, rounds, results)")
                 .format(n=len(t.trail)))
    evidence, code = _evidence(t, keys, folder)
    lines += evidence
    lines.append(_("OK") if code == 0 else _("FAILED"))
    return "\n".join(lines), code
