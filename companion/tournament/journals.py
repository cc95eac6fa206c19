"""The one verified reader of the tables' journals: what may enter a tournament, and why not.

Every command and page that takes a result from a journal asks :func:`check_journal`:
``tournament import``, ``collect`` and ``standings --journals``, ``arbiter sign``, ``dispute``,
the page's MQTT inbox. It answers with one of four verdicts, each with one line saying why:

- **refused** (exit status 1): what ``companion verify`` refuses (a broken chain, a record not
  signed by the table's enrolled key, or by ``--key``, a signer nobody enrolled), in its words;
  and a game that is not the one the tournament paired at that table: its header names this
  tournament and a paired round, but the table, the board or the players are not that table's
  pairing (a compromised table publishing results for another's game);
- **skipped** (no failure): an unfinished game (no final record), a game not yet paired (its
  round is not paired), a game of another tournament (or of none);
- **unreadable** (exit status 2): not a file that can be read;
- **ok**: the game's result, judged by the game's own rules
  (:mod:`companion.tournament.outcome`), at its round and board, with its evidence
  (:class:`~companion.tournament.model.Source`: the table, its key's fingerprint, the game's
  identity and final record, the file), ready for the tournament file.

A journal is read once (:func:`companion.verify.verify_path`: the chain, the signatures and the
game's own fold). After the table's final record only notes and the arbiter's own signed
corrections may follow (``tournament correct``); the result is the fold of them all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import oserrors
from companion.keys import PublicKey
from companion.remark import N_, Remark
from companion.tournament.model import (
    FIRST,
    NONE,
    SECOND,
    TIE,
    Result,
    Source,
    Tournament,
    TournamentError,
    name_key,
)
from companion.tournament.record import GameRecord, header_int
from companion.tournament.store import refusal

OK, SKIPPED, REFUSED, UNREADABLE = "ok", "skipped", "refused", "unreadable"
EXIT = {OK: 0, SKIPPED: 0, REFUSED: 1, UNREADABLE: 2}


@dataclass(frozen=True)
class Keys:
    """Whose signatures a journal must carry: one table's key (``--key``), or the keyring of
    the enrolled tables; and the arbiter's own key(s), for corrections he appended."""

    key: PublicKey | None = None
    keyring: Any = None  # companion.keys.Keyring
    arbiter: tuple[PublicKey, ...] = ()


@dataclass
class Checked:
    """One journal, checked."""

    path: Path
    status: str
    line: str
    header: dict[str, Any] | None = None
    verdict: Any = None
    record: GameRecord | None = None
    tournament: Tournament | None = None
    round: int | None = None
    board: int | None = None
    result: Result | None = None
    source: Source | None = None
    #: Why it was skipped: "no-header", "unfinished", "no-tournament", "other-tournament",
    #: "not-paired", "no-standings".
    skip: str = ""
    #: The hash of every record (a result recorded from this game's earlier final record is
    #: replaced by a later one only when that final record is among them).
    seen: frozenset[str] = frozenset()

    @property
    def exit_code(self) -> int:
        return EXIT[self.status]

    @property
    def tournament_name(self) -> str | None:
        name = (self.header or {}).get("tournament")
        return name if isinstance(name, str) else None


def _say(status: str, path: Path, msgid: str, **values: Any) -> tuple[str, str]:
    return status, Remark(msgid, file=path.name, **values)


def is_final(body: Mapping[str, Any]) -> bool:
    return body.get("ev") == "note" and isinstance(body.get("final"), dict)


def hashes(path: Path) -> dict[int, str]:
    """The ``hash`` of each record by ``seq`` (of a journal whose chain was checked)."""
    out: dict[int, str] = {}
    with open(path, "rb") as f:
        for raw in f:
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("seq"), int):
                out[record["seq"]] = str(record.get("hash"))
    return out


