"""Random but legal solo games (Solitaire and Gobble) for the tests and scenario files: a
seeded shuffle of the bag, each tile laid at a random legal spot, into a forced space whenever
it fits one (Solitaire), or discarded when it fits nowhere (Gobble, which opens with two tiles
drawn, then laid together)."""

from __future__ import annotations

import random

from companion.tantrix.game import Placement
from companion.tantrix.solo import GobbleSolo, Solitaire


def random_solitaire(
    rng: random.Random, target: str = "line", stop_after: int = 56
) -> tuple[Solitaire, list[dict[str, object]]]:
    """Play until ``stop_after`` tiles lie or a drawn tile fits nowhere (left drawn)."""
    bag = list(range(1, 57))
    rng.shuffle(bag)
    game = Solitaire(target)
    events: list[dict[str, object]] = []
    while bag and game.placed < stop_after:
        tile = bag.pop()
        game.draw(tile)
        events.append({"ev": "draw", "tile": tile})
        fills = game.fills()
        spots = game.table.spots(tile)
        if fills:
            spots = [p for p in spots if p.cell in fills]
        if not spots:
            break
        p = rng.choice(spots)
        game.place(p)
        events.append(p.as_event())
    return game, events


def random_gobble(
    rng: random.Random, stop_after: int = 56
) -> tuple[GobbleSolo, list[dict[str, object]]]:
    """Open as rule 1 says (two tiles drawn, then laid together: the first at a random spot
    of the empty table, the second at a random spot beside it), then draw, lay at a random spot
    (a gobble sends the top discard back into the bag), or discard a tile that fits nowhere."""
    bag = list(range(1, 57))
    rng.shuffle(bag)
    game = GobbleSolo()
    events: list[dict[str, object]] = []
    for _ in range(2):
        tile = bag.pop()
        game.draw(tile)
        events.append({"ev": "draw", "tile": tile})
    for tile in list(game.held):
        if game.table.placed >= stop_after:
            return game, events
        p: Placement = rng.choice(game.table.spots(tile, touching=game.touching()))
        game.place(p)
        events.append(p.as_event())
    while bag and game.table.placed < stop_after:
        tile = bag.pop()
        game.draw(tile)
        events.append({"ev": "draw", "tile": tile})
        spots = game.table.spots(tile, touching=game.touching())
        if not spots:
            game.discard_drawn()
            events.append({"ev": "discard"})
            continue
        p = rng.choice(spots)
        game.place(p)
        events.append(p.as_event())
        if game.reward:
            top = game.discard[-1]
            game.return_top()
            events.append({"ev": "return"})
            bag.insert(rng.randrange(len(bag) + 1), top)
    return game, events
