"""The arbiter's refused corrections in the players' language.

:mod:`companion.tamsk.corrections` is part of the pure rules: it refuses a correction in
English, ``"<what>: <problem>"`` (``"sand: r1 holds at most 180 s, not 200"``), and never
imports gettext. Each problem it can give is listed here as its English template, so that
:func:`correction_refusal_in_words` can say it in the table's language with its glasses,
spaces and numbers kept, the way :func:`companion.tamsk.words.refusal_in_words` does for the
players' refused moves. A problem the list does not know is shown as the rules wrote it.
"""

from __future__ import annotations

from companion.i18n import N_, _, match_template
from companion.tamsk.words import colour_word

#: The corrections by the name the journal gives them.
KINDS = {
    "sand": N_("sand"),
    "space": N_("space"),
    "add-ring": N_("add ring"),
    "remove-ring": N_("remove ring"),
    "undo": N_("undo"),
    "penalty": N_("penalty"),
    "cancel-penalty": N_("cancel penalty"),
    "turn": N_("turn"),
    "result": N_("result"),
    "confirm": N_("confirm"),
    "next-round": N_("next round"),
}

#: Every problem :mod:`companion.tamsk.corrections` gives, as its English template.
PROBLEMS = (
    N_("corrections are made by the arbiter only, not by {who}"),
    N_("level {level} glasses are plain pieces: they hold no sand"),
    N_("{glass} holds at most {most} s, not {sand}"),
    N_("{glass} has already run out"),
    N_("{glass} already stands on {space}"),
    N_("{space} is taken by {glass}"),
    N_("{glass} is already somewhere unknown"),
    N_("{player} has no rings left"),
    N_("{space} is full ({n})"),
    N_("{player} has all his {n} rings: none of his is on the board"),
    N_("no ring was dropped on an unknown space"),
    N_("there is no ring on {space}"),
    N_("there is no input to undo"),
    N_("the last input is at t={t}, not at t={wanted}"),
    N_("the last input is a {kind}, not a {wanted}"),
    N_("the game is over"),
    N_("a pass is only a penalty at level 3 (this game is level {level})"),
    N_("there is no penalty number {n} ({count} recorded, numbered from 0)"),
    N_("penalty {n} is at t={t}, not t={wanted}"),
    N_("it is already {player}'s turn"),
    N_("the game is not over: declare the result instead"),
    N_("the game is not over: declare or confirm the result first"),
)


def correction_refusal_in_words(detail: str) -> str:
    """A refused correction's English ``detail`` in the table's language (as it was if
    unknown)."""
    what, sep, problem = detail.partition(": ")
    if sep and what in KINDS:
        return _("{correction}: {problem}").format(
            correction=_(KINDS[what]), problem=_problem(problem))
    return _problem(detail)


def _problem(problem: str) -> str:
    found = match_template(problem, PROBLEMS)
    if found is None:
        return problem
    template, values = found
    if "player" in values:
        values["player"] = colour_word(values["player"])
    return _(template).format(**values)