def _final_index(events: list[tuple[int, dict[str, Any]]]) -> int | None:
    """The index of the table's last final record, when only notes and the arbiter's signed
    corrections follow it; None for a game that is not over (or was taken up again)."""
    last = next((i for i in range(len(events) - 1, -1, -1) if is_final(events[i][1])), None)
    if last is None:
        return None
    for _, body in events[last + 1:]:
        if body.get("ev") != "note" and "signer" not in body:
            return None
    return last


def check_journal(
    path: str | Path,
    keys: Keys,
    tournaments: Iterable[Tournament] = (),
    *,
    only: Tournament | None = None,
    via_table: bool = False,
) -> Checked:
    """Read and check one journal against the tournaments kept here (``only``: the one the
    command names; a game of any other is skipped)."""
    from companion.scenario import MalformedInput
    from companion.verify import verify_path

    path = Path(path)
    keyring = keys.keyring
    if keyring is None and keys.key is None:  # never the key a journal names for itself
        from companion.keys import Keyring

        keyring = Keyring(Path("(no keyring)"))
    try:
        verdict = verify_path(path, key=keys.key, keyring=keyring, arbiter_keys=keys.arbiter)
    except OSError as exc:
        return Checked(path, UNREADABLE, Remark(N_("{file}: {problem}"), file=str(path),
                                                problem=oserrors.problem(exc)))
    except (MalformedInput, ValueError) as exc:
        return Checked(path, UNREADABLE, Remark(N_("{file}: {problem}"), file=str(path),
                                                problem=str(exc)))
    from companion import journal as journal_mod

    try:  # verify_path folds as it reads and keeps no events: the records, once more
        j = verdict.journal = journal_mod.read_path(path)
    except OSError as exc:
        return Checked(path, UNREADABLE, Remark(N_("{file}: {problem}"), file=str(path),
                                                problem=oserrors.problem(exc)))
    out = Checked(path, OK, "", j.header, verdict)
    if j.header is None:
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: not a game journal "
                                                      "(no header)"))
        out.skip = "no-header"
        return out
    final = _final_index(j.events)
    torn_only = not j.problems and j.torn is not None and not verdict.signature_problems \
        and verdict.signer_unknown is None and not verdict.rule_errors
    if not verdict.ok and not (torn_only and final is None):
        out.status, out.line = REFUSED, Remark(
            N_("{file}: refused as `companion verify` refuses it: {why}"), file=path.name,
            why=refusal(verdict))
        return out
    if final is None:
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: the game is not "
                                                      "finished (no final record)"))
        out.skip = "unfinished"
        return out
    return _match(out, final, keys, list(tournaments), only, via_table)


