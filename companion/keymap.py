"""One key map for the table: the keypad, the terminal and the OLED window press the same keys.

Every row says what a key does at the table, which keypad key or table part it is, and which
computer keys stand for it. The desktop backend (:mod:`companion.desktop`) reads its keys from
:data:`KEYS`, and ``companion keys --help`` and the README print :func:`table_text`, so the
three can never disagree. The keypad's letters ``A``-``D`` are the same letters on a computer
in either case; the hourglasses therefore use keys that are no keypad letter (``q w e`` for
red, ``i o p`` for black). A dialog is closed with ``*`` (Backspace or Esc on a computer); no
key in a dialog quits the program: Ctrl-Q (or Ctrl-C) does, from anywhere.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from companion.i18n import N_, _


@dataclass(frozen=True)
class Key:
    """One thing a player can press: the computer keys, the table part, what it does."""

    keys: tuple[str, ...]  # characters the terminal delivers
    labels: str  # how the computer keys are written for a person
    part: str  # the keypad key ("key:#"), a glass ("tilt:r1"), a button ("button:menu")
    does: str


KEYS: tuple[Key, ...] = (
    Key(("q", "w", "e"), "q w e", "tilt:r1 r2 r3", "turn red's hourglass r1, r2, r3 over"),
    Key(("i", "o", "p"), "i o p", "tilt:b1 b2 b3", "turn black's hourglass b1, b2, b3 over"),
    Key(("z",), "z", "button:ring.red", "red's ring button"),
    Key(("m",), "m", "button:ring.black", "black's ring button"),
    Key(("x",), "x", "button:timer15.red", "red turns the 15-second timer"),
    Key(("n",), "n", "button:timer15.black", "black turns the 15-second timer"),
    Key(("\t",), "Tab", "button:menu", "the MENU button (a press)"),
    Key(("\x05",), "Ctrl-E", "button:menu", "hold MENU: the arbiter ends the game"),
    Key(tuple("0123456789"), "0-9", "key:0-9", "keypad digits"),
    Key(("a", "A"), "A", "key:A", "keypad A: Tamsk red's ring; menus: up/next"),
    Key(("b", "B"), "B", "key:B", "keypad B: Tamsk black's ring; menus: down/next"),
    Key(("c", "C"), "C", "key:C", "keypad C: Tamsk 15-second timer; Tantrix: turn the tile"),
    Key(("d", "D"), "D", "key:D", "keypad D: the menu"),
    Key(("#", "\r", "\n"), "# or Enter", "key:#", "keypad #: confirm"),
    Key(("*", "\x7f", "\x08", "\x1b"), "* or Backspace or Esc", "key:*",
        "keypad *: back; closes a dialog, never quits"),
    Key(("\x11", "\x03", "\x04"), "Ctrl-Q, Ctrl-C or Ctrl-D", "quit",
        "leave the desktop table (not on the Pi)"),
)

#: Terminal character -> the table part it stands for.
BY_CHAR: dict[str, str] = {}
for _row in KEYS:
    if _row.part.startswith("tilt:"):
        for _ch, _glass in zip(_row.keys, _row.part[5:].split(), strict=True):
            BY_CHAR[_ch] = f"tilt:{_glass}"
    elif _row.part == "key:0-9":
        BY_CHAR.update({_ch: f"key:{_ch}" for _ch in _row.keys})
    else:
        BY_CHAR.update(dict.fromkeys(_row.keys, _row.part))


def part_for(ch: str) -> str | None:
    """What the terminal character ``ch`` presses: ``tilt:r1``, ``button:menu``, ``key:#``,
    ``quit``, or None."""
    return BY_CHAR.get(ch)


def table_text() -> str:
    """The key map as a plain-text table (``companion keys --help``, the README)."""
    width = max(len(row.labels) for row in KEYS)
    lines = [f"{'computer':<{width}}  at the table"]
    lines += [f"{row.labels:<{width}}  {row.does}" for row in KEYS]
    return "\n".join(lines)


def hint_line() -> str:
    """One line under the terminal OLED: the keys a player needs first, in his language."""
    return _(N_("q w e / i o p: glasses  z m: rings  x n: 15 s  0-9 A-D # *: keypad  "
                "Tab: menu  Ctrl-Q: quit"))


def keypad_hint_line() -> str:
    """The hint for a game played on the keypad alone (Tantrix, Tokami), in his language."""
    return _(N_("0-9 A B C D: keypad  Enter: #  Backspace/Esc: *  Ctrl-Q: quit"))


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """``companion keys``: print the key map (its ``--help`` shows the same table). Other
    ``keys`` verbs may be added under the parser this returns."""
    p = sub.add_parser(
        "keys",
        help=_("the keys of the table: keypad, terminal and window"),
        description=_("The keys of the table, the same on the keypad, in the terminal and in "
                      "the OLED window:") + "\n\n" + table_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(func=_print_keys)
    return p


def _print_keys(args: argparse.Namespace) -> int:
    print(table_text())
    return 0
