"""Argument types for the command line: a value that makes no sense is refused by argparse
with a sentence saying what is wanted (``--table -1``, ``--frame-ms -1``, ``--window -5``),
before the command runs, with exit status 2.

>>> whole(1)("3")
3
>>> seconds("0.5")
0.5
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from companion.i18n import N_, _


def whole(low: int, high: int | None = None, what: str = N_("a whole number")
          ) -> Callable[[str], int]:
    """A type for a whole number from ``low`` (to ``high``); ``what`` names it in the refusal
    (marked with ``N_``, said in the reader's language when the refusal is made)."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            wanted = (_("{what} is {low} to {high}, not {text!r}") if high is not None
                      else _("{what} is {low} or more, not {text!r}"))
            raise argparse.ArgumentTypeError(wanted.format(what=_(what), low=low, high=high,
                                                           text=text))
        return value

    return read


def seconds(text: str) -> float:
    """A number of seconds (or a speed, a rate): a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(_("a number above 0, not {text!r}").format(text=text))
    return value


#: A table's number (``--table``, ``arbiter enroll TABLE``): 1, 2, 3...
table_number = whole(1, what=N_("a table's number"))
#: A TCP port a server listens on.
port = whole(1, 65535, what=N_("a port"))
