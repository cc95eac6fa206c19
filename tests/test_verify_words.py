"""``companion verify`` and ``companion dispute`` say what the journal's reader, the line reader,
the keys and the signature checks found in the reader's language: every English message those
modules can give matches a template of :mod:`companion.verify_words`, and every template is
translated."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import match_template
from companion.verify_words import TEMPLATES, in_words

ROOT = Path(__file__).resolve().parents[1] / "companion"
#: Where the messages are made: the calls whose argument is a message (its position), and
#: the functions whose returned strings are messages.
SOURCES = {
    "journal.py": ({"Problem": 3}, ("signature_problem",)),
    "lines.py": ({"MalformedInput": 0, "_Refused": 0}, ()),
    "keys.py": ({"KeyFileError": 0}, ()),
    "verify.py": ({"Problem": 3}, ("_record_problem",)),
    "arbiter/tails.py": ({}, ("check_tail",)),
}
#: Messages that never reach a report: raised where the command says something else.
NOT_SHOWN = ("is enrolled with another key", "already exists; a table keeps its key",
             "not a private key file", "not an Ed25519 key", "cannot read the key (",
             "is not a number JSON allows")


def instance(node: ast.expr) -> str | None:
    """An English message as the code makes it, every value written ``7``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(p.value if isinstance(p, ast.Constant) else "7" for p in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = instance(node.left), instance(node.right)
        return None if left is None or right is None else left + right
    return None


def messages() -> Iterator[tuple[str, str]]:
    for name, (calls, functions) in SOURCES.items():
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                position = calls.get(str(called))
                if position is not None and len(node.args) > position:
                    text = instance(node.args[position])
                    if text is not None:
                        yield name, text
            if isinstance(node, ast.FunctionDef) and node.name in functions:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        values = (inner.value.elts if isinstance(inner.value, ast.List)
                                  else [inner.value])
                        for v in values:
                            text = instance(v)
                            if text is not None:
                                yield name, text


def test_the_check_finds_the_messages_of_each_module() -> None:
    found = {name for name, _text in messages()}
    assert found == set(SOURCES)
    assert sum(1 for _ in messages()) >= 30


@pytest.mark.parametrize(("where", "message"), sorted(set(messages())))
def test_every_message_of_the_checks_matches_a_template(where: str, message: str) -> None:
    if any(part in message for part in NOT_SHOWN) and not match_template(message, TEMPLATES):
        pytest.skip("never in a report")
    assert match_template(message, TEMPLATES) is not None, message


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_every_template_is_said_in_french_and_czech(lang: str) -> None:
    i18n.use(lang)
    try:
        for template in TEMPLATES:
            english = template.format(**{k: "7" for k in re.findall(r"\{(\w+)\}", template)})
            words = re.sub(r"\{\w+\}", "", template)
            assert in_words(english) != english or not re.search(r"[a-z]", words), template
    finally:
        i18n.reset()


def test_a_message_inside_a_message_is_said_too() -> None:
    i18n.use("fr")
    try:
        said = in_words("this record is not signed (edited and re-chained, appended or spliced "
                        "in by someone without the table's key)")
        assert said == ("cet enregistrement n'est pas signé (modifié puis rechaîné, ajouté ou "
                        "inséré par quelqu'un sans la clé de la table)")
    finally:
        i18n.reset()


def test_an_unknown_message_is_shown_in_english_rather_than_lost() -> None:
    i18n.use("cs")
    try:
        assert in_words("something new went wrong") == "something new went wrong"
    finally:
        i18n.reset()
