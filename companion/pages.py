"""When the pages of a message too long for the screen turn (one clock for every table).

A refusal stays until the next key and a warning for a few seconds, but neither may be cut:
a player reads a long one a screenful at a time. The table knows *when* a message appeared;
the screen knows how many pages it takes at its size. So the table counts pages up from
0 every :data:`PAGE_S` seconds (``view["error_page"]``, ``view["warning_page"]``) and the
screen shows page ``n % pages``: the message goes round until it is cleared.

The same :class:`Paging` serves the Tamsk table and every keypad table
(:class:`companion.keypad_table.KeypadTable`), so every game turns its pages alike.
"""

from __future__ import annotations

import textwrap

#: Seconds each page of a message stays before the next.
PAGE_S = 3.0
#: Characters on one line of the warning bar of the narrowest panel (128 pixels, 6 a
#: character, 2 of margin each side): :func:`lasting` counts the pages at this width.
NARROWEST_BAR_CHARS = 20


class Paging:
    """The page clock of one message: started when it appears, read when it is drawn."""

    def __init__(self) -> None:
        self.since = 0.0
        self._shown = 0

    def start(self, now: float) -> None:
        """A new message, from its first page."""
        self.since = now
        self._shown = 0

    def page(self, now: float) -> int:
        """The page up at ``now``: 0, 1, 2... (the screen wraps it round its page count)."""
        return max(0, int((now - self.since) // PAGE_S))

    def turned(self, now: float) -> bool:
        """Whether a page has turned since the last call (the screen must be redrawn)."""
        page = self.page(now)
        changed, self._shown = page != self._shown, page
        return changed

    def next_turn(self, now: float) -> float:
        """The monotonic time of the next page turn."""
        return now + PAGE_S - (now - self.since) % PAGE_S


def lasting(text: str, seconds: float) -> float:
    """How long a warning of ``text`` stays: at least ``seconds``, and long enough for each of
    its pages to show once in the narrowest warning bar (a long French or Czech notice is
    not taken away half read)."""
    lines = textwrap.wrap("! " + text, NARROWEST_BAR_CHARS, break_long_words=True)
    return max(seconds, len(lines) * PAGE_S)