def _match(out: Checked, final: int, keys: Keys, tournaments: list[Tournament],
           only: Tournament | None, via_table: bool) -> Checked:
    from companion.tournament.outcome import judge
    from companion.tournament.standings import NoStandings, facet

    path, header, verdict = out.path, out.header or {}, out.verdict
    game = str(header.get("game"))
    try:
        out.record = record = facet(game).record(header, verdict.result or {})
    except NoStandings as exc:
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: {why}"), why=str(exc))
        out.skip = "no-standings"
        return out
    except (ValueError, KeyError, TypeError) as exc:
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: the game is not "
                                                      "finished ({why})"), why=str(exc))
        out.skip = "unfinished"
        return out
    name = header.get("tournament")
    if not isinstance(name, str) or not name.strip():
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: not a tournament game "
                                                      "(its header names no tournament)"))
        out.skip = "no-tournament"
        return out
    pool = [only] if only is not None else tournaments
    t = next((x for x in pool if name_key(x.name) == name_key(name)), None)
    if t is None:
        here = only.name if only is not None else ", ".join(x.name for x in tournaments)
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: a game of another "
                                                      "tournament ({name}), not {here}"),
                                    name=name, here=here or "-")
        out.skip = "other-tournament"
        return out
    out.tournament = t
    number, table = header_int(header, "round"), header_int(header, "table")
    if t.game != game:
        out.status, out.line = _say(REFUSED, path, N_("{file}: refused: a {game} game, but "
                                                      "{name} plays {plays}"), game=game,
                                    name=t.name, plays=t.game)
        return out
    if number is None or table is None:
        out.status, out.line = _say(REFUSED, path, N_("{file}: refused: its header names {name} "
                                                      "but no round or no table"), name=t.name)
        return out
    if number > len(t.played):
        out.status, out.line = _say(SKIPPED, path, N_("{file}: skipped: round {round} of {name} "
                                                      "is not paired yet"), round=number,
                                    name=t.name)
        out.skip = "not-paired"
        return out
    g = t.played[number - 1].at_table(table)
    if g is None:
        out.status, out.line = _say(REFUSED, path, N_("{file}: refused: round {round} of {name} "
                                                      "pairs no game at table {table}"),
                                    round=number, name=t.name, table=table)
        return out
    paired = (t.players[g.first].name, t.players[g.second].name)
    if len(record.players) != 2 or [name_key(n) for n in record.players] != [
            name_key(n) for n in paired]:
        out.status, out.line = _say(
            REFUSED, path, N_("{file}: refused: round {round} pairs {paired} at table {table}, "
                              "but this game is {players}"), round=number,
            paired=" - ".join(paired), table=table, players=" - ".join(record.players))
        return out
    board = header_int(header, "board")
    if board is not None and board != g.board:
        out.status, out.line = _say(REFUSED, path, N_("{file}: refused: the journal says board "
                                                      "{board}, the pairing board {paired}"),
                                    board=board, paired=g.board)
        return out
    first, second = record.players
    if record.winner == TIE:
        winner = TIE
    elif record.winner is None:
        winner = NONE
    else:
        winner = FIRST if name_key(record.winner) == name_key(first) else SECOND
    score = None
    if record.score is not None and not record.forfeit:
        score = (int(record.score[first]), int(record.score[second]))
    result = Result(winner, record.forfeit, score, record.reason or "")
    rule = judge(game)(result)
    if rule is not None:
        out.status, out.line = _say(REFUSED, path, N_("{file}: refused: {rule}"), rule=rule)
        return out
    seqs = hashes(path)
    j = verdict.journal
    signer = verdict.signer.fingerprint if verdict.signer is not None else ""
    final_seq = j.events[final][0] - 1
    out.round, out.board, out.result = number, g.board, result
    out.seen = frozenset(seqs.values())
    out.source = Source("table" if via_table else "journal", table, signer,
                        seqs.get(0, ""), seqs.get(final_seq, ""), j.records, path.name)
    out.status, out.line = OK, Remark(N_("{file}: round {round} board {board}: {players} "
                                         "{result}"), file=path.name, round=number,
                                      board=g.board, players=" - ".join(paired),
                                      result=result.text())
    return out


def keys_from(config: Mapping[str, Any], key: str | None = None, keyring: str | None = None
              ) -> Keys:
    """The keys on this laptop: ``--key`` (one table's), else the arbiter's keyring
    (``[arbiter] keyring``, or ``--keyring``); the arbiter's own public key when it is here.
    :class:`~companion.keys.KeyFileError` when one cannot be read."""
    from companion.arbiter.signing import arbiter_key_path, keyring_path
    from companion.keys import Keyring, public_path

    given = PublicKey.from_file_or_line(key) if key else None
    ring = None if given is not None else Keyring.load(keyring or keyring_path(config))
    own = public_path(arbiter_key_path(config))
    arbiter = (PublicKey.from_file_or_line(str(own)),) if own.is_file() else ()
    return Keys(given, ring, arbiter)


def journal_files(paths: Iterable[str | Path]) -> list[Path]:
    """The game journals among ``paths`` (a folder: every ``*.jsonl`` in it and below, but
    tournament files and logs), each once."""
    from companion.tournament.store import SUFFIX

    out: list[Path] = []
    for given in paths:
        p = Path(given)
        found = sorted(p.rglob("*.jsonl")) if p.is_dir() else [p]
        for f in found:
            if f.name.endswith(SUFFIX) or f.name == "arbiter-log.jsonl" or f in out:
                continue
            out.append(f)
    return out


def load_error(exc: TournamentError) -> int:
    return int(getattr(exc, "exit_code", 2))
