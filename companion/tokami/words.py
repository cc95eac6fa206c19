"""Tokami's refusals in the players' language.

The rules (:mod:`companion.tokami.game`) refuse a turn in English (:class:`IllegalTurn`'s
``detail``); each detail they can give is listed here as its English template, and
:func:`refusal_in_words` says it in the players' language with its colours and names kept.
"""

from __future__ import annotations

from companion.i18n import N_, _, match_template
from companion.tokami.game import Played
from companion.tokami.turns import Outcome, Turn

REFUSALS = (
    N_("the game was stopped; no more turns are counted"),
    N_("the game is over after {rounds} round(s); no more turns are counted"),
    N_("{player} is not playing this game"),
    N_("it is {player}'s turn, not {by}'s"),
    N_("no block was just placed higher, so there is no forbidden block to take: take a block "
       "out, and enter 'not higher' with its colour if it will not go up"),
    N_("there are no {colour} blocks in this game (colours: {colours})"),
    N_("a fall needs at least one fallen block; a block that would not go higher is "
       "'not higher'"),
    N_("the bonus must be another block than the one moved higher, and only one {colour} block "
       "is on the cross"),
    N_("no {colour} block is left on the cross"),
    N_("{wanted} {colour} block cannot come off the cross: only {there} {colour2} left"),
    N_("{wanted} {colour} blocks cannot come off the cross: only {there} {colour2} left"),
    N_("the bonus must be another block than the one moved, and the only other {colour} block "
       "is the one just placed higher, forbidden to {player}"),
    N_("the {colour} block just placed higher is forbidden to {player} (neither to move nor as "
       "a bonus), and no other {colour2} block is left on the cross"),
    N_("the game was stopped; a stopped game stays as it was"),
    N_("no turn has been played yet, nothing to undo"),
)


def refusal_in_words(detail: str) -> str:
    """A refused turn's English ``detail`` in the players' language (as it was if unknown)."""
    found = match_template(detail, REFUSALS)
    if found is None:
        return detail
    template, values = found
    for key in ("colour", "colour2"):
        if key in values:
            values[key] = _(values[key])
    return _(template).format(**values)


def turn_in_words(turn: Turn, forbidden: str | None = None) -> str:
    """A turn as the confirm screen says it (``Turn.describe`` in the players' language).

    :meth:`Turn.describe` stays English for logs and the notation; this is its translation,
    with the colours translated too.
    """
    block = _(turn.block) if turn.block else ""
    if turn.outcome is Outcome.BONUS:
        return _("{block} higher, bonus {bonus}").format(block=block, bonus=_(str(turn.bonus)))
    if turn.outcome is Outcome.HIGHER:
        return _("{block} higher, no bonus").format(block=block)
    if turn.outcome is Outcome.FELL:
        fallen = " ".join(_(c) for c in turn.fallen)
        if turn.in_hand:
            return _("fell: {fallen} + {in_hand} in hand").format(fallen=fallen,
                                                                  in_hand=_(turn.in_hand))
        return _("fell: {fallen}").format(fallen=fallen)
    if turn.outcome is Outcome.NOT_HIGHER:
        return _("{block} not higher").format(block=block)
    if forbidden:
        return _("declined, took {block}").format(block=_(forbidden))
    return _("declined, took the forbidden block")


def played_in_words(played: Played) -> str:
    """``Anna: blue higher, no bonus`` in the players' language (``Played.describe``)."""
    return f"{played.player}: {turn_in_words(played.turn, played.forbidden)}"


#: Every refused correction of :mod:`companion.tokami.corrections`, as its English template.
CORRECTIONS = (
    N_("corrections are made by the arbiter only, not by {who}"),
    N_("score: {player} is not playing"),
    N_("turn: there is no turn {index} ({count} stand)"),
    N_("turn: the corrected turn would break the rules: {detail}"),
    N_("turn: turn {n} after it would break the rules: {detail}"),
)


def correction_refusal_in_words(detail: str) -> str:
    """A refused correction's English ``detail`` in the table's language (the arbiter reads it);
    a refusal of the rules inside it is said by :func:`refusal_in_words`."""
    found = match_template(detail, CORRECTIONS)
    if found is None:
        return refusal_in_words(detail)
    template, values = found
    if "detail" in values:
        values["detail"] = refusal_in_words(values["detail"])
    return _(template).format(**values)


#: The rules' codes for why a turn was refused (``IllegalTurn.kind``), as the journal and the
#: notation keep them; :func:`rule_in_words` says them in the players' language.
RULES = {code: code for code in (
    N_("correction"), N_("forbidden block"), N_("game over"), N_("malformed"),
    N_("nothing to undo"), N_("out of turn"), N_("too many blocks"), N_("unknown player"),
)}


def rule_in_words(code: str) -> str:
    """A refused turn's rule code (``forbidden block``) in the players' language (as it is if
    unknown)."""
    return _(RULES[code]) if code in RULES else code
