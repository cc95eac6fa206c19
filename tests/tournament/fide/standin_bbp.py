"""A stand-in for bbpPairings in tests (the real engine cannot be installed here).

It is run the way bbpPairings is (``--dutch IN -p OUT``) and reads the TRF the way
bbpPairings' documentation and reader describe, refusing with exit 3 and one line on stderr
what bbpPairings would refuse or misread, so that the file companion writes is checked field
by field:

- both paths absolute; the file legal UTF-8; lines split on CR and LF;
- ``XXR`` (the number of rounds) present, and ``XXC white1``/``black1`` when no game has
  colours yet (bbpPairings draws no initial colour);
- every ``001`` line at least 84 characters, its start number, rating, points and round
  columns in their columns (start number 5-8, rating 49-52, points 81-84, rounds from 92, ten
  columns each: opponent, colour, result); start numbers 1..n with none missing or repeated,
  in initial-ranking order (ratings not rising);
- every game mirrored on the opponent's line with the other colour;
- the points of each line equal to its results (``BBW``/``BBD``/``BBL``/``BBU`` for the point
  system), the column of the round to pair counted or not;
- the round to pair: one after the last column with a game or a pairing-allocated bye; a
  player with ``0000 - H``, ``Z`` or ``F`` in its column is not paired.

It then pairs simply (not the Dutch system): by score and start number, no rematch of a
played game, no two players who both must have the same colour, the bye to the lowest player
who has had none and won no round without playing; exit 1 when it finds no pairing. The answer
is written as bbpPairings writes it: the number of pairs, then ``white black`` a line, ``N 0``
for the bye.

``STANDIN_LOG`` (a file) receives one JSON line of what it read, then one of its answer
(``answer``: the pairs white first, ``bye``); ``STANDIN_SLEEP`` (seconds)
makes it sleep first, ``STANDIN_EXIT`` makes it exit with that code and ``STANDIN_ANSWER``
answer that text (``|`` for a new line) after reading the file (for the error paths).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def refuse(why: str, code: int = 3) -> None:
    print(why, file=sys.stderr)
    sys.exit(code)


def main(argv: list[str]) -> None:
    if os.environ.get("STANDIN_SLEEP"):
        time.sleep(float(os.environ["STANDIN_SLEEP"]))
    if os.environ.get("STANDIN_EXIT"):
        refuse("asked to fail", int(os.environ["STANDIN_EXIT"]))
    if len(argv) != 4 or argv[0] != "--dutch" or argv[2] != "-p":
        refuse("usage: --dutch input-file -p output-file")
    src, out = Path(argv[1]), Path(argv[3])
    if not (src.is_absolute() and out.is_absolute()):
        refuse("paths must be absolute")
    try:
        text = src.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        refuse("The file is not legal UTF-8.")
    lines = [ln for chunk in text.split("\r") for ln in chunk.split("\n") if len(ln) >= 3]
    rounds = 0
    initial = ""
    points = {"W": 1.0, "D": 0.5, "L": 0.0, "U": None}
    players: dict[int, dict] = {}
    for ln in lines:
        code = ln[:3]
        if code == "XXR":
            rounds = int(ln[3:].strip())
        elif code == "XXC":
            words = ln[3:].split()
            initial = "white" if "white1" in words else "black" if "black1" in words else ""
        elif code in ("BBW", "BBD", "BBL", "BBU"):
            points[code[2]] = float(ln[4:].strip())
        elif code == "001":
            if len(ln) < 84:
                refuse(f"Invalid line \"{ln}\"")
            number = int(ln[4:8])
            if number in players:
                refuse("A pairing number is repeated.")
            rating = int(ln[48:52]) if ln[48:52].strip() else 0
            cols = []
            pos = 91
            while pos <= len(ln) - 8:
                opp, colour, res = ln[pos:pos + 4], ln[pos + 5], ln[pos + 7]
                if colour not in "wb- " or res not in "10=+-WDLHFUZ ":
                    refuse(f"Invalid line \"{ln}\"")
                cols.append((0 if opp in ("0000", "    ") else int(opp), colour, res))
                pos += 10
            if ln[pos:].strip():
                refuse(f"Invalid line \"{ln}\"")
            players[number] = {"rating": rating, "score": float(ln[80:84]), "cols": cols}
    if not rounds:
        refuse("The total number of rounds in the tournament must be specified.")
    if sorted(players) != list(range(1, len(players) + 1)):
        refuse("A pairing number is missing.")
    ratings = [players[n]["rating"] for n in sorted(players)]
    if any(a < b for a, b in zip(ratings, ratings[1:], strict=False)):
        refuse("start numbers are not in initial-ranking order")
    played = 0
    for p in players.values():
        for r, (opp, _c, res) in enumerate(p["cols"], start=1):
            if opp or res in "U+":
                played = max(played, r)
    if played >= rounds:
        refuse("The number of rounds is larger than the reported number of rounds.")
    if not played and not initial:
        refuse("no initial colour (XXC white1 or black1) for the first round")
    win, draw, loss = points["W"], points["D"], points["L"]
    pab = win if points["U"] is None else points["U"]
    value = {"1": win, "+": win, "F": win, "W": win, "U": pab, "=": draw, "D": draw,
             "H": draw, "0": loss, "L": loss, "-": 0.0, "Z": 0.0, " ": 0.0}
    for n, p in players.items():
        got = sum(value[res] for _o, _c, res in p["cols"][:played])
        nxt = value[p["cols"][played][2]] if len(p["cols"]) > played else 0.0
        if abs(p["score"] - got) > 1e-9 and abs(p["score"] - got - nxt) > 1e-9:
            refuse(f"The score for player {n} does not match the game results.")
        for r, (opp, colour, res) in enumerate(p["cols"][:played], start=1):
            if opp and res in "10=WDL":
                mate = players[opp]["cols"][r - 1]
                if mate[0] != n or mate[1] == colour or colour not in "wb":
                    refuse(f"Match {r} for player {n} contradicts the entry for the opponent.")
            if not opp and res in "10=" and colour != "-":
                refuse(f"Invalid line for player {n}")
        p["points"] = got
        p["colours"] = [c for o, c, res in p["cols"][:played] if o and res in "10=WDL"]
        p["met"] = {o for o, c, res in p["cols"][:played] if o and res in "10=WDL"}
        p["barred"] = any(res in "U+F" for _o, _c, res in p["cols"][:played])
    away = {n: p["cols"][played][2] for n, p in players.items() if len(p["cols"]) > played}
    if any(p["cols"][played][0] for p in players.values() if len(p["cols"]) > played):
        refuse("the round to pair already has games")
    to_pair = sorted((n for n in players if n not in away),
                     key=lambda n: (-players[n]["points"], n))
    if os.environ.get("STANDIN_LOG"):
        with open(os.environ["STANDIN_LOG"], "a", encoding="utf-8") as log:
            log.write(json.dumps({"round": played + 1, "rounds": rounds, "initial": initial,
                                  "away": away, "to_pair": to_pair,
                                  "points": {n: p["points"] for n, p in players.items()}})
                      + "\n")
    if os.environ.get("STANDIN_ANSWER"):
        out.write_text(os.environ["STANDIN_ANSWER"].replace("|", "\n"), encoding="utf-8")
        return
    answer = pair(players, to_pair, initial or "white")
    if answer is None:
        refuse("No valid pairing exists.", 1)
    games, bye = answer
    rows = [f"{w} {b}" for w, b in games] + ([f"{bye} 0"] if bye else [])
    out.write_text(f"{len(rows)}\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    if os.environ.get("STANDIN_LOG"):
        with open(os.environ["STANDIN_LOG"], "a", encoding="utf-8") as log:
            log.write(json.dumps({"answer": games, "bye": bye}) + "\n")


def preference(colours: list[str]) -> tuple[str, bool]:
    cd = colours.count("w") - colours.count("b")
    if cd > 1 or colours[-2:] == ["w", "w"]:
        return "b", True
    if cd < -1 or colours[-2:] == ["b", "b"]:
        return "w", True
    if cd:
        return ("b" if cd > 0 else "w"), False
    return ({"w": "b", "b": "w"}[colours[-1]] if colours else ""), False


def pair(players: dict[int, dict], order: list[int], initial: str):
    def fits(a: int, b: int) -> bool:
        pa, pb = preference(players[a]["colours"]), preference(players[b]["colours"])
        return b not in players[a]["met"] and not (pa[1] and pb[1] and pa[0] == pb[0])

    def match(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        a = rest[0]
        for b in rest[1:]:
            if fits(a, b):
                tail = match([x for x in rest[1:] if x != b])
                if tail is not None:
                    return [(a, b), *tail]
        return None

    candidates: list[int | None] = [None]
    if len(order) % 2:
        candidates = [n for n in reversed(order) if not players[n]["barred"]]
    for bye in candidates:
        pairs = match([n for n in order if n != bye])
        if pairs is not None:
            return [colours(players, a, b, initial) for a, b in pairs], bye
    return None


def colours(players: dict[int, dict], a: int, b: int, initial: str) -> tuple[int, int]:
    pa, pb = preference(players[a]["colours"]), preference(players[b]["colours"])
    if pa[0] and pa[0] != pb[0]:
        return (a, b) if pa[0] == "w" else (b, a)
    if pb[0] and pb[0] != pa[0]:
        return (b, a) if pb[0] == "w" else (a, b)
    if pa[0]:
        return (a, b) if pa[0] == "w" else (b, a)
    first = "w" if initial == "white" else "b"
    mine = first if a % 2 else {"w": "b", "b": "w"}[first]
    return (a, b) if mine == "w" else (b, a)


if __name__ == "__main__":
    main(sys.argv[1:])
