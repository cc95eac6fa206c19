"""Random but legal games: seat players, deal from a shuffled bag, play until the table is full.

Used by the property tests, the benchmark and demos. The random source is passed in (a seeded
``random.Random``), so a game is reproducible from its seed and this module stays pure.

Each turn follows the rule book: fill forced spaces while a tile in hand fits one, play one free
move if any tile fits anywhere, fill forced spaces again, then end the turn. Every placement draws
a replacement while the bag lasts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.tantrix.game import HAND, Game, Placement
from companion.tantrix.tiles import TILE_COUNT


@dataclass
class RandomGame:
    """A finished (or stuck) random game and the events that replay it."""

    game: Game
    events: list[dict[str, object]] = field(default_factory=list)
    hands: dict[str, list[int]] = field(default_factory=dict)
    stuck: bool = False


def _fill_forced(
    game: Game,
    hand: list[int],
    bag: list[int],
    rng: random.Random,
    events: list[dict[str, object]],
    stop_after: int,
) -> int:
    played = 0
    while game.placed < stop_after:
        options = [
            p for t in hand for p in game.legal_placements(t) if game.is_forced_space(p.cell)
        ]
        if not options:
            return played
        _play(game, rng.choice(options), hand, bag, events)
        played += 1
    return played


def _play(
    game: Game, p: Placement, hand: list[int], bag: list[int], events: list[dict[str, object]]
) -> None:
    game.play(p)
    events.append(p.as_event())
    hand.remove(p.tile)
    if bag:
        hand.append(bag.pop())


def random_game(
    rng: random.Random,
    players: Sequence[str] = ("red", "yellow"),
    *,
    stop_after: int = TILE_COUNT,
) -> RandomGame:
    """Play a random legal game until ``stop_after`` tiles lie on the table (all 56 by default)
    or no player can place anything (``stuck``)."""
    bag = list(range(1, TILE_COUNT + 1))
    rng.shuffle(bag)
    game = Game(players)
    hands = {p: [bag.pop() for _ in range(HAND)] for p in game.players}
    result = RandomGame(game, [], hands)
    idle_turns = 0
    while game.placed < stop_after:
        hand = hands[game.turn]
        played = _fill_forced(game, hand, bag, rng, result.events, stop_after)
        if game.placed < stop_after:
            free = [
                p
                for t in hand
                for p in game.legal_placements(t)
                if not game.is_forced_space(p.cell)
            ]
            if free:
                _play(game, rng.choice(free), hand, bag, result.events)
                played += 1
        if game.placed < stop_after:
            played += _fill_forced(game, hand, bag, rng, result.events, stop_after)
        if game.placed >= stop_after:
            break
        game.end_turn()
        result.events.append({"ev": "done"})
        idle_turns = 0 if played else idle_turns + 1
        if idle_turns >= len(game.players):
            result.stuck = True
            break
    return result


def random_hands_game(
    rng: random.Random,
    players: Sequence[str] = ("red", "yellow"),
    *,
    stop_after: int = TILE_COUNT,
) -> RandomGame:
    """A random game with hands (:class:`~companion.tantrix.hands.HandsGame`) whose events
    include the start draw and every draw, played by a solver that obeys the obligation: it
    fills a forced space whenever its hand can, plays its free move only when it cannot, and
    draws a replacement after every placement."""
    from companion.tantrix.hands import HandsGame  # rules module: pure, imported when used

    bag = list(range(1, TILE_COUNT + 1))
    rng.shuffle(bag)
    game = HandsGame(players)
    events: list[dict[str, object]] = []
    start = rng.sample(bag, len(game.players))
    if len(set(game.players)) == len(game.players):
        draws: object = dict(zip(game.players, start, strict=True))
    else:
        draws = list(start)
    game.start_draw(draws)  # type: ignore[arg-type]
    events.append({"ev": "starter", "draws": draws})

    def refill() -> None:
        while (seat := game.next_draw()) is not None and bag:
            tile = bag.pop()
            game.draw(seat, tile)
            events.append({"ev": "draw", "player": game.players[seat], "tile": tile})

    def place(p: Placement) -> None:
        game.play(p)
        events.append(p.as_event())
        refill()

    refill()
    result = RandomGame(game, events)
    idle_turns = 0
    while game.placed < stop_after:
        played = 0
        free_done = False
        while game.placed < stop_after:
            fills = game.must_fill()
            if fills:
                f = rng.choice(fills)
                rots = [p for p in game.legal_placements(f.tile) if p.cell == (f.q, f.r)]
                place(rng.choice(rots))
                played += 1
                continue
            if free_done:
                break
            free_done = True
            free = [p for t in game.hand(game.seat) for p in game.legal_placements(t)]
            if not free:
                break
            place(rng.choice(free))
            played += 1
        if game.placed >= stop_after:
            break
        game.end_turn()
        events.append({"ev": "done"})
        idle_turns = 0 if played else idle_turns + 1
        if idle_turns >= len(game.players):
            result.stuck = True
            break
    result.hands = {
        name: game.hand(s) for s, name in enumerate(_names(game.players))
    }
    return result


def _names(players: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for p in players:
        seen[p] = seen.get(p, 0) + 1
        out.append(p if players.count(p) == 1 else f"{p} {seen[p]}")
    return out
