"""Tamsk's words at the table, in the players' language.

The rules (:mod:`companion.tamsk.game`) stay standard-library only and speak stable English: a
refusal is a ``kind`` code and an English ``detail``; a penalty and a result are codes. This
shell module says them in the players' language with :mod:`companion.i18n`: each refusal the
rules can give is listed here as its English template, so the same words are matched, their
values (glass, space, player) kept, and the template translated. A detail that matches no
template (a rule added later) is shown in English rather than lost; ``tests/test_i18n.py``
checks that every refusal of the scenario files matches one.
"""

from __future__ import annotations

from companion.i18n import N_, _, match_template, pgettext

#: Every refusal detail of the rules, as its English template.
REFUSALS = (
    N_("the game is over"),
    N_("{glass} has run out of sand: a lost glass may never move again"),
    N_("it is {turn}'s turn, not {player}'s"),
    N_("{held} is already being moved: one glass per move"),
    N_("place your other hourglasses first: {glass} is already on the board"),
    N_("each player's first three moves use his three glasses: move {others}, not {glass} again"),
    N_("{glass} is already lifted"),
    N_("{glass} was not lifted"),
    N_("{glass} must move to another space than {to}"),
    N_("{to} is taken by {holder} (a lost glass): move to a vacant space"),
    N_("{to} is taken by {holder} (a glass): move to a vacant space"),
    N_("{to} is not next to {space}: move one space at a time"),
    N_("{player} has no rings left"),
    N_("{space} is full ({n} ring)"),
    N_("{space} is full ({n} rings)"),
    N_("you already dropped your ring for this move"),
    N_("your opponent claimed the ring for this move"),
    N_("a ring was already dropped for this move"),
    N_("your second ring is already dropped"),
    N_("the second ring comes after your own move of this turn"),
    N_("say where the second ring goes (its space)"),
    N_("the ring goes over the glass just moved, on {to}, not on {space}"),
    N_("the claim came after your own move: {glass}'s ring is claimed before you lift a glass"),
    N_("a ring is dropped right after a move, before the next glass is lifted"),
    N_("the 15-second timer is only played at level 3 (this game is level {level})"),
    N_("the 15-second timer is turned against the player on turn"),
    N_("the 15-second timer is still running ({left} s left)"),
    N_("{glass} is lifted: finish the move"),
    N_("{player} can still move ({glasses}): passing is only allowed when no glass can move"),
)

#: The keypad's own refusals (the table, not the rules, gives these).
KEYPAD = (
    N_("type column (1-7 = a-g) and row, then A or B"),
    N_("type column (1-7 = a-g) and row, then #"),
    N_("no such space: column {column} row {row}"),
    N_("glass 1, 2 or 3"),
    N_("level 1-3, rules 1-2, start 1-2, then #"),
    N_("{glass} held horizontally"),
    N_("{glass} < {seconds} s"),
)

_PLAYERS = {"red": N_("RED"), "black": N_("BLACK")}
#: The rule sets, as the replay's header names them.
RULESETS = (N_("adjusted"), N_("original"))
_PENALTIES = {"late": N_("late"), "forfeit": N_("forfeit"), "pass": N_("pass")}
_REASONS = {
    "rings": N_("fewer rings"),
    "time-tiebreak": N_("time tie-break"),
    "full-space": N_("moved onto a full space"),
    "tie": N_("equal rings"),
    "equal-rings": N_("equal rings"),
    "end": N_("stopped by the arbiter"),
    "stopped": N_("stopped by the arbiter"),
    "resignation": N_("resignation"),
}


def player_word(player: str) -> str:
    """``red`` -> ``RED`` (``ROUGE``, ``ČERVENÝ``): how the screens name a player with no name."""
    return _(_PLAYERS[player]) if player in _PLAYERS else player.upper()


def colour_word(player: str) -> str:
    """``red`` -> ``red`` (``rouge``, ``červený``): a player's colour in running text."""
    if player == "red":
        return pgettext("player", "red")
    if player == "black":
        return pgettext("player", "black")
    return player


