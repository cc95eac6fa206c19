"""What the tables answer the arbiter's commands, in the page's language.

A table answers every command it hears (a pairing shown or started, a correction done or
refused) with a ``detail`` in stable English: the tables' wire protocol, read by the arbiter's
page, by ``companion tournament`` and by other programs, whatever language each table or page
speaks (an old table keeps working with a newer page). This shell module lists each of those
English answers as its template, so the page can match an answer, keep its values (a table, a
round, a nonce) and say it in the arbiter's language, as :mod:`companion.verify_words` does for
``companion verify``. An answer no template knows (one a newer table gives, or one a table
already said in its own language) is shown as it came, never lost; a refusal of a game's own
rules is said by the game's words (``correction_refusal_in_words``) when the table's game is
known. ``tests/arbiter/test_table_answer_words.py`` says every template in French and Czech.
"""

from __future__ import annotations

from collections.abc import Callable

from companion import i18n, registry
from companion.i18n import N_, _, match_template

#: Every English answer of the tables (most specific first: the first template that matches
#: is said).
TEMPLATES = (
    # companion.arbiter.pairing_desk
    N_("shown at table {table}: waiting for the players to press {key}"),
    N_("put away at the table (not started)"),
    N_("started: round {round} board {board}, {first} v {second}"),
    N_("the game could not start: {problem}"),
    N_("replayed pairing refused (nonce {nonce})"),
    N_("the command carries no pairing"),
    N_("table {table} plays {kind}, not {game}"),
    N_("the pairing's {field} must be a name of 1 to {n} characters"),
    N_("the pairing's {field} has control characters"),
    N_("the pairing's {field} must be a whole number from 1 to 999"),
    N_("a pairing needs two different players"),
    # companion.arbiter.commands: the command gate
    N_("the command is larger than {n} bytes"),
    N_("more commands than the rate limit allows"),
    N_("not a command (a JSON object is expected)"),
    N_("this table has no arbiter key: it takes no commands"),
    N_("the command is for table {asked}, this is table {table}"),
    N_("the command has no valid nonce"),
    N_("the command has no issue time"),
    N_("the command was issued {offset} s from this table's clock (more than {most} s): "
       "refused as stale"),
    N_("the command carries no correction and no pairing"),
    N_("signature refused: {problem}"),
    N_("the command is for another game than the one on this table"),
    N_("replayed command refused (nonce {nonce} was already used)"),
    # companion.arbiter.station, keypad_station, hooks, companion.tamsk.arbiter
    N_("no game on this table"),
    N_("the command carries no correction for this table"),
    N_("this table's game takes no arbiter commands"),
    N_("{what}: done"),
    N_("{what}: queued behind a glass in motion"),
    # the corrections' shape (companion.scenario.correction_head, each game's parse_correction)
    N_("unknown {game} correction {what} (expected one of {whats})"),
    N_("unknown correction {what} (expected one of {whats})"),
    N_("a correction needs \"what\" ({whats})"),
    N_("a {what} correction needs a \"reason\": corrections are never made without one"),
    N_("a {what} correction needs \"by\" (who made it: \"arbiter\")"),
    N_("a {what} correction needs \"player\", a colour ({colours})"),
    N_("a {what} correction needs \"winner\": a colour or tie"),
    N_("a {what} correction needs \"index\", the turn's number from 1"),
    N_("a {what} correction needs \"turn\": the turn as it really was, e.g. {example}"),
    N_("a {what} correction needs \"text\" (1 to {n} characters)"),
    N_("a {what} correction needs \"player\", a player's name"),
    N_("a {what} correction needs \"points\", a whole number from {low} to {high}, not 0"),
    N_("a {what} correction: {problem}"),
    # companion.arbiter.sealing: a message the page cannot take as the table's
    N_("the table is not enrolled"),
    N_("the arbiter is not enrolled"),
    N_("the message is not signed"),
    N_("the message's signature cannot be read"),
    N_("the signature is not the enrolled table's"),
    N_("the signature is not the enrolled arbiter's"),
)

