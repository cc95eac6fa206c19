"""Results into the tournament file: from checked journals, and from the arbiter by hand.

One path for every way a result arrives (``tournament import``, ``collect``, ``result``, the
page's MQTT inbox, the demo): the record is made from the tournament as it is under the file's
lock (:func:`companion.tournament.store.append`), so it always names the result it replaces.

- A game with no result yet gets it.
- The same game's result again (same journal identity and final record) changes nothing.
- The same game with a later final record (the table played on after an arbiter's correction
  undid its end) replaces the result when it differs, saying so.
- Anything else over a recorded result (another journal, or the arbiter's hand) needs the
  arbiter's ``--replace WHY``: the change is a signed record with the old result, the new, who,
  when and why, and the rounds already paired on the old result, which the command names.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.keys import SigningKey
from companion.remark import N_, Remark
from companion.tournament import store
from companion.tournament.journals import OK, Checked
from companion.tournament.model import Result, Source, Tournament, result_record


@dataclass
class Recorded:
    """What happened to one result: a line to print, and the exit status it calls for."""

    line: str
    code: int = 0
    written: bool = False
    #: Nothing new: the same result of the same game, recorded already.
    already: bool = False


def record_result(
    path: Path,
    key: SigningKey,
    number: int,
    board: int,
    result: Result,
    source: Source,
    *,
    via: str,
    replace_why: str | None = None,
    wall: Callable[[], float] = time.time,
    seen: frozenset[str] = frozenset(),
) -> Recorded:
    """Enter (or replace) one game's result in the tournament file at ``path``; ``seen``: the
    hashes of the records of the journal the result comes from."""
    said: list[Recorded] = []

    def make(t: Tournament) -> list[dict[str, Any]]:
        g = t.game_at(number, board)
        where = Remark(N_("round {round} board {board} ({players})"), round=number,
                       board=board, players=f"{t.players[g.first].name} - "
                                           f"{t.players[g.second].name}")
        old, was = g.result, g.source
        if old is None:
            said.append(Recorded(Remark(N_("{where}: {result} recorded"), where=where,
                                        result=result.text()), written=True))
            return [result_record(t, number, board, result, source, wall=wall(), via=via)]
        # the same game (its header's hash) going on from the final record recorded
        same_game = (was is not None and bool(source.game_id) and was.game_id == source.game_id
                     and (was.final == source.final or was.final in seen))
        if (same_game and (was is not None and was.final == source.final or old == result)) \
                or (old == result and was == source):
            said.append(Recorded(Remark(N_("{where}: {result} is recorded already"),
                                        where=where, result=old.text()), already=True))
            return []
        why = replace_why
        if same_game and not why:
            why = str(Remark(N_("the table's later final record of the same game")))
        if not why:
            said.append(Recorded(Remark(
                N_("{where}: not recorded: it has {old} already (from {source}); to change it "
                   "give --replace WHY"), where=where, old=old.text(),
                source=was.text() if was is not None else "?"), code=1))
            return []
        body = result_record(t, number, board, result, source, wall=wall(), via=via, why=why)
        after = body["rounds_after"]
        line = Remark(N_("{where}: {old} replaced by {new} ({why})"), where=where,
                      old=old.text(), new=result.text(), why=why)
        if after:
            line = Remark(N_("{line}; round(s) {rounds} were paired on the old result"),
                          line=line, rounds=", ".join(str(r) for r in after))
        said.append(Recorded(line, written=True))
        return [body]

    store.append(path, key, make)
    return said[0]


def record_checked(path: Path, key: SigningKey, checked: Checked, *, via: str,
                   replace_why: str | None = None) -> Recorded:
    """A journal :func:`~companion.tournament.journals.check_journal` found good, into the
    tournament file; anything else is only reported (its line, its exit status)."""
    if checked.status != OK:
        return Recorded(checked.line, checked.exit_code)
    assert checked.round is not None and checked.board is not None
    assert checked.result is not None and checked.source is not None
    return record_result(path, key, checked.round, checked.board, checked.result,
                         checked.source, via=via, replace_why=replace_why, seen=checked.seen)
