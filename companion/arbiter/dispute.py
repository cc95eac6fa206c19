"""`companion dispute FILE --at TIME`: exactly what happened around one moment of a game.

Disputes are about time (who overran the 15 seconds, whose glass ran out first) and about
rings. The journal is first read by the one verified reader
(:func:`companion.tournament.journals.check_journal`: the hash chain, every record signed by the
table's enrolled key or ``--key``, and, for a finished tournament game, that it is the game the
tournament file paired at that table with these players); the account says "journal intact"
only after all of that, and otherwise starts with a warning in ``companion verify``'s words
(the command then exits 1). Then the game's arbiter facet folds it through the engine one
record at a time, telling every record near the moment and what happened by itself between
them (:meth:`companion.arbiter.kinds.ArbiterGame.dispute`; a game without one tells no
disputes).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

from companion import journal as journal_mod
from companion.arbiter.kinds import arbiter_for
from companion.i18n import _
from companion.scenario import MalformedInput

DEFAULT_WINDOW = 20.0


class DisputeError(ValueError):
    """A journal or a time the dispute tool cannot work with."""


def clock(seconds: float) -> str:
    """The game clock to the millisecond, ``5:46.855`` (``5:46,855`` in French and Czech,
    :mod:`companion.numbers`)."""
    from companion.numbers import cldr

    m, s = divmod(max(0.0, seconds), 60.0)
    return f"{int(m)}:{s:06.3f}".replace(".", cldr().decimal)


def parse_at(text: str, wall0: float | None) -> float:
    """A moment as game seconds: ``212.5``, ``3:32.5`` (game clock), or a wall-clock time
    ``14:03:12`` / ``2026-05-02T14:03:12`` (local time, needs the journal's ``wall0``)."""
    text = text.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    m = re.fullmatch(r"(\d+):(\d{1,2}(\.\d+)?)", text)
    if m:
        return int(m.group(1)) * 60 + float(m.group(2))
    if wall0 is None:
        raise DisputeError(_("{text}: the journal has no wall-clock start (wall0)").format(
            text=repr(text)))
    start = datetime.fromtimestamp(wall0)
    try:
        if "T" in text or "-" in text:
            moment = datetime.fromisoformat(text)
        else:
            parts = datetime.strptime(text, "%H:%M:%S.%f" if "." in text else "%H:%M:%S")
            moment = start.replace(
                hour=parts.hour, minute=parts.minute, second=parts.second,
                microsecond=parts.microsecond,
            )
    except ValueError:
        raise DisputeError(_(
            "{text}: give seconds (212.5), the game clock (3:32.5) or the time of day "
            "(14:03:12)").format(text=repr(text))) from None
    return moment.timestamp() - wall0


def trust_line(checked: Any) -> tuple[str, bool]:
    """What the verified reader found, as the account's first line, and whether the journal
    may be called intact (a finished game of a tournament kept here checked against its
    pairing; an unfinished game, or one of no tournament, on its chain and signatures)."""
    from companion.i18n import say
    from companion.tournament.journals import OK, SKIPPED
    from companion.verify_words import in_words

    verdict = checked.verdict
    fine = checked.status == OK or (checked.status == SKIPPED
                                    and checked.skip in ("unfinished", "no-tournament"))
    if not fine or verdict is None or verdict.signer is None:
        return _("WARNING: THE JOURNAL IS NOT TRUSTED: {why}").format(
            why=say(checked.line)), False
    signed = {"key": in_words(verdict.trust), "fingerprint": verdict.signer.short_fingerprint}
    if checked.status == OK:
        t = checked.tournament
        text = _("journal intact: hash chain unbroken, nothing edited, removed or reordered; "
                 "every record signed by {key} ({fingerprint}); round {round} board {board} "
                 "of {tournament}, as the tournament file paired it").format(
            **signed, round=checked.round, board=checked.board,
            tournament=t.name if t else "?")
    elif checked.skip == "unfinished":
        text = _("journal intact: hash chain unbroken, nothing edited, removed or reordered; "
                 "every record signed by {key} ({fingerprint}); the game is not finished"
                 ).format(**signed)
    else:
        text = _("journal intact: hash chain unbroken, nothing edited, removed or reordered; "
                 "every record signed by {key} ({fingerprint}); not a tournament game"
                 ).format(**signed)
    return text, True


def account(path: str | Path, at: str | float, window: float = DEFAULT_WINDOW,
            checked: Any = None) -> str:
    """The text ``companion dispute`` prints (the game's arbiter facet tells the records:
    :meth:`companion.arbiter.kinds.ArbiterGame.dispute`); ``checked``: what the verified
    reader found (:func:`companion.tournament.journals.check_journal`), without which the
    account says the journal was not checked."""
    from companion.verify_words import problem_in_words

    j = journal_mod.read_path(path)
    if j.header is None:
        raise DisputeError(_("{file}: not a journal (no header)").format(file=path))
    name = j.header.get("game")
    game = arbiter_for(name)
    wall0 = j.header.get("wall0")
    moment = at if isinstance(at, float) else parse_at(str(at), wall0 if wall0 else None)
    lo, hi = moment - window, moment + window
    out = [_("{file}: what happened from {start} to {end} (game clock; asked about "
             "{moment})").format(file=path, start=clock(lo), end=clock(hi),
                                 moment=clock(moment))]
    if checked is None:
        out.append(_("WARNING: THE JOURNAL WAS NOT CHECKED (its signatures and pairing)"))
    else:
        out.append(trust_line(checked)[0])
    if not j.intact:
        out.append(_("ALTERED OR DAMAGED (companion verify tells where):"))
        out += ["  " + problem_in_words(p.line, p.offset, p.message)
                for p in [*j.problems, *([j.torn] if j.torn else [])]]
    try:
        told = None if game is None else game.dispute(
            j.header, list(j.events), moment=moment, lo=lo, hi=hi
        )
    except MalformedInput as exc:
        raise DisputeError(f"{path}: {exc}") from None
    if told is None:
        raise DisputeError(_("{file}: disputes are not told for {game} journals").format(
            file=path, game=name))
    return "\n".join(out + told)