#: What is wrong with one field of a correction (``a 'sand' correction: <problem>``).
PROBLEMS = (
    N_("needs \"space\" (a1..g4)"),
    N_("needs \"space\" (a1..g4, or null)"),
    N_("\"space\" must be a space of the board (a1..g4)"),
    N_("\"space\": {value} is not a space of the board (a1..g4)"),
    N_("needs \"{key}\" (seconds)"),
    N_("needs \"{key}\", a whole number, got {value}"),
    N_("needs a \"reason\": corrections are never made without one"),
    N_("needs \"by\" (who made it: \"arbiter\")"),
    N_("needs \"{key}\" ({choices})"),
    N_("\"{key}\" must be one of {choices}, got {value}"),
    N_("\"{key}\" must be a number, got {value}"),
    N_("\"{key}\" must be a finite number >= 0, got {value}"),
    N_("\"{key}\" must be {low} or more, got {value}"),
    N_("\"{key}\" must be true or false, got {value}"),
    N_("\"{key}\" must be text, got {value}"),
    N_("\"{key}\" must be a whole number {low} to {high}, got {value}"),
    N_("\"{key}\" is true or false"),
)

#: A pairing's fields, as the page's form names them.
FIELDS = {"tournament": N_("tournament"), "round": N_("round"), "board": N_("board"),
          "first": N_("first"), "second": N_("second"), "game": N_("game")}


def answer_in_words(detail: object, game: object = None) -> str:
    """A table's English answer in the page's language (as it is in English, or when no
    template knows it); ``game`` (the table's game kind) says a refusal of its rules."""
    text = str(detail)
    if i18n.language() == "en":
        return text
    found = match_template(text, TEMPLATES)
    if found is None:
        return _game_words(game)(text)
    template, values = found
    if "problem" in values:  # a field's problem, or an answer inside the answer
        shape = template == N_("a {what} correction: {problem}")
        values["problem"] = (_problem(values["problem"]) if shape
                             else answer_in_words(values["problem"], game))
    if values.get("field") in FIELDS:
        values["field"] = _(FIELDS[values["field"]])
    if template in _DONE:  # the correction by its name on the table's screen, when it has one
        values["what"] = _correction_name(game, values["what"])
    return _(template).format(**values)


#: The answers that name a correction by its journal name (``undo: done``).
_DONE = (N_("{what}: done"), N_("{what}: queued behind a glass in motion"))


def _correction_name(game: object, what: str) -> str:
    """A correction's journal name (``take-back``) as its game's words say it (their
    ``KINDS``), else as it is (the name the page's form offers)."""
    kinds = getattr(registry.game_module(game, "correction_words"), "KINDS", None)
    return _(kinds[what]) if isinstance(kinds, dict) and what in kinds else what


def _problem(problem: str) -> str:
    found = match_template(problem, PROBLEMS)
    if found is None:
        return problem
    template, values = found
    return _(template).format(**values)


def _game_words(game: object) -> Callable[[str], str]:
    """The game's words for its refused corrections (``correction_refusal_in_words``, in its
    ``correction_words`` or its ``words``: English in, the page's language out, as it came
    when they do not know it), or the text as it is."""
    for module in ("correction_words", "words"):
        say = getattr(registry.game_module(game, module), "correction_refusal_in_words", None)
        if callable(say):
            return lambda text: str(say(text))
    return str


#: The kinds of a table's messages (MQTT topics), as an alert about one names them.
MESSAGES = {"status": N_("status"), "state": N_("state"), "events": N_("record"),
            "result": N_("result"), "reply": N_("answer")}


def unverified_in_words(why: str) -> str:
    """Why the page refused a table's message (``"status: the message is not signed"``: the
    message's kind, then :func:`companion.arbiter.sealing.check`'s reason), said."""
    if i18n.language() == "en":
        return why
    kind, sep, reason = why.partition(": ")
    if not sep or kind not in MESSAGES:
        return answer_in_words(why)
    return _("{message}: {why}").format(message=_(MESSAGES[kind]),
                                        why=answer_in_words(reason))
