"""The arbiter's alerts in the table's language: a glass running low, a 15-second overrun, a
refused input, a table offline. The English alerts are those of ``test_view.py``."""

from __future__ import annotations

import json
from pathlib import Path

from companion import i18n
from companion.arbiter import topics
from tests.arbiter.keys import TrustingView
from tests.arbiter.test_view import MOVES, PREFIX, feed, journal


def texts(view: TrustingView, table: int, now: float) -> list[str]:
    return [a["text"] for a in view.table_json(table, now)["alerts"]]


def test_a_glass_under_ten_seconds_is_said_in_french_and_czech(tmp_path: Path) -> None:
    view = TrustingView(PREFIX)
    feed(view, journal(tmp_path, MOVES[:1]), now=100.0)
    assert texts(view, 1, 272.0) == ["r1 under 10 s (8.0 s)"]
    i18n.use("fr")
    assert texts(view, 1, 272.0) == ["r1 sous 10 s (8,0 s)"]  # the decimal comma
    i18n.use("cs")
    assert texts(view, 1, 272.0) == ["r1 pod 10 s (8,0 s)"]


def test_a_15_second_overrun_names_the_player_in_the_players_language(tmp_path: Path) -> None:
    view = TrustingView(PREFIX)
    feed(view, journal(tmp_path, MOVES[:1] + [{"t": 4.0, "ev": "timer15", "player": "red"}]))
    assert "15 s overrun: black" in texts(view, 1, 16.0)
    i18n.use("fr")
    assert "15 s dépassées : noir" in texts(view, 1, 16.0)
    i18n.use("cs")
    assert "15 s překročeno: černý" in texts(view, 1, 16.0)


def test_a_refused_input_is_said_with_the_rules_reason_translated(tmp_path: Path) -> None:
    view = TrustingView(PREFIX)
    feed(view, journal(tmp_path, [{"t": 2.0, "ev": "release", "glass": "b1", "to": "c1"}]))
    english = texts(view, 1, 0.0)[0]
    assert english.startswith("refused (black): ") and "red's turn" in english
    i18n.use("fr")
    french = texts(view, 1, 0.0)[0]
    assert french.startswith("refusé (noir) : ") and "red's turn" not in french
    i18n.use("cs")
    assert texts(view, 1, 0.0)[0].startswith("odmítnuto (černý): ")


def test_a_table_offline_is_said_in_the_arbiters_language() -> None:
    view = TrustingView(PREFIX)
    body = json.dumps({"table": 2, "status": "offline"}).encode()
    view.handle(topics.topic(PREFIX, 2, "status"), body, 0.0)
    assert "table 2 is offline" in texts(view, 2, 0.0)
    i18n.use("fr")
    assert "la table 2 est hors ligne" in texts(view, 2, 0.0)
    i18n.use("cs")
    assert "stůl 2 je offline" in texts(view, 2, 0.0)
