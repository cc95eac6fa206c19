"""Tantrix's refusals in the players' language.

The rules (:mod:`companion.tantrix.game`) refuse a placement in English (``IllegalPlacement``:
the rule, then the detail); each detail they can give is listed here as its English template,
and :func:`refusal_in_words` says it in the players' language with its tiles, cells and colours
kept.
"""

from __future__ import annotations

import re

from companion.i18n import N_, _, match_template, pgettext
from companion.tantrix.cellnames import CellNames

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
    # with hands (companion.tantrix.hands)
    N_("tile {tile} is not in {player}'s hand ({tiles})"),
    N_("{player} holds {count} tiles: draw from the bag first"),
    N_("{player} can fill a forced space: {fills}"),
    N_("tile {tile} is already in {player}'s hand"),
    N_("{player} already holds {count} tiles"),
    N_("the start draw comes before the first draw"),
    N_("every player draws one tile: {players}"),
    N_("two players cannot draw the same tile"),
    N_("in the team game give the start draw as a list in seat order"),
    N_("{player} can fill {fills}"),
    # the Strategy keypad dialogue's slips (companion.tantrix.entry, companion.tantrix.table):
    # journaled in English like the rules' refusals, said in the players' language on screen
    N_("tile numbers have two digits at most; * clears"),  # in journals before the next
    N_("tile numbers have two digits at most: {typed} cleared, type the number again"),
    N_("type the number on the back of the tile, then #"),
    N_("there is no tile {tile}: tiles are 1 to 56"),
    N_("the game is over"),
    N_("tile {tile} fits nowhere now"),
    N_("tile {tile} fits nowhere now; only forced spaces are open now"),
    N_("tile {tile} fits nowhere now: the free move is made and no forced space is open; "
       "D then 1 ends the turn"),
    N_("type a tile number first (D: menu)"),
    N_("A/B: next spot, C: rotate, #: lay, *: back"),
    N_("A/B: next spot, C: rotate, #: place, *: cancel"),  # journals before "#: lay"
    N_("1-4 or A/B and #: choose, *: back"),
    N_("nothing to undo"),
    N_("#: undo, *: keep it"),
    N_("tile {tile} was already drawn for the start"),
    N_("the game was ended; start a new game"),
    # the solo modes (companion.tantrix.solo, companion.tantrix.layout)
    N_("tile {tile} fits at {cell} at rotation {rot}: only a tile that cannot be laid is "
       "discarded"),
    N_("only right after filling a gobble"),
    N_("no tile is drawn or laid yet"),
    N_("no step to take back yet"),
    N_("{cell} touches fewer than {count} tiles"),
    N_("tile {tile} is on the discard pile"),
    N_("{player} gives his tile to an opponent"),
    N_("{player} has already finished"),
    N_("{player} is not playing"),
    N_("a gobble gives one tile, a double gobble two"),
    N_("tile {tile} has a {back} back: the {puzzle} puzzle uses {tiles}"),
    N_("tile {tile} is not on the table"),
    N_("tile {tile} fills the forced space at {cell}: it must go there"),
    N_("tile {tile} is the one drawn, not {other}"),
    N_("turn the next tile over first"),
    N_("tile {tile} is drawn: lay it first"),
    N_("tile {tile} is drawn: lay or discard it"),
    N_("draw a tile first"),
    # the Gobble opening: two tiles drawn, then laid together (companion.tantrix.solo)
    N_("tiles {tile} and {other} are drawn: lay them together"),
    N_("tile {tile} is drawn: lay it beside tile {other}"),
    N_("tile {tile} is drawn: draw the second tile, then lay the two together"),
    N_("tiles {tile} and {other} are drawn, not {third}"),
    N_("tile {tile} is drawn already"),
)


def side_in_words(side: str) -> str:
    """A tile's side as the rules name it (:data:`companion.tantrix.tiles.SIDE_NAMES`, compass
    points clockwise from the upper right) in the players' language: ``SE`` is ``JV`` in Czech."""
    return {"NE": pgettext("side", "NE"), "E": pgettext("side", "E"),
            "SE": pgettext("side", "SE"), "SW": pgettext("side", "SW"),
            "W": pgettext("side", "W"), "NW": pgettext("side", "NW")}.get(side, side)


#: One forced space a player could fill, as the rules list them in ``{fills}``.
FILL = N_("tile {tile} on {cell}")
_FILL = re.compile(r"tile (\d+) on (\(-?\d+, -?\d+\)|[a-z]+-?\d+)")


def _fills_in_words(fills: str) -> str:
    """``tile 33 on (1, 2), tile 40 on (0, 3)`` in the players' language, cells kept."""
    return _FILL.sub(lambda m: _(FILL).format(tile=m[1], cell=m[2]), fills)


def refusal_in_words(detail: str, names: CellNames | None = None) -> str:
    """A refused placement's English ``detail`` in the players' language (as it was if
    unknown); with ``names`` (a map's :class:`~companion.tantrix.cellnames.CellNames`) its
    cells are named as that map names them (``c4``), never ``(1, 0)``."""
    found = match_template(detail, REFUSALS)
    if found is None:
        return names.in_text(detail) if names is not None else detail
    template, values = found
    for key in ("colour", "colour2", "player", "back", "puzzle"):  # colours, all of them
        if key in values:
            values[key] = _(values[key])
    if "side" in values:
        values["side"] = side_in_words(values["side"])
    if names is not None:
        for key in ("cell", "space", "fills"):  # "fills" lists "tile 3 on (1, 0), ..."
            if key in values:
                values[key] = names.in_text(values[key])
    if "fills" in values:
        values["fills"] = _fills_in_words(values["fills"])
    return _(template).format(**values)


#: The rules' codes for why an input was refused (``IllegalPlacement.kind``), as the journal
#: and the notation keep them; :func:`rule_in_words` says them in the players' language.
RULES = {code: code for code in (
    N_("golden rule"), N_("restriction 1"), N_("restriction 2"), N_("restriction 3"),
    N_("not touching"), N_("occupied"), N_("tile already placed"), N_("second free move"),
    N_("game over"), N_("nothing to undo"), N_("malformed"), N_("correction"),
    N_("not-arbiter"),
    # with hands (companion.tantrix.hands)
    N_("not in hand"), N_("draw first"), N_("forced space first"),
    N_("a forced space can be filled"), N_("not in the bag"), N_("hand full"), N_("starter"),
    # the solo modes (companion.tantrix.solo)
    N_("place the drawn tile first"), N_("not the drawn tile"), N_("forced space"),
    N_("not in this puzzle"), N_("not on the table"), N_("the tile fits"), N_("no gobble"),
    N_("not playing"), N_("finished"),
)}


def rule_in_words(code: str) -> str:
    """A refusal's rule code (``occupied``) in the players' language (as it is if unknown)."""
    return _(RULES[code]) if code in RULES else code
