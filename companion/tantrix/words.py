"""Tantrix's refusals in the players' language.

The rules (:mod:`companion.tantrix.game`) refuse a placement in English (``IllegalPlacement``:
the rule, then the detail); each detail they can give is listed here as its English template,
and :func:`refusal_in_words` says it in the players' language with its tiles, cells and colours
kept.
"""

from __future__ import annotations

from companion.i18n import N_, _, match_template

REFUSALS = (
    N_("no tile has been placed"),
    N_("all 56 tiles are already on the table"),
    N_("tile {tile} already lies at {cell}"),
    N_("{cell} already holds tile {tile}"),
    N_("{cell} touches no tile"),
    N_("{player} has had his free move; {cell} is not a forced space"),
    N_("side {side} of tile {tile} is {colour} but tile {other} there shows {colour2}"),
    N_("the forced space at {cell} would face three {colour} sides"),
    N_("{cell} touches the forced space at {space}, which must be filled first"),
    N_("{cell} lies on a side controlled by the forced space at {space}"),
)


def refusal_in_words(detail: str) -> str:
    """A refused placement's English ``detail`` in the players' language (as it was if
    unknown)."""
    found = match_template(detail, REFUSALS)
    if found is None:
        return detail
    template, values = found
    for key in ("colour", "colour2", "player"):
        if key in values:
            values[key] = _(values[key])
    return _(template).format(**values)
