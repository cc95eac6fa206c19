"""The GIPF potential challenge: a Tamsk game that decides whether a potential's extra move stands.

From the Czech rule book ("Neutralizace potenciálu — kombinace her gipf a tamsk"): when a player
brings a Tamsk potential to the centre of the GIPF board he earns an extra move; his opponent
may challenge it by asking for a game of Tamsk. The GIPF game is interrupted and Tamsk is
played. If the potential's *owner* wins, he makes his extra move; if the *challenger* wins, the
potential is lost and the extra move with it. "Any other game with a clear winner will do (a
draw is not enough)": an exact tie decides nothing, and the table offers a new game for the same
challenge. Before the GIPF game the players agree how many challenges are allowed ("once is
recommended to start with"); a challenge that failed still counts.

The journal header of the challenge game records it (``"challenge"``)::

    {"owner": "red", "challenger": "black", "number": 1, "allowed": 1, "attempt": 1,
     "gipf": "club board 3"}

``owner`` and ``challenger`` are the colours the two players have in this Tamsk game; ``number``
is which challenge of the GIPF game this is (from 1), ``allowed`` how many were agreed;
``attempt`` counts the Tamsk games played for this challenge (a tie makes another); ``gipf``
optionally names the GIPF game. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.scenario import MalformedInput
from companion.tamsk.names import PLAYERS, opponent

MAX_CHALLENGES = 99


@dataclass(frozen=True)
class Challenge:
    owner: str
    challenger: str
    number: int = 1
    allowed: int = 1
    attempt: int = 1
    gipf: str = ""

    def to_header(self) -> dict[str, Any]:
        out: dict[str, Any] = {"owner": self.owner, "challenger": self.challenger,
                               "number": self.number, "allowed": self.allowed,
                               "attempt": self.attempt}
        if self.gipf:
            out["gipf"] = self.gipf
        return out


def _count(obj: Mapping[str, Any], key: str, default: int, line: int | None) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CHALLENGES:
        raise MalformedInput(f'"challenge": "{key}" must be 1 to {MAX_CHALLENGES}, '
                             f"got {value!r}", line)
    return value


def parse_challenge(header: Mapping[str, Any], line: int | None = 1) -> Challenge | None:
    """The header's challenge, None when the game is not one; a bad one is MalformedInput."""
    obj = header.get("challenge")
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise MalformedInput('"challenge" must be an object with "owner" and "challenger"', line)
    owner, challenger = obj.get("owner"), obj.get("challenger")
    if owner not in PLAYERS or challenger != opponent(str(owner)):
        raise MalformedInput('"challenge": "owner" and "challenger" must be red and black, '
                             "one each", line)
    number = _count(obj, "number", 1, line)
    allowed = _count(obj, "allowed", 1, line)
    if number > allowed:
        raise MalformedInput(f'"challenge": challenge {number} of a GIPF game that allows '
                             f"{allowed}", line)
    gipf = obj.get("gipf", "")
    if not isinstance(gipf, str) or len(gipf) > 80:
        raise MalformedInput('"challenge": "gipf" names the GIPF game in at most 80 '
                             "characters", line)
    return Challenge(str(owner), str(challenger), number, allowed,
                     _count(obj, "attempt", 1, line), gipf)


def challenge_header(owner: str, *, number: int = 1, allowed: int = 1, attempt: int = 1,
                     gipf: str = "") -> dict[str, Any]:
    """The header fields ``new-game --challenge OWNER`` adds (ValueError for bad values)."""
    if owner not in PLAYERS:
        raise ValueError(f"the potential's owner is red or black, not {owner!r}")
    fields = {"challenge": Challenge(owner, opponent(owner), number, allowed, attempt,
                                     gipf).to_header()}
    try:
        parse_challenge(fields, None)
    except MalformedInput as exc:
        raise ValueError(exc.message) from None
    return fields


def outcome(challenge: Challenge, over: bool, winner: str | None) -> dict[str, Any]:
    """What the Tamsk game decided for the GIPF game, for the state, the screen and the
    result record.

    ``extra_move_stands``: True (the owner won), False (the challenger won: the potential is
    lost), or None (not decided: the game is not over, or an exact tie, when ``new_game`` is
    True and the table offers another game for the same challenge).
    """
    out: dict[str, Any] = {**challenge.to_header(), "decided": False,
                           "extra_move_stands": None, "new_game": False,
                           "challenges_left": challenge.allowed - challenge.number}
    if not over or winner is None:
        out["text"] = "GIPF challenge: not decided yet"
    elif winner == challenge.owner:
        out.update(decided=True, extra_move_stands=True,
                   text=f"GIPF challenge: {challenge.owner} keeps the extra move")
    elif winner == challenge.challenger:
        out.update(decided=True, extra_move_stands=False,
                   text=f"GIPF challenge: {challenge.challenger} wins; the potential is lost")
    else:
        out.update(new_game=True, text="GIPF challenge: a tie decides nothing; play a new "
                                       f"game (attempt {challenge.attempt + 1})")
    return out
