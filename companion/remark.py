"""A remark in English that remembers how it was made, so the shell can say it in another language.

A replay's fold says in words what the rules made of each move (``r1 ran out of sand at 1:02:
lost``). Those words go two ways: into the notation file, whose comments are English for good
(journals, ``companion simulate`` and the tests compare them byte for byte), and onto a replay's
pages and pictures, in the players' language. A :class:`Remark` is both at once: it *is* the
English text (a ``str``, equal to it, joined and written like it), and it keeps its message id
and its values, so :func:`companion.i18n.say` can translate it where it is shown.

Standard library only: the folds build remarks without importing gettext; the message ids are
marked with ``N_`` so ``make catalogs`` finds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any


class Remark(str):
    """English text that knows its message id and values.

    ``Remark("{glass} lost", glass="r1")`` equals ``"r1 lost"``. A value may be a remark itself
    (a colour as a word of the game: ``Remark("red", context="player")``) or a :meth:`via`
    remark (a refusal the game's own words module translates); plain values are kept as they are
    (names, spaces, times).
    """

    msgid: str
    values: dict[str, str]
    context: str | None
    words: Callable[[str], str] | None
    #: Whether a reader is shown something else even in English (a :meth:`via` remark made
    #: with ``english=True``, or one holding such a value): a Tantrix cell is ``(1, 0)`` in
    #: the notation but ``c4`` on a replay's page, as the board's letters and numbers name it.
    in_english: bool

    def __new__(cls, msgid: str, /, *, context: str | None = None, **values: Any) -> Remark:
        text = msgid.format(**values) if values else msgid
        self = super().__new__(cls, text)
        self.msgid = msgid
        self.values = {k: v if isinstance(v, str) else str(v) for k, v in values.items()}
        self.context = context
        self.words = None
        self.in_english = any(isinstance(v, Remark) and v.in_english
                              for v in self.values.values())
        return self

    @classmethod
    def via(cls, translate: Callable[[str], str], text: str, *, english: bool = False) -> Remark:
        """``text`` as it is in English, said in another language by ``translate`` (a game's
        ``refusal_in_words``, which knows the English templates of its rules' details); with
        ``english``, said by ``translate`` to an English reader too (``(1, 0)`` -> ``c4``)."""
        self = cls(text.replace("{", "{{").replace("}", "}}"))
        self.words = translate
        self.in_english = english
        return self


def english(message: str) -> str:
    """``_`` for a writer given no gettext: the English message as it is (the default of the
    games' ``summary`` functions, whose rules never import gettext)."""
    return message


def english_in(context: str, message: str) -> str:
    """``pgettext`` for a writer given no gettext."""
    return message


def N_(message: str) -> str:
    """Mark ``message`` for ``make catalogs`` (``-k N_``) in a module that must not import
    gettext (a game's notation, which writes the record format)."""
    return message


class Words(tuple[str, ...]):
    """A line of notation put together from its parts: joined, the English text the notation
    file writes (``str(words)``); each part that is a :class:`Remark` (``ring``, ``draws``, a
    colour, a Tantrix cell) is said in the players' language where a replay shows the line
    (:attr:`companion.replay.model.Frame.shown`), the others (times, tile numbers, spaces,
    names) are kept as they are. A flat tuple rather than one remark holding the others: a
    replay keeps every line of a game, and the words it repeats are shared (:func:`word`)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "".join(self)


def joined(parts: Sequence[str | Words], sep: str = "") -> Words:
    """``parts`` with ``sep`` between them, as :class:`Words` (a part that is itself
    :class:`Words` is spliced in, so the line stays flat)."""
    out: list[str] = []
    for i, part in enumerate(parts):
        if i and sep:
            out.append(sep)
        if isinstance(part, Words):
            out.extend(part)
        else:
            out.append(part)
    return Words(out)


@cache
def word(msgid: str, context: str | None = None) -> Remark:
    """One word of a line (``ring``, ``done``, a colour) as a remark, made once and shared by
    every line that says it: a replay holds every line of a game at once, and a remark costs a
    few hundred bytes (a ``str`` subclass cannot have slots)."""
    return Remark(msgid, context=context)
