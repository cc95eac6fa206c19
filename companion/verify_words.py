"""What ``companion verify`` and ``companion dispute`` find, in the reader's language.

The journal's reader (:mod:`companion.journal`), the line reader's limits (:mod:`companion.lines`)
and the signature checks say what is wrong in stable English: the tables, the tests and other
programs read those words. This shell module lists each of them as its English template, so a
report can match a message, keep its values (a line number, a fingerprint) and say the template
in French or Czech, as the games' words modules do for their rules' refusals. A message that
matches no template (one added later) is shown in English rather than lost;
``tests/test_verify_words.py`` checks every message the checks can give against a template.

A game's own words (a player's colour, a refusal of its rules, why it ended) come from its
words module, ``companion.<game>.words``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from companion import i18n, registry
from companion.i18n import N_, _, match_template

#: Every English message of the journal's reader, the line reader and the signature checks.
TEMPLATES = (
    # companion.journal: the chain
    N_("the record before this one was removed, inserted, reordered or edited"),
    N_("record number {seq}, expected {expected}"),
    N_("the first record must be the game header"),
    N_("{problem}; nothing intact follows, so it is taken for a write cut short and ignored"),
    N_("the journal is empty"),
    N_("{problem} (and the {n} lines after it, to byte {end})"),
    N_("the last line is incomplete (a write cut short by a power cut, or the file was cut or "
       "edited); it is ignored"),
    N_("this line is not a readable record"),
    N_("this line is not a JSON object"),
    N_("this record was rewritten or edited"),
    N_("this record was edited or damaged (its hash does not match)"),
    # companion.lines: a line beyond the readers' limits
    N_("line longer than the limit of {n} bytes"),
    N_("not UTF-8 text (byte {n} of the line)"),
    N_("a byte order mark (BOM): save the file as UTF-8 without BOM"),
    N_("a NUL byte in the line"),
    N_("nested deeper than the limit of {n} levels"),
    N_("{problem} (beyond the reader's limits)"),
    N_("an integer of more than {n} digits"),
    N_("a number written with more than {n} characters"),
    N_("a number too large to be finite ({text})"),
    N_("not valid JSON ({problem} at column {column})"),
    N_("not readable JSON ({kind})"),
    N_("\"t\" must be a number of seconds from 0 to {most}, got {value}"),
    N_("{problem} (at byte {offset})"),
    N_("line {line}: {problem}"),
    # signatures (companion.journal, companion.verify)
    N_("this record is not signed"),
    N_("this record's signature is malformed"),
    N_("this record is not signed by the journal's key"),
    N_("this record is not signed by the arbiter's key"),
    N_("this record names a signer that is not a key"),
    N_("this record was appended with a key that is not the arbiter's ({fingerprint})"),
    N_("{problem} (edited and re-chained, appended or spliced in by someone without {whose})"),
    N_("the journal is not signed (its header names no signer)"),
    N_("the journal was signed with another key ({named}), not {trust} ({signer})"),
    N_("table {table} is not enrolled in the arbiter's keyring {path} (the journal names "
       "{named}); enrol it (`companion arbiter enroll`) or give --key"),
    N_("table {table} is not enrolled in the arbiter's keyring {path}; enrol it (`companion "
       "arbiter enroll`) or give --key"),
    N_("unknown game {game} in the header"),
    # companion.keys: the key or keyring given
    N_("{path}: no such file (nor a public key line, which begins with {kind})"),
    N_("{path}: a folder, not a public key file"),
    N_("{path}: cannot read the keyring ({problem})"),
    N_("{path}: the keyring is damaged ({problem})"),
    N_("'{kind}' must be followed by the key"),
    N_("not a public key line (it should start with {kind})"),
    N_("the key is not valid base64"),
    N_("the key has the wrong length (an Ed25519 key is 32 bytes)"),
    N_("the key is not written as it was made (its base64 differs)"),
    N_("no public key found (empty text)"),
    N_("an Ed25519 public key is 32 bytes"),
    # whose key
    N_("the given key"),
    N_("table {table}'s enrolled key"),
    N_("the key the header names"),
    N_("the table's key"),
    N_("the arbiter's key"),
    # companion.arbiter.tails: against what the station saw
    N_("the journal has no header to match with the station's record"),
    N_("the station's record is of table {table}, the journal of table {other}"),
    N_("the station never saw this game ({game}) of table {table}"),
    N_("the journal ends at record {last}, but the station saw record {seen}; the station saw "
       "this game finished (final record {final}): a finished game was cut off"),
    N_("the journal ends at record {last}, but the station saw record {seen}"),
    N_("record {seen} is not the one the station saw (its hash differs)"),
    # last: a file and what the system says of it
    N_("{file}: {problem}"),
)
#: The values of a template that are messages themselves (said again).
_NESTED = ("problem", "whose", "trust")


def in_words(text: str) -> str:
    """An English message of the checks in the reader's language (as it is in English, or
    when no template matches it)."""
    if i18n.language() == "en":
        return str(text)
    found = match_template(str(text), TEMPLATES)
    if found is None:
        return str(text)
    template, values = found
    said = {k: in_words(v) if k in _NESTED else v for k, v in values.items()}
    return _(template).format(**said)


def problem_in_words(line: int, offset: int, message: str) -> str:
    """A problem of a journal (:class:`companion.journal.Problem`), located."""
    return _("line {line} (byte {offset}): {problem}").format(line=line, offset=offset,
                                                               problem=in_words(message))


# ---------------------------------------------------------------------------- the game's words


def game_words(game: object) -> ModuleType | None:
    """The words module of a registered game (``companion.<game>.words``), or None."""
    return registry.game_module(game, "words")


#: The players of the games whose players are colours, as their replays say them.
_COLOURS = ("red", "yellow", "green", "blue", "black", "white")


def player_in_words(game: object, player: object) -> str:
    """A player as the game's replay names him: a colour in the reader's language, a name as
    it is."""
    words = game_words(game)
    text = str(player)
    colour = getattr(words, "colour_word", None)
    if callable(colour):
        return str(colour(text))
    return _(text) if text in _COLOURS else text


def refusal_in_words(game: object, detail: str, kind: str) -> str:
    """A refused input: the rules' detail and the rule, in the game's words."""
    words = game_words(game)
    say_detail = getattr(words, "refusal_in_words", None)
    say_rule = getattr(words, "rule_in_words", None)
    shown = str(say_detail(detail)) if callable(say_detail) else detail
    rule = str(say_rule(kind)) if callable(say_rule) else kind
    return f"{shown} ({rule})"


def result_in_words(game: object, result: Mapping[str, Any]) -> str:
    """A finished game's result: who won (or a tie) and, when the game says it, why."""
    winner = result.get("winner")
    reason = result.get("reason")
    if i18n.language() == "en":  # the engine's codes, as scripts have always read them
        return f"{winner}" + (f" ({reason})" if reason else "")
    if winner == "tie":
        said = _("a tie")
    elif winner:
        said = _("{player} wins").format(player=player_in_words(game, winner))
    else:
        said = _("no winner")
    words = game_words(game)
    say_reason = getattr(words, "reason_in_words", None)
    if reason and callable(say_reason):
        said += f" ({say_reason(str(reason))})"
    return said
