"""MQTT topic names and event ids: one place, so the tables and the arbiter agree.

Per table ``N`` under the configured prefix (default ``companion``)::

    companion/table/N/events   QoS 1, not retained: every journal record, in order
    companion/table/N/state    QoS 1, retained: the state after the last record
    companion/table/N/status   QoS 1, retained: online / offline (the last will says offline)
    companion/table/N/result   QoS 1, retained: the signed result record once the game is over
    companion/table/N/cmd      arbiter commands to the table (signed, single-use)
    companion/table/N/reply    the table's answer to each command
    companion/table/N/resend   a viewer asks for records from a seq again (it missed some)

An event's id is ``tN/GAME/SEQ``: the table, the first 16 hex of the journal header's hash (the
game's identity), and the record's ``seq``. It is unique across tables and games, and a viewer
applies each id once.
"""

from __future__ import annotations

KINDS = ("events", "state", "status", "result", "cmd", "reply", "resend")


def topic(prefix: str, table: int, kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown topic kind {kind!r}")
    return f"{prefix}/table/{table}/{kind}"


def all_tables(prefix: str) -> str:
    """The subscription that sees every table's topics."""
    return f"{prefix}/table/+/+"


def parse(prefix: str, name: str) -> tuple[int, str] | None:
    """``(table, kind)`` of a topic under ``prefix``, or None for anything else."""
    parts = name.split("/")
    head = prefix.split("/")
    if len(parts) != len(head) + 3 or parts[: len(head)] != head or parts[len(head)] != "table":
        return None
    number, kind = parts[len(head) + 1], parts[len(head) + 2]
    if not number.isdigit() or kind not in KINDS:
        return None
    return int(number), kind


def event_id(table: int, game: str, seq: int) -> str:
    return f"t{table}/{game}/{seq}"
