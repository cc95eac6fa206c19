"""A round's pairings sent to the tables over MQTT, each as a signed arbiter command.

``companion tournament pair --send`` and ``companion tournament send T --round N`` (and the
demo) call :func:`send_pairings`: one command per game of the round (a bye stays on the
arbiter's sheet), signed with the arbiter's key (:func:`companion.arbiter.signing.arbiter_key`:
``[arbiter] key_file``, by default ``arbiter.key`` in the arbiter's data folder), to the table
the tournament file pairs the game at. The tables answer on their ``reply`` topic (shown,
refused and why, started); :func:`send_pairings` waits a few seconds for those answers and
returns them, so the arbiter sees at once which table did not hear its pairing.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.arbiter import topics
from companion.arbiter.commands import make_pairing_command
from companion.arbiter.mqtt import make_client, success
from companion.arbiter.settings import MqttSettings
from companion.i18n import _
from companion.keys import SigningKey
from companion.tournament.model import Round, Tournament


@dataclass(frozen=True)
class Sent:
    """One pairing sent, and the table's answer (None: none came in time)."""

    table: int
    first: str
    second: str
    nonce: str
    answer: Mapping[str, Any] | None = None

    def line(self) -> str:
        head = _("table {table}: {first} - {second}: ").format(
            table=self.table, first=self.first, second=self.second)
        if self.answer is None:
            return head + _("no answer from the table (is it on and connected?)")
        verdict = _("ok") if self.answer.get("ok") else _("refused")
        return head + f"{verdict}: {self.answer.get('detail', '')}"


def pairing_bodies(t: Tournament, r: Round, board: int | None = None
                   ) -> list[tuple[int, dict[str, Any]]]:
    """Each table's pairing of round ``r`` (only board ``board``'s when given; byes have no
    table to send to)."""
    out = []
    for g in r.games:
        if board is not None and g.board != board:
            continue
        out.append((g.table, {
            "tournament": t.name,
            "round": r.number,
            "board": g.board,
            "first": t.players[g.first].name,
            "second": t.players[g.second].name,
            "game": t.game,
        }))
    return out


def send_pairings(
    settings: MqttSettings,
    key: SigningKey,
    pairings: list[tuple[int, dict[str, Any]]],
    *,
    wait_s: float = 5.0,
    wall: Callable[[], float] = time.time,
) -> list[Sent]:
    """Publish each pairing (QoS 1) and collect the tables' first answers for ``wait_s``."""
    commands = [(table, make_pairing_command(body, table=table, key=key, issued=wall()))
                for table, body in pairings]
    answers = send_commands(settings, commands, wait_s=wait_s)
    return [Sent(table, body["first"], body["second"], command["nonce"],
                 answers.get(command["nonce"]))
            for (table, body), (_, command) in zip(pairings, commands, strict=True)]


def send_commands(
    settings: MqttSettings,
    commands: list[tuple[int, dict[str, Any]]],
    *,
    wait_s: float = 5.0,
) -> dict[str, Mapping[str, Any]]:
    """Publish signed commands (QoS 1) to their tables; each table's first answer, by nonce,
    as far as they came within ``wait_s``."""
    answers: dict[str, Mapping[str, Any]] = {}
    done = threading.Condition()
    connected = threading.Event()
    # The command line's own user and client id (``send_username``): connecting as the page's
    # user would take the page's session over. Without one (an open broker, an older config)
    # the id is unique to this run.
    own = settings.sender()
    unique = f"companion-commands-{os.getpid()}-{id(commands)}"
    client = make_client(own, own.client_id(unique) if own is not settings else unique,
                         clean_session=True)

    def on_connect(c: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        if success(rc):
            for table in sorted({t for t, _ in commands}):
                c.subscribe(topics.topic(settings.topic_prefix, table, "reply"), qos=1)
            connected.set()

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        try:
            answer = json.loads(message.payload)
        except ValueError:
            return
        if isinstance(answer, dict) and isinstance(answer.get("nonce"), str):
            with done:
                answers.setdefault(answer["nonce"], answer)
                done.notify_all()

    client.on_connect = on_connect
    client.on_message = on_message
    client.connect(settings.host, settings.port, settings.keepalive_s)
    client.loop_start()
    try:
        if not connected.wait(10.0):
            raise OSError(f"the broker at {settings.host}:{settings.port} did not answer")
        time.sleep(0.1)  # let the subscriptions settle before the first answer can come
        for table, command in commands:
            info = client.publish(topics.topic(settings.topic_prefix, table, "cmd"),
                                  json.dumps(command), qos=1)
            info.wait_for_publish(5.0)
        deadline = time.monotonic() + wait_s
        nonces = {str(c["nonce"]) for _, c in commands}
        with done:
            while time.monotonic() < deadline and not nonces <= set(answers):
                done.wait(deadline - time.monotonic())
            return dict(answers)
    finally:
        client.disconnect()
        client.loop_stop()
