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


def joined(parts: Sequence[str], sep: str = "") -> Remark:
    """A line of notation put together from its parts, as a remark: in English it is the
    parts joined (the very text the notation file writes), and :func:`companion.i18n.say`
    says each part that is a remark (``ring``, ``draws``, a colour, a Tantrix cell) in the
    players' language and keeps the others (times, tile numbers, spaces, names) as they are.
    The replay's move list, headings and pictures show a line this way; the notation file
    keeps the English text."""
    values = {f"p{i}": part for i, part in enumerate(parts)}
    between = sep.replace("{", "{{").replace("}", "}}")
    return Remark(between.join(f"{{{key}}}" for key in values), **values)
