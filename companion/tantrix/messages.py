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
