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
from companion.scenario import MalformedInput

DEFAULT_WINDOW = 20.0


class DisputeError(ValueError):
    """A journal or a time the dispute tool cannot work with."""


def clock(seconds: float) -> str:
    m, s = divmod(max(0.0, seconds), 60.0)
    return f"{int(m)}:{s:06.3f}"


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
        raise DisputeError(f"{text!r}: the journal has no wall-clock start (wall0)")
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
        raise DisputeError(
            f"{text!r}: give seconds (212.5), the game clock (3:32.5) or the time of day "
            "(14:03:12)"
        ) from None
    return moment.timestamp() - wall0


def trust_line(checked: Any) -> tuple[str, bool]:
    """What the verified reader found, as the account's first line, and whether the journal
    may be called intact (a finished game of a tournament kept here checked against its
    pairing; an unfinished game, or one of no tournament, on its chain and signatures)."""
    from companion.i18n import say
    from companion.tournament.journals import OK, SKIPPED

    verdict = checked.verdict
    fine = checked.status == OK or (checked.status == SKIPPED
                                    and checked.skip in ("unfinished", "no-tournament"))
    if not fine or verdict is None or verdict.signer is None:
        return f"WARNING: THE JOURNAL IS NOT TRUSTED: {say(checked.line)}", False
    text = (f"journal intact: hash chain unbroken, nothing edited, removed or reordered; every "
            f"record signed by {verdict.trust} ({verdict.signer.short_fingerprint})")
    if checked.status == OK:
        t = checked.tournament
        text += (f"; round {checked.round} board {checked.board} of {t.name if t else '?'}, "
                 "as the tournament file paired it")
    elif checked.skip == "unfinished":
        text += "; the game is not finished"
    else:
        text += "; not a tournament game"
    return text, True


def account(path: str | Path, at: str | float, window: float = DEFAULT_WINDOW,
            checked: Any = None) -> str:
    """The text ``companion dispute`` prints (the game's arbiter facet tells the records:
    :meth:`companion.arbiter.kinds.ArbiterGame.dispute`); ``checked``: what the verified
    reader found (:func:`companion.tournament.journals.check_journal`), without which the
    account says the journal was not checked."""
    j = journal_mod.read_path(path)
    if j.header is None:
        raise DisputeError(f"{path}: not a journal (no header)")
    name = j.header.get("game")
    game = arbiter_for(name)
    wall0 = j.header.get("wall0")
    moment = at if isinstance(at, float) else parse_at(str(at), wall0 if wall0 else None)
    lo, hi = moment - window, moment + window
    out = [
        f"{path}: what happened from {clock(lo)} to {clock(hi)} "
        f"(game clock; asked about {clock(moment)})"
    ]
    if checked is None:
        out.append("WARNING: THE JOURNAL WAS NOT CHECKED (its signatures and pairing)")
    else:
        out.append(trust_line(checked)[0])
    if not j.intact:
        out.append("ALTERED OR DAMAGED (companion verify tells where):")
        out += [f"  {p}" for p in j.problems] + ([f"  {j.torn}"] if j.torn else [])
    try:
        told = None if game is None else game.dispute(
            j.header, list(j.events), moment=moment, lo=lo, hi=hi
        )
    except MalformedInput as exc:
        raise DisputeError(f"{path}: {exc}") from None
    if told is None:
        raise DisputeError(f"{path}: disputes are not told for {name} journals")
    return "\n".join(out + told)
