"""Round-robin rounds from the Berger tables (FIDE Handbook C.05, Annex 1).

For an even number ``n`` of players, player ``n`` stays put and the others turn round him: in
round ``r`` the players ``1 .. n-1`` are read starting from ``(r - 1) * n / 2`` (modulo
``n - 1``); the first of them meets player ``n``, the second meets the last, the third the
last but one, and so on. Player ``n`` has the first move in even rounds; in every other pairing
the player read first has it. This reproduces the published tables exactly (see
``tests/tournament/test_berger.py``). For an odd number, the table of ``n + 1`` is used and the
player paired with ``n + 1`` has the bye.
"""

from __future__ import annotations

#: A pairing: (player who moves first, player who moves second); second None: a bye.
Pair = tuple[int, int | None]

MIN_PLAYERS = 2
MAX_PLAYERS = 24


def rounds_needed(players: int) -> int:
    """How many rounds a single round robin of ``players`` takes."""
    return players - 1 if players % 2 == 0 else players


def berger_round(players: int, round_no: int) -> list[Pair]:
    """The pairings of round ``round_no`` (from 1) for ``players`` numbered 1..players,
    table 1 first; a bye (odd numbers) comes last."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a round robin needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players}")
    if not 1 <= round_no <= rounds_needed(players):
        raise ValueError(f"a round robin of {players} players has rounds 1 to "
                         f"{rounds_needed(players)}, not {round_no}")
    n = players + players % 2
    half = n // 2
    start = (round_no - 1) * half % (n - 1)
    seq = [(start + j) % (n - 1) + 1 for j in range(n - 1)]
    pairs: list[tuple[int, int]] = [(n, seq[0]) if round_no % 2 == 0 else (seq[0], n)]
    for j in range(1, half):
        pairs.append((seq[j], seq[n - 1 - j]))
    if n == players:
        return [(a, b) for a, b in pairs]
    out: list[Pair] = []
    bye: Pair | None = None
    for a, b in pairs:
        if n in (a, b):
            bye = (b if a == n else a, None)
        else:
            out.append((a, b))
    assert bye is not None
    return [*out, bye]


def berger_table(players: int) -> list[list[Pair]]:
    """Every round of the round robin."""
    return [berger_round(players, r) for r in range(1, rounds_needed(players) + 1)]
