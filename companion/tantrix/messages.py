"""Words the Tantrix screens show for the modes added with hands and the solo modes, kept
together and marked with :func:`~companion.i18n.N_` for the catalogs; the screens translate
them with :func:`~companion.i18n._` when they draw."""

from __future__ import annotations

from companion.i18n import N_

START_DRAW = N_("start draw: {player}'s tile? {typed}_ # (0#: skip)")
DRAW = N_("{player} draws: tile no.? {typed}_ #")
TILE = N_("tile? {typed}_  D: menu")
#: After the free move: the next tile (a forced space), or D then 1 to end the turn.
TILE_OR_END = N_("tile? {typed}_  D 1: end")
HAND = N_("hand {tiles}")
MUST_FILL = N_("must fill {fills}")
START_SKIPPED = N_("no start draw: {player} opens")
STARTS = N_("{player} starts")
DRAWN = N_("{player} drew tile {tile}")
SHORT_DRAW = N_("{player} draws")
NOT_IN_HAND = N_("not in hand: tile {tile} is not in {player}'s hand ({tiles})")
CANNOT_FILL = N_("forced space first: {detail}")
SCREEN_START = N_("{player}'s tile? {typed}_")
START_TITLE = N_("start draw")
SKIP_START = N_("high opens; 0#: skip")
SCREEN_DRAW = N_("{player} draws? {typed}_")

# The solo modes (Solitaire, Rainbow, Gobble) at the table.
STOP = N_("Stop")
DISCARD = N_("Discard the drawn tile")
RETURN = N_("Return the top discard")
PLAY_TOP = N_("Play the top discard")
LIFT = N_("Lift a tile")
RESTART = N_("Restart")
NEXT = N_("Next puzzle")
UNDO = N_("Undo the last step")
UNDONE = N_("last step undone")
# Undo comes last so the existing menu numbers (1 stop, 4 stop) stay what players learnt.
SOLITAIRE_MENU = (STOP, UNDO)
GOBBLE_MENU = (DISCARD, RETURN, PLAY_TOP, STOP, UNDO)
RAINBOW_MENU = (LIFT, RESTART, NEXT, STOP)
TWO_DIGITS = N_("tile numbers have two digits at most: {typed} cleared, type the number again")
TYPE_A_TILE = N_("type a tile number, then # (D: menu)")
LIFT_FIRST = N_("tile {tile} is on the table: lift it first (D 1)")
PLACE_KEYS = N_("A/B: next spot, C: rotate, #: lay, *: back")
MENU_KEYS = N_("a number or A/B and #: choose, *: back")
NO_REWARD = N_("only right after a gobble")
RESTARTED = N_("every tile lifted")
FITS_NOWHERE = N_("tile {tile} fits nowhere now")
# A cell a player reads is named as the map names it (companion.tantrix.cellnames): ``c4``.
LAID = N_("tile {tile} laid at {cell}")
PLACE_PROMPT = N_("tile {tile}: spot {at}/{of}")
LIFT_PROMPT = N_("lift: tile no.? {typed}_ #")
DRAWN_PROMPT = N_("tile {tile} drawn: # to lay it")
RAINBOW_PROMPT = N_("tile no.? {typed}_  D: menu")
TURN_OVER_PROMPT = N_("next tile no.? {typed}_ #")
# The Gobble opening (rule 1): two tiles drawn, then laid together; one line of 21 characters.
FIRST_PROMPT = N_("1st tile no.? {typed}_ #")
SECOND_PROMPT = N_("{tile} + 2nd tile? {typed}_ #")
PAIR_PROMPT = N_("{tile}+{other} drawn: # to lay")
SOLO_TITLES = {"solitaire": N_("Solitaire"), "rainbow": N_("Rainbow"), "gobble": N_("Gobble")}
SOLVED = N_("SOLVED")
SOLO_PROGRESS = N_("{placed} placed, bag {bag}")
SOLITAIRE_LINE = N_("red {kind} {best}/{tiles}, {short} off")
RAINBOW_LINE = N_("{placed}/{size} laid, {colour}")
GOBBLE_LINE = N_("gobbles {gobbles}, discard {pile}")
NOT_IN_PUZZLE = N_("not in this puzzle: tile {tile} has a {back} back; {puzzle} uses {tiles}")
RACE_LINE = N_("{rank}. {player} g{gobbles} {done}")
RACE_DONE = N_("done")
RACE_PROMPT = N_("player key 1-{n}: then target key, or # done")
RACE_WHO = N_("{player}: gobble to 1-{n}? # done, * back")
RACE_TITLE = N_("Gobble race")

# The Strategy keypad dialogue (companion.tantrix.entry): its notes and prompts.
PLACED = N_("tile {tile} placed at {cell}")
PLACE_SPOT = N_("tile {tile}: spot {at}/{of} at {cell} rotation {rot}")
PLACE_FORCED = N_("tile {tile}: forced space {at}/{of} at {cell} rotation {rot}")
UNDO_ASK = N_("undo tile {tile} at {cell}? #: yes, *: no")
FORCED_COUNT = N_("forced: {count}")
TILE_ASK = N_("tile number? then #")
TILE_TYPED = N_("tile number? {typed} then #")
TURN_ENDED = N_("{player} ended the turn")
TAKEN_BACK = N_("took back tile {tile}: lift it off the table")
STATUS = N_("{player} to play | bag {bag} {phase}")
STATUS_OVER = N_("game over | bag {bag} {phase}")
PHASES = {"restricted": N_("restricted"), "final": N_("final phase")}
SCORE_LINE = N_("{player}: line {line}, loop {loop}, {points} points")
SCORES_ASK = N_("scores (any key: back)")
NO_FORCED_ASK = N_("no forced space (any key: back)")
FORCED_ASK = N_("forced space {at}/{of} (A/B: next)")
