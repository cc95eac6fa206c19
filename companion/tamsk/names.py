"""The names every Tamsk module shares: players, glasses, input kinds (no imports, no rules)."""

from __future__ import annotations

PLAYERS = ("red", "black")
GLASSES = ("r1", "r2", "r3", "b1", "b2", "b3")

LIFT = "lift"
RELEASE = "release"
RING = "ring"
TIMER15 = "timer15"
PASS = "pass"
END = "end"
NOTE = "note"
PUTBACK = "putback"
CORRECT = "correct"
#: A player gives the game up (at the keypad: D, then his ring key twice); the other wins.
RESIGN = "resign"

KINDS = (LIFT, RELEASE, RING, TIMER15, PASS, END, NOTE, PUTBACK, CORRECT, RESIGN)


def owner(glass: str) -> str:
    """The player a glass belongs to: ``r*`` are red, ``b*`` black."""
    return "red" if glass[0] == "r" else "black"


def opponent(player: str) -> str:
    return "black" if player == "red" else "red"
