"""The tables' answers to the arbiter's commands, on the page in the arbiter's language.

A table answers in stable English (the wire protocol: a table and the page may speak different
languages, and an old table keeps working); the page says each answer it knows in its own
language, its values kept, and shows one it does not know as it came. English stays as it was.
The page's own answers (a PIN refused, a body too slow) are said in its language too, and a
keypad game's end reason in words.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.arbiter import topics
from companion.arbiter.answer_words import (
    PROBLEMS,
    TEMPLATES,
    answer_in_words,
    unverified_in_words,
)
from companion.arbiter.commands import CommandGate, Refused, make_command
from companion.arbiter.pairing_desk import parse_pairing
from companion.arbiter.pin import PinLock
from companion.arbiter.settings import ArbiterSettings
from companion.arbiter.station import game_id_of
from companion.arbiter.web import ArbiterServer, page, page_answer_in_words, refusal_said
from companion.i18n import match_template
from companion.scenario import MalformedInput
from tests.arbiter.keys import ARBITER, TrustingView, fixed_key
from tests.arbiter.test_page import CHROMIUM_FLAGS
from tests.arbiter.test_page_words import script_words
from tests.arbiter.test_pairings_reach_tables import Rig, pairing
from tests.arbiter.test_web_games import PREFIX, ViewSource, chromium, publish
from tests.test_no_english_left import english_in

LANGS = ("fr", "cs")


def _filled(template: str) -> tuple[str, list[str]]:
    """A template with a value of its own in each field (values no catalog translates)."""
    values = re.findall(r"\{(\w+)\}", template)
    return template.format(**{v: f"Q{n}x" for n, v in enumerate(values)}), [
        f"Q{n}x" for n in range(len(values))]


# ------------------------------------------------------------------ every template, said


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("template", TEMPLATES)
def test_every_table_answer_is_said_in_french_and_czech_with_its_values(
    template: str, lang: str
) -> None:
    english, values = _filled(template)
    i18n.use(lang)
    said = answer_in_words(english)
    assert said != english
    assert all(v in said for v in values)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("problem", PROBLEMS)
def test_every_problem_of_a_correction_s_field_is_said_in_french_and_czech(
    problem: str, lang: str
) -> None:
    filled, values = _filled(problem)
    english = f"a 'sand' correction: {filled}"
    i18n.use(lang)
    said = answer_in_words(english)
    assert filled not in said and "'sand'" in said
    assert all(v in said for v in values)


@pytest.mark.parametrize("lang", LANGS)
def test_an_answer_no_template_knows_is_shown_as_it_came(lang: str) -> None:
    i18n.use(lang)
    for text in ("a newer table's answer", "zobrazeno u stolu 3: čeká se", ""):
        assert answer_in_words(text, "tamsk") == text
        assert answer_in_words(text) == text


def test_english_answers_stay_exactly_as_the_tables_send_them() -> None:
    for template in TEMPLATES:
        english, _ = _filled(template)
        assert answer_in_words(english, "tamsk") == english
    assert unverified_in_words("status: the message is not signed") == (
        "status: the message is not signed")


def test_a_refusal_of_the_game_s_rules_is_said_by_the_game_s_words() -> None:
    i18n.use("cs")
    said = answer_in_words("undo: there is no input to undo", "tamsk")
    assert said != "undo: there is no input to undo" and english_in([said], "cs") == {}
    i18n.use("fr")
    assert answer_in_words("undo: done", "tamsk") == "annuler : fait"


def test_a_message_the_page_refused_says_its_kind_and_why() -> None:
    i18n.use("cs")
    assert unverified_in_words("status: the message is not signed") == (
        "stav stolu: zpráva není podepsána")
    i18n.use("fr")
    assert unverified_in_words("events: the table is not enrolled") == (
        "enregistrement : la table n'est pas enregistrée")


# ------------------------------------------------------------ what the tables really say


def _gate_refusals() -> list[str]:
    """What the command gate refuses, made by the gate itself."""
    out = []
    keyless = CommandGate(None, 3)
    gate = CommandGate(ARBITER.public, 3, max_age_s=300)
    good = make_command({"what": "undo", "reason": "r"}, table=3, game="g" * 16, key=ARBITER,
                        issued=1000.0)
    forged = make_command({"what": "undo", "reason": "r"}, table=3, game="g" * 16,
                          key=fixed_key("intruder"), issued=1000.0)
    cases: list[tuple[CommandGate, Any]] = [
        (keyless, good),
        (gate, b"x" * 9000),
        (gate, b"[]"),
        (gate, {**good, "table": 4}),
        (gate, {**good, "nonce": "?"}),
        (gate, {**good, "issued": None}),
        (gate, {**good, "issued": 0.0}),
        (gate, {k: v for k, v in good.items() if k != "correction"}),
        (gate, forged),
    ]
    for which, payload in cases:
        raw = payload if isinstance(payload, bytes) else json.dumps(payload)
        with pytest.raises(Refused) as refused:
            which.screen(raw, 1000.0, 0.0)
        out.append(str(refused.value))
    with pytest.raises(Refused) as other_game:
        gate.admit(good, "another game")
    gate.admit(good, "g" * 16)
    with pytest.raises(Refused) as replayed:
        gate.admit(good, "g" * 16)
    out += [str(other_game.value), str(replayed.value)]
    tight = CommandGate(ARBITER.public, 3, rate_per_s=0.0, burst=1.0)
    tight.screen(json.dumps(good), 1000.0, 0.0)
    with pytest.raises(Refused) as limited:
        tight.screen(json.dumps(good), 1000.0, 0.0)
    out.append(str(limited.value))
    return out


def _pairing_refusals() -> list[str]:
    out = []
    for field, value in (("round", 0), ("first", ""), ("second", "ada"), ("first", "A\x1b")):
        with pytest.raises(ValueError) as refused:
            parse_pairing(pairing("tantrix", **{field: value}))
        out.append(str(refused.value))
    with pytest.raises(ValueError) as refused:
        parse_pairing(None)
    return [*out, str(refused.value)]


def _shape_refusals() -> list[str]:
    """What each game's correction parser says of a correction of the wrong shape."""
    from companion.tamsk.correction_record import parse_correction as tamsk
    from companion.tantrix.corrections import parse_correction as tantrix
    from companion.tokami.corrections import parse_correction as tokami

    by = {"reason": "r", "by": "arbiter"}
    cases = [
        (tamsk, {}), (tamsk, {"what": "bogus"}), (tamsk, {"what": "sand"}),
        (tamsk, {"what": "sand", "reason": "r"}),
        (tamsk, {"what": "sand", **by}), (tamsk, {"what": "sand", **by, "glass": "zz"}),
        (tamsk, {"what": "sand", **by, "glass": "r1"}),
        (tamsk, {"what": "sand", **by, "glass": "r1", "sand": "x"}),
        (tamsk, {"what": "sand", **by, "glass": "r1", "sand": -1}),
        (tamsk, {"what": "sand", **by, "glass": "r1", "sand": 3, "running": 2}),
        (tamsk, {"what": "space", **by, "glass": "r1"}),
        (tamsk, {"what": "space", **by, "glass": "r1", "space": "z9"}),
        (tamsk, {"what": "space", **by, "glass": "r1", "space": 4}),
        (tamsk, {"what": "cancel-penalty", **by, "index": "x"}),
        (tamsk, {"what": "cancel-penalty", **by, "index": -1}),
        (tamsk, {"what": "undo", **by, "auth": 3}),
        (tantrix, {"what": "bogus"}), (tantrix, {"what": "move", **by, "tile": 99}),
        (tantrix, {"what": "turn", **by}), (tantrix, {"what": "result", **by}),
        (tantrix, {"what": "result", **by, "winner": "red", "forfeit": 1}),
        (tokami, {"what": "turn", **by}), (tokami, {"what": "turn", **by, "index": 1}),
        (tokami, {"what": "note", **by}), (tokami, {"what": "score", **by}),
        (tokami, {"what": "score", **by, "player": "Ada"}),
        (tokami, {"what": "score", "reason": "r"}),
    ]
    out = []
    for parse, body in cases:
        with pytest.raises(MalformedInput) as refused:
            parse(body)
        out.append(refused.value.message)
    return out


