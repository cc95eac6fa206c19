"""The Discovery puzzle's refusals and problems in the players' language, cells named as on the map.

:mod:`companion.puzzle.rules` is pure: it says what is wrong with a layout in English, with the
engine's axial cells (``tiles 1 and 2 share cell (0, 1)``), and never imports gettext. Each
sentence it (or the puzzle table's keypad dialogue) can give is listed here as its English
template, so :func:`in_words` says it in the players' language with its tiles and colours kept
and, given the layout's :class:`~companion.tantrix.cellnames.CellNames`, every cell named as
the puzzle screen's map names it. A sentence the list does not know is shown as it was written
(its cells still renamed).
"""

from __future__ import annotations

import re

from companion.i18n import N_, _, match_template, ngettext
from companion.tantrix.cellnames import CellNames

#: Every problem :func:`companion.puzzle.rules.check_discovery` finds in a layout.
PROBLEMS = (
    N_("tile {tile} is laid twice"),
    N_("tiles {tile} and {other} share cell {cell}"),
    N_("not part of this puzzle: tiles {tiles}"),
    # "missing: tile 3" / "missing: tiles 2, 3": said with ngettext (see in_words)
    N_("the {colour} bands make no loop through all {n} tiles (largest {colour2} loop: {loop})"),
    N_("the {colour} bands make no loop through all {n} tiles"),
    N_("golden rule: side {side} of tile {tile} at {cell} is {colour} but tile {other} shows "
       "{colour2}"),
    # a Rainbow puzzle's (companion.tantrix.solo.Rainbow.verdict)
    N_("no {colour} loop through all {n} tiles (largest: {loop})"),
    N_("no loop through all {n} tiles (largest: {loop})"),
    N_("the tiles do not fill a triangle of rows {shape}"),
    N_("no line through all {n} tiles (longest: {colour} {line})"),
)

#: The tiles a layout still lacks, as the rules write it (one tile, or several).
_MISSING = re.compile(r"missing: tiles? (?P<tiles>\d+(?:[ ,]+\d+)*)")

#: Every refusal of a tile laid or lifted (:mod:`companion.puzzle.rules`,
#: :func:`companion.puzzle.simulate.apply_event`) and every slip of the keypad dialogue
#: (:mod:`companion.puzzle.table`).
REFUSALS = (
    N_("this puzzle uses tiles 1 to {n}, not {tile}"),
    N_("tile {tile} already lies at {cell}"),
    N_("tile {tile} is not on the table"),
    N_("tile numbers have two digits at most; * clears"),  # in journals before the next
    N_("tile numbers have two digits at most: {typed} cleared, type the number again"),
    N_("type the number on the back of a tile, then #"),
    N_("type a tile number first (D: menu)"),
    N_("A/B: next spot, C: rotate, #: lay, *: back"),
    N_("A/B: next spot, C: rotate, #: lay, *: cancel"),  # journals before "*: back"
    N_("no tile lies on the table to lift"),
    N_("1-{n} or A/B and #: choose, *: back"),
    N_("A/B: pick the tile, #: lift it, *: back"),
    N_("#: lift every tile, *: keep them"),
)

_COLOURS = ("colour", "colour2")


def in_words(text: str, names: CellNames | None = None) -> str:
    """A problem or refusal's English ``text`` in the players' language; with ``names`` (the
    layout on the screen) every engine cell ``(q, r)`` named as the map names it."""
    missing = _MISSING.fullmatch(text)
    found = match_template(text, PROBLEMS + REFUSALS)
    if missing is not None:
        tiles = missing["tiles"]
        said = ngettext("missing: tile {tiles}", "missing: tiles {tiles}",
                        len(re.findall(r"\d+", tiles))).format(tiles=tiles)
    elif found is None:
        said = text
    else:
        template, values = found
        for key in _COLOURS:
            if key in values:
                values[key] = _(values[key])
        said = _(template).format(**values)
    return names.in_text(said) if names is not None else said
