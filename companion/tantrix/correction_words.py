"""The arbiter's refused Tantrix corrections in the table's language, cells named as on the map.

:mod:`companion.tantrix.corrections` is part of the pure rules: it refuses a correction in
English (``"move: the corrected game breaks the rules (restriction 1: (1, 1) touches no
tile)"``) and never imports gettext. Each problem it can give is listed here as its English
template, so :func:`correction_refusal_in_words` says it in the table's language with its tiles
and colours kept and every cell named the way the screen's map names it
(:class:`~companion.tantrix.cellnames.CellNames`), never by axial coordinates. It is what
:mod:`companion.tamsk.correction_words` is for Tamsk; a problem the list does not know is shown
as the rules wrote it (its cells still renamed).
"""

from __future__ import annotations

from companion.i18n import N_, _, match_template
from companion.tantrix.cellnames import CellNames
from companion.tantrix.words import refusal_in_words

#: The corrections by the name the journal gives them.
KINDS = {
    "take-back": N_("take a tile back"),
    "move": N_("move a tile"),
}

#: Every problem :mod:`companion.tantrix.corrections` (and the fold, for a game with hands)
#: gives, as its English template.
PROBLEMS = (
    N_("corrections are made by the arbiter only, not by {who}"),
    N_("{player} is not playing"),
    N_("it is already {player}'s turn"),
    N_("{what}: tile {tile} is not on the table"),
    N_("{what}: any tile is not on the table"),
    N_("{what}: the corrected game breaks the rules ({rule}: {detail})"),
    N_("with hands the table replays every draw: take a tile back with undo (the arbiter's "
       "result correction still applies)"),
)

#: The rules' names for what a corrected game breaks (``IllegalPlacement.kind``).
RULES = {rule: rule for rule in (
    N_("golden rule"), N_("restriction 1"), N_("restriction 2"), N_("restriction 3"),
    N_("not touching"), N_("occupied"), N_("tile already placed"), N_("second free move"),
    N_("game over"), N_("nothing to undo"),
)}


def correction_refusal_in_words(detail: str, names: CellNames | None = None) -> str:
    """A refused correction's English ``detail`` in the table's language; with ``names`` (the
    layout on the table's screen) every engine cell ``(q, r)`` is named as the map names it."""
    found = match_template(detail, PROBLEMS)
    if found is None:
        said = refusal_in_words(detail)
    else:
        template, values = found
        for key, words in (("player", None), ("what", KINDS), ("rule", RULES)):
            value = values.get(key)
            if value is not None and (words is None or value in words):
                values[key] = _(words[value] if words is not None else value)
        if "detail" in values:
            values["detail"] = refusal_in_words(values["detail"])
        said = _(template).format(**values)
    return names.in_text(said) if names is not None else said