def _desk_answers(tmp_path: Path) -> list[dict[str, Any]]:
    """A Tamsk table's real answers: a pairing shown, put away, shown again and started,
    one for another game, a replay, then corrections done, refused by the rules and of the
    wrong shape (the table speaks English, whatever the page speaks)."""
    i18n.use("en")
    rig = Rig(tmp_path, "tamsk")
    rig.hooks._answer = lambda outcome: rig.answers.append(outcome.to_dict())  # type: ignore[method-assign]
    rig.send(pairing("tamsk"))
    rig.key("*")
    rig.send(pairing("tamsk", board=4))
    rig.key("#")
    rig.send(pairing("tantrix"))
    game = str(game_id_of(rig.table.journal_path))
    for correction in ({"what": "turn", "player": "black", "reason": "typed wrong"},
                       {"what": "undo", "reason": "nothing typed"},
                       {"what": "sand", "glass": "r1", "sand": "x", "reason": "r"}):
        command = make_command(correction, table=3, game=game, key=ARBITER,
                               issued=rig.clock.wall())
        rig.hooks._command_arrived(json.dumps(command).encode())
    rig.hooks._command_arrived(json.dumps(command).encode())  # the last one again: a replay
    return rig.answers


def test_every_answer_a_table_gives_matches_a_template(tmp_path: Path) -> None:
    """The English the tables send (made by the real gate, desk, parsers and station), each
    known to the page, so none reaches a French or Czech page in English."""
    answers = [a["detail"] for a in _desk_answers(tmp_path)]
    assert len(answers) == 9
    made = [*_gate_refusals(), *_pairing_refusals(), *_shape_refusals(), *answers]
    rules = "undo: there is no input to undo"  # the game's own words say this one
    assert rules in answers
    unknown = [m for m in made if m != rules and match_template(m, TEMPLATES) is None]
    assert unknown == []
    for lang in LANGS:
        i18n.use(lang)
        untranslated = [m for m in made if answer_in_words(m, "tamsk") == m]
        assert untranslated == []


