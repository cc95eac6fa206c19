"""Hypothesis strategies for Tamsk: random, mostly plausible, often illegal event sequences."""

from __future__ import annotations

from hypothesis import strategies as st

from companion.tamsk import events as ev
from companion.tamsk.board import SPACES
from companion.tamsk.events import GLASSES, PLAYERS, Event
from companion.tamsk.game import Rules

rules = st.builds(
    Rules,
    level=st.sampled_from((1, 2, 3)),
    ruleset=st.sampled_from(("adjusted", "original")),
    start=st.sampled_from(("standard", "free")),
    periods=st.dictionaries(st.sampled_from(GLASSES), st.floats(5.0, 200.0), max_size=6),
    timer_period=st.sampled_from((15.0, 4.0)),
)

spaces = st.sampled_from(SPACES)
maybe_space = st.one_of(st.none(), spaces, spaces, spaces)


@st.composite
def event_sequences(draw: st.DrawFn, max_size: int = 60) -> list[Event]:
    """Events in time order: lifts, releases (often to a neighbour), rings, timers, passes."""
    n = draw(st.integers(0, max_size))
    t = 0.0
    out: list[Event] = []
    for _ in range(n):
        t += draw(st.sampled_from((0.0, 0.2, 0.5, 1.0, 3.0, 7.0, 16.0, 40.0, 120.0)))
        kind = draw(
            st.sampled_from(("lift", "release", "release", "ring", "ring", "timer15", "pass"))
        )
        if kind == "lift":
            out.append(ev.lift(t, draw(st.sampled_from(GLASSES))))
        elif kind == "release":
            out.append(ev.release(t, draw(st.sampled_from(GLASSES)), draw(maybe_space)))
        elif kind == "ring":
            space = draw(st.one_of(st.none(), st.none(), spaces))
            out.append(ev.ring(t, draw(st.sampled_from(PLAYERS)), space))
        elif kind == "timer15":
            out.append(ev.timer15(t, draw(st.sampled_from(PLAYERS))))
        else:
            out.append(ev.pass_turn(t, draw(st.sampled_from(PLAYERS))))
    if draw(st.booleans()):
        out.append(ev.end(t + draw(st.sampled_from((0.0, 5.0, 500.0)))))
    return out


@st.composite
def legal_games(draw: st.DrawFn, max_moves: int = 40) -> tuple[Rules, list[Event]]:
    """Games where every move is chosen among the legal ones (positions always known)."""
    from companion.tamsk.game import Game

    r = draw(rules)
    game = Game(r)
    out: list[Event] = []
    t = 0.0
    for _ in range(draw(st.integers(0, max_moves))):
        if game.over:
            break
        t += draw(st.sampled_from((0.5, 2.0, 9.0, 20.0)))
        game.advance(t)
        if game.over:
            break
        player = game.turn
        glasses = [
            g for g in game.movable(player) if game.sand(g) > 0.5 or not game.glasses[g].running
        ]
        if not glasses:
            break
        glass = draw(st.sampled_from(glasses))
        to = draw(st.sampled_from(game.destinations(glass)))
        for e in (ev.lift(t, glass), ev.release(t + 0.3, glass, to)):
            out.append(e)
            game.apply(e)
        if draw(st.booleans()) and not game.over:
            e = ev.ring(t + 0.5, player)
            out.append(e)
            game.apply(e)
        t += 0.5
    return r, out
