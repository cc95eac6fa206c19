"""Words the Tantrix screens show for the modes added with hands (kept together so that a
translation wraps them in one place)."""

from __future__ import annotations

START_DRAW = "start draw: {player}'s tile? {typed}_ # (0#: skip)"
DRAW = "{player} draws: tile no.? {typed}_ #"
TILE = "tile no.? {typed}_  D: menu"
HAND = "hand {tiles}"
MUST_FILL = "must fill {fills}"
START_SKIPPED = "no start draw: {player} opens"
STARTS = "{player} starts"
DRAWN = "{player} drew tile {tile}"
SHORT_DRAW = "{player} draws"
NOT_IN_HAND = "not in hand: tile {tile} is not in {player}'s hand ({tiles})"
CANNOT_FILL = "forced space first: {detail}"
SCREEN_START = "{player}'s tile? {typed}_"
START_TITLE = "start draw"
SKIP_START = "high opens; 0#: skip"
SCREEN_DRAW = "{player} draws? {typed}_"

# The solo modes (Solitaire, Rainbow, Gobble) at the table.
STOP = "Stop"
DISCARD = "Discard the drawn tile"
RETURN = "Return the top discard"
PLAY_TOP = "Play the top discard"
LIFT = "Lift a tile"
RESTART = "Restart"
NEXT = "Next puzzle"
SOLITAIRE_MENU = (STOP,)
GOBBLE_MENU = (DISCARD, RETURN, PLAY_TOP, STOP)
RAINBOW_MENU = (LIFT, RESTART, NEXT, STOP)
TWO_DIGITS = "tile numbers have two digits at most; * clears"
TYPE_A_TILE = "type a tile number, then # (D: menu)"
LIFT_FIRST = "tile {tile} is on the table: lift it first (D 1)"
PLACE_KEYS = "A/B: next spot, C: turn, #: lay, *: back"
MENU_KEYS = "a number or A/B and #: choose, *: back"
NO_REWARD = "only right after a gobble"
RESTARTED = "every tile lifted"
FITS_NOWHERE = "tile {tile} fits nowhere now"
LAID = "tile {tile} laid at {q}, {r}"
PLACE_PROMPT = "tile {tile}: spot {at}/{of}"
LIFT_PROMPT = "lift: tile no.? {typed}_ #"
DRAWN_PROMPT = "tile {tile} drawn: # to lay it"
RAINBOW_PROMPT = "tile no.? {typed}_  D: menu"
TURN_OVER_PROMPT = "next tile no.? {typed}_ #"
SOLO_TITLES = {"solitaire": "Solitaire", "rainbow": "Rainbow", "gobble": "Gobble"}
SOLVED = "SOLVED"
SOLITAIRE_LINE = "red {kind} {best}/{tiles}, {short} off"
RAINBOW_LINE = "{placed}/{size} laid, {colour}"
GOBBLE_LINE = "gobbles {gobbles}, discard {pile}"
NOT_IN_PUZZLE = "not in this puzzle: tile {tile} has a {back} back; {puzzle} uses {tiles}"
