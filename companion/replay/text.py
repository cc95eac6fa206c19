"""A frame as text for a terminal: the board, the clocks and what the rules made of the move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.replay.model import Frame, Replay
from companion.replay.panel import clock
from companion.tamsk.simulate import board_text
from companion.tantrix.simulate import board_map

#: How many of the penalties and refusals so far a frame lists (the latest ones).
RECENT = 4


def title(replay: Replay) -> str:
    """Who played, from the header: ``Ada (red) v Ben (black)``."""
    names = replay.header.get("names")
    if isinstance(names, Mapping) and names:
        return " v ".join(f"{n} ({p})" for p, n in names.items() if isinstance(n, str) and n)
    if replay.game == "tantrix":
        return " v ".join(str(p) for p in replay.header.get("players", []))
    return ""


def heading(replay: Replay, frame: Frame) -> str:
    """The first line of a frame: which move, when, and the move in notation."""
    game = replay.game.capitalize()
    if frame.index < 0:
        return f"{game} position {frame.label}"
    if frame.index == 0:
        return f"{game} start of the game  [{clock(frame.t)}]"
    where = f"move {frame.record} of {replay.records}" if frame.record else "meanwhile"
    return f"{game} {where}  [{clock(frame.t)}]  {frame.label}"


def _recent(items: list[Any], fmt: Any) -> list[str]:
    shown = items[-RECENT:]
    out = [fmt(x) for x in shown]
    if len(items) > len(shown):
        out.insert(0, f"  ... {len(items) - len(shown)} earlier")
    return out


def tamsk_body(state: Mapping[str, Any]) -> list[str]:
    out = [board_text(state), "  n/c: n rings of c on a space, r1:n/c a glass on it, R1 a lost "
           "glass, ## a full space", ""]
    left = state["rings_left"]
    out.append(f"Rings left: red {left['red']}, black {left['black']}")
    if state["level"] >= 2:
        hands = set(state.get("in_hand", {}).values())
        for name, g in state["glasses"].items():
            if g["dead"]:
                how = f"lost at {clock(g['died_at'])}" if g["died_at"] is not None else "lost"
            elif name in hands:
                how = "in hand"
            else:
                how = "running" if g["running"] else "not turned yet"
            out.append(f"  {name} on {g['space'] or '?':3} sand {g['sand']:6.1f} s  {how}")
    if state["level"] >= 3:
        timer = state["timer15"]
        out.append(
            f"15-second timer: {timer['remaining']:.1f} s left against {timer['against']}"
            if timer["running"]
            else "15-second timer: not running"
        )
    if state["over"]:
        w = state["winner"]
        out.append(f"Game over: {'a tie' if w == 'tie' else w + ' wins'} ({state['reason']})")
    else:
        out.append(f"Turn: {state['turn']}")
        if state.get("bonus_ring"):
            out.append(f"  {state['bonus_ring']} may drop a second ring on any space not full")
    pen = state["penalties"]
    out.append(f"Penalties: {len(pen)}")
    out += _recent(pen, lambda p: f"  {clock(p['t'])} {p['player']} {p['kind']}")
    vio = state["violations"]
    out.append(f"Refused inputs: {len(vio)}")
    out += _recent(vio, lambda v: f"  {clock(v['t'])} {v['player']}: {v['detail']} ({v['kind']})")
    return out


def tantrix_body(state: Mapping[str, Any]) -> list[str]:
    out = [
        f"{state['placed']} tiles placed, bag {state['bag']} ({state['phase']} phase)",
    ]
    tiles = state.get("tiles", [])
    if tiles:
        out += board_map(
            [(t["tile"], (t["q"], t["r"])) for t in tiles],
            [(q, r) for q, r in state["forced"]],
            [(q, r) for q, r in state["controlled"]],
        )
        out.append("  tile numbers on the map; !! forced space, xx controlled cell")
    out.append("Scores (line, loop, points; the traced chain):")
    for player, s in state["scores"].items():
        chain = state.get("chains", {}).get(player, {})
        kind = f"{chain.get('kind')} of {len(chain.get('cells', []))}" if chain.get("kind") else "-"
        out.append(f"  {player:<7} {s['line']:2d} {s['loop']:2d} {s['points']:3d}   {kind}")
    if state["over"]:
        w = state["winner"]
        out.append("Game over: " + ("a tie" if w == "tie" else f"{w} wins"))
    else:
        out.append(f"Turn: {state['turn']}")
    vio = state["violations"]
    out.append(f"Refused inputs: {len(vio)}")
    out += _recent(vio, lambda v: f"  {v['player']}: {v['detail']} ({v['kind']})")
    return out


def frame_text(replay: Replay, frame: Frame) -> str:
    """Everything a player wants to see at one step, as lines of text."""
    out = [heading(replay, frame)]
    out += [f"  * {m}" for m in frame.marks]
    out.append("")
    if replay.game == "tokami":
        from companion.tokami.picture import text_lines

        body = text_lines(frame.state)
    elif replay.game == "tamsk":
        body = tamsk_body(frame.state)
    else:
        body = tantrix_body(frame.state)
    return "\n".join(out + body)


def move_list(replay: Replay) -> str:
    """The notation lines as people read them: one per move, with what the rules said."""
    out = []
    for frame in replay.frames[1:]:
        number = f"{frame.record:>3}." if frame.record else "    "
        marks = f"  ; {'; '.join(frame.marks)}" if frame.marks else ""
        out.append(f"{number} {frame.label}{marks}")
    return "\n".join(out)