_NOTICES = {
    "late": N_("{player}: time up, the next turn is skipped"),
    "forfeit": N_("{player}: time up, this turn and the next are lost"),
    "pass": N_("{player} passes"),
}


def penalty_notice(kind: str, player: str) -> str:
    """What the screen says when a penalty falls: time up, and what it costs, in words."""
    return _(_NOTICES[kind]).format(player=player) if kind in _NOTICES else f"{player}: {kind}"


def entry_in_words(entry: str, turn: str | None = None) -> str:
    """The keypad digits as the board names them: ``33`` is ``c3``, ``233`` is red's ``r2``
    to ``c3`` (``3`` alone: column ``c``)."""
    from companion.tamsk.board import COLUMNS, SPACES

    def column(d: str) -> str:
        return COLUMNS[int(d) - 1] if d.isdigit() and 1 <= int(d) <= len(COLUMNS) else d

    if not entry.isdigit() or len(entry) > 3:
        return entry
    if len(entry) == 1:
        return column(entry)
    space = column(entry[-2]) + entry[-1]
    if space not in SPACES:
        space = entry[-2:]
    if len(entry) == 2:
        return space
    glass = f"{(turn or '?')[0]}{entry[0]}"
    return f"{glass} {space}"


def penalty_in_words(kind: str) -> str:
    """``forfeit`` -> the word for a lost turn in the players' language.

    Looked up with the ``penalty`` context: a Tantrix game lost by forfeit is another word
    (French "forfait", Czech "kontumace") than the Tamsk penalty (the rule books' "perte d'un
    coup", "ztráta tahu").
    """
    return pgettext("penalty", kind) if kind in _PENALTIES else kind


def reason_in_words(reason: str | None) -> str:
    """How a game ended, as a player says it: ``"time-tiebreak"`` -> ``"time tie-break"``.

    Reasons the engine may add later still read sensibly (``"no-moves"`` -> ``"no moves"``).
    """
    if not reason:
        return _("no result yet")
    key = reason.replace("_", "-")
    return _(_REASONS[key]) if key in _REASONS else key.replace("-", " ")


def template_of(detail: str) -> tuple[str, dict[str, str]] | None:
    """The English template ``detail`` was made from, with its values; None if unknown."""
    return match_template(detail, REFUSALS + KEYPAD)


def refusal_in_words(detail: str) -> str:
    """A refusal's English ``detail`` in the players' language, its values kept."""
    found = template_of(detail)
    if found is None:
        return detail
    template, values = found
    for key in ("turn", "player"):  # the colours the rules name are words too
        if values.get(key) in _PLAYERS:
            values[key] = colour_word(values[key])
    values = {k: v.replace(" or ", " " + _("or") + " ") for k, v in values.items()}
    return _(template).format(**values)


#: The rules' codes for why an input was refused (``Violation.kind``), as the journal and the
#: notation keep them; :func:`rule_in_words` says them in the players' language.
RULES = {code: code for code in (
    N_("already-lifted"), N_("claim-after-own-move"), N_("correction"), N_("dead-glass"),
    N_("first-three-moves"),
    N_("full-space"), N_("game-over"), N_("must-move"), N_("no-move"), N_("no-moves"),
    N_("no-rings-left"), N_("no-timer"), N_("not-adjacent"), N_("not-arbiter"),
    N_("not-lifted"), N_("occupied"), N_("out-of-turn"), N_("own-turn"),
    N_("ring-already-dropped"), N_("ring-claimed"), N_("ring-window-closed"),
    N_("second-ring-early"), N_("second-ring-used"), N_("space-full"), N_("two-glasses"),
    N_("which-space"), N_("wrong-space"),
)}


def rule_in_words(code: str) -> str:
    """A refusal's rule code (``out-of-turn``) in the players' language (as it is if unknown)."""
    return _(RULES[code]) if code in RULES else code
