"""Results as the arbiter types them, and each game's own rules for a result.

A result is typed the way the docs and the score sheets write it, the first mover's side first:
``1-0``, ``0-1``, ``½-½`` (also ``=``, ``draw``, ``1/2-1/2``), ``+-`` and ``-+`` (a win by
forfeit), ``--`` or ``0-0`` (both players forfeit). Every result, typed or read from a table's
journal, is then judged: first by the rules every game shares (:func:`companion.tournament.model.
shared_rule`: a forfeit carries no score, no winner only for a double forfeit), then by the
game's own standings facet (``companion.<game>.standings``): its fixed list of reasons
(``REASONS``), the range of its scores (``SCORE_RANGE``) and its rules (``check_result``, e.g. a
Tamsk winner has fewer rings left unless the game ended on a full space or by the time
tie-break). A refused result names the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from companion.remark import N_, Remark
from companion.tournament.model import (
    FIRST,
    NONE,
    SECOND,
    TIE,
    Result,
    TournamentError,
    refuse,
    shared_rule,
)

#: What the arbiter may type, and what it means: (winner, by forfeit).
TYPED: dict[str, tuple[str, bool]] = {
    "1-0": (FIRST, False), "0-1": (SECOND, False),
    "½-½": (TIE, False), "1/2-1/2": (TIE, False), "=": (TIE, False), "draw": (TIE, False),
    "+-": (FIRST, True), "-+": (SECOND, True), "--": (NONE, True), "0-0": (NONE, True),
}
#: A forfeit's reason (every game lists it).
FORFEIT = "forfeit"
#: The reason of a result the arbiter decided without the game's own (every game lists it).
ARBITER = "arbiter"


def typed(text: str) -> tuple[str, bool]:
    """``(winner, forfeit)`` of a typed result, or the refusal listing what may be typed."""
    key = text.strip().replace("−", "-").replace("–", "-").replace(" ", "")
    if key not in TYPED:
        raise refuse(N_("a result is one of {choices} (the first mover's side first)"),
                     choices=", ".join(TYPED))
    return TYPED[key]


def parse_score(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    a, sep, b = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(a), int(b)
    except ValueError:
        raise refuse(N_("a score is two whole numbers A:B, not {text}"), text=text[:40]) from None


def facet(game: str) -> Any:
    """The game's standings facet (its columns, reasons, score range and rules)."""
    from companion.tournament.standings import facet as standings_facet

    return standings_facet(game)


def reasons(game: str) -> Mapping[str, str]:
    """The game's reasons, each with its legend."""
    return cast(Mapping[str, str], getattr(facet(game), "REASONS", {}))


def default_reason(game: str, winner: str, forfeit: bool, score: tuple[int, int] | None) -> str:
    """The reason of a typed result that gives none: a forfeit's, else what the game's facet
    makes of the score (``default_reason``), else the arbiter's."""
    if forfeit:
        return FORFEIT
    own = getattr(facet(game), "default_reason", None)
    found = own(winner, score) if callable(own) else None
    return str(found) if found else ARBITER


def judge(game: str) -> Callable[[Result], str | None]:
    """The game's judge of a result: None when the result is possible, else the rule it
    breaks (a :class:`~companion.remark.Remark`)."""
    module = facet(game)
    listed: Mapping[str, str] = getattr(module, "REASONS", {})
    span: tuple[int, int] | None = getattr(module, "SCORE_RANGE", None)
    own = getattr(module, "check_result", None)

    def check(result: Result) -> str | None:
        shared = shared_rule(result)
        if shared is not None:
            return shared.message
        if listed and result.reason not in listed:
            return Remark(N_("rule reason-list: a {game} result's reason is one of {reasons}"),
                          game=game, reasons=", ".join(listed))
        if result.reason == FORFEIT and not result.forfeit:
            return Remark(N_("rule forfeit-reason: the reason forfeit is for a forfeit (+-, "
                             "-+, --)"))
        if span is not None and result.score is not None:
            lo, hi = span
            if not all(lo <= s <= hi for s in result.score):
                return Remark(N_("rule score-range: a {game} score is {lo} to {hi}"),
                              game=game, lo=lo, hi=hi)
        if callable(own):
            found = own(result.winner, result.forfeit, result.score, result.reason)
            if found is not None:
                return str(found)
        return None

    return check


def checked(game: str, result: Result) -> Result:
    """``result`` when its game allows it, else the refusal naming the rule."""
    rule = judge(game)(result)
    if rule is not None:
        raise TournamentError(rule)
    return result


def from_typed(game: str, text: str, score: str | None, reason: str | None) -> Result:
    """A typed result (``-+`` included), with its score and reason, judged by the game."""
    winner, forfeit = typed(text)
    points = parse_score(score)
    why = reason if reason else default_reason(game, winner, forfeit, points)
    return checked(game, Result(winner, forfeit, points, why))