# --------------------------------------------------------------------------- on the page


@pytest.fixture
def answered(tmp_path: Path) -> TrustingView:
    """The page's view of a Tamsk table that answered a pairing and corrections (its records
    and answers as the table published them)."""
    answers = _desk_answers(tmp_path)
    view = TrustingView(PREFIX)
    newest = max(tmp_path.rglob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    publish(view, 3, [json.loads(line) for line in newest.read_text().splitlines()], now=1.0)
    for answer in answers:
        view.handle(topics.topic(PREFIX, 3, "reply"), json.dumps(answer).encode(), 1.0)
    return view


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_s_cards_have_no_english_word_after_real_answers(
    answered: TrustingView, lang: str
) -> None:
    table = answered.tables[3]
    every = list(table.replies)
    assert len(every) == 9
    i18n.use(lang)
    for reply in every:  # the card shows the last three: each answer in its turn
        table.replies = deque([reply])
        card = answered.table_json(3, 2.0)
        texts = [a["detail"] for a in card["answers"]] + [a["text"] for a in card["alerts"]]
        assert texts and english_in(texts, lang) == {}, texts
    i18n.use("en")
    table.replies = deque(every)
    english = [a["detail"] for a in answered.table_json(3, 2.0)["answers"]]
    assert english == [r[1]["detail"] for r in every[-3:]]  # as the table sent them


def test_the_page_s_own_answers_are_in_its_language() -> None:
    i18n.use("cs")
    check = PinLock("", attempts=3, lockout_s=60).check("1234", 0.0)
    assert refusal_said(check.message) == (
        "odmítnuto: režim rozhodčího je vypnut: v konfiguraci chybí otisk PIN")
    assert page_answer_in_words("table 7 has no game the arbiter has seen") == (
        "stůl 7 nemá žádnou hru, kterou by rozhodčí viděl")
    i18n.use("en")
    assert refusal_said(check.message) == (
        "refused: arbiter mode is off: no PIN hash in the configuration")


@pytest.mark.parametrize("lang", LANGS)
def test_a_keypad_game_s_end_reason_is_said_in_words(lang: str) -> None:
    i18n.use(lang)
    words = script_words(page(arbiter=False))["words"]
    for reason in ("rounds", "stopped", "resigned", "ended"):
        assert english_in([words[reason]], lang) == {} and words[reason] != reason


# ----------------------------------------------------------------------------- a browser


def test_a_browser_shows_the_tables_answers_in_czech(
    answered: TrustingView, tmp_path: Path
) -> None:
    exe = chromium()
    if exe is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    i18n.use("cs")
    server = ArbiterServer(ViewSource(answered), ArbiterSettings(), port=0).start()
    try:
        dom = subprocess.run(
            [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium'}",
             "--virtual-time-budget=3000", "--dump-dom",
             f"http://127.0.0.1:{server.port}/?transport=poll"],
            capture_output=True, text=True, timeout=90).stdout
    finally:
        server.stop()
    shown = [html.unescape(a) for a in re.findall(r'<div class="answer \w+">(.*?)</div>', dom)]
    alerts = [html.unescape(a) for a in re.findall(r'<div data-kind="\w+">(.*?)</div>', dom)]
    assert len(shown) == 3, dom[-3000:]  # the last three answers, the correction's among them
    assert shown[0].startswith("oprava odmítnuta: ") and alerts
    assert english_in(shown + alerts, "cs") == {}
