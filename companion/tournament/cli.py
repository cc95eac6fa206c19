"""``companion tournament ...``: the arbiter's tournament, from the first player to the last
standings.

::

    companion tournament new NAME --game KIND --system round-robin|swiss --rounds N [--dir D]
    companion tournament add-player T NAME [--rating R] [--club C]
    companion tournament withdraw T PLAYER
    companion tournament pair T [--engine bbpPairings]
    companion tournament result T --round R --table N 1-0|0-1|draw|+-|-+ [--score A:B]
    companion tournament import T JOURNAL...
    companion tournament show T
    companion tournament standings [T] [--journals J...] [--csv F] [--html F] [--trf F]
    companion tournament sheet T [--round N] --html F
    companion tournament correct JOURNAL --what W --reason R [--set K=V ...]   (asks the PIN)

``T`` is the tournament's name (its file ``NAME.tournament.json`` in ``--dir``, default the
current directory: keep it beside the arbiter's journals) or the file itself. Every refusal is
one line on stderr and exit status 2; the file is then left as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.tournament.model import Result, Tournament, TournamentError

PROG = "companion tournament"


class _Refused(Exception):
    pass


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


def _open(args: argparse.Namespace) -> tuple[Tournament, Path]:
    from companion.tournament import store

    path = store.path_for(args.tournament, args.dir)
    return store.load(path), path


def _save(t: Tournament, path: Path) -> None:
    from companion.tournament import store

    store.save(t, path)


def cmd_new(args: argparse.Namespace) -> int:
    from companion import registry
    from companion.tournament import store
    from companion.tournament.model import check_name
    from companion.tournament.standings import facet

    name = check_name(args.name, "the tournament's name")
    facet(args.game)  # a game without standings cannot hold a tournament
    registry.get(args.game)
    path = store.path_for(name, args.dir)
    if path.exists():
        raise TournamentError(f"{path} exists already")
    if not 1 <= args.rounds <= 99:
        raise TournamentError("a tournament has 1 to 99 rounds")
    t = Tournament(name, args.game, args.system, args.rounds, bye_points=args.bye_points)
    _save(t, path)
    print(path)
    return 0


def cmd_add_player(args: argparse.Namespace) -> int:
    t, path = _open(args)
    p = t.add_player(args.name, rating=args.rating, club=args.club)
    _save(t, path)
    print(f"{p.number}. {p.name}" + (f" ({p.rating})" if p.rating else "")
          + (f", {p.club}" if p.club else ""))
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    t, path = _open(args)
    p = t.find(args.player)
    if t.system == "round-robin":
        raise TournamentError("a round robin keeps its table: record the player's games as "
                              "forfeits instead (`tournament result ... -+`)")
    p.withdrawn = True
    _save(t, path)
    print(f"{p.name} is withdrawn from the next round on")
    return 0


def cmd_pair(args: argparse.Namespace) -> int:
    from companion.tournament import engine, pairing, sheets, trf

    t, path = _open(args)
    if args.engine is None:
        r = pairing.next_round(t)
    else:
        if t.system != "swiss":
            raise TournamentError("an outside engine pairs Swiss tournaments only")
        number = pairing.check_can_pair(t)
        pairs = engine.run(trf.to_trf(t), args.engine_path)
        pairing.check_pairs(t, pairs)
        r = pairing.as_round(number, pairs)
    t.played.append(r)
    _save(t, path)
    print(sheets.pairings_text(t, r))
    return 0


_WINNERS = {"1-0": ("first", False), "0-1": ("second", False), "draw": ("tie", False),
            "=": ("tie", False), "½-½": ("tie", False), "+-": ("first", True),
            "-+": ("second", True)}


def _score(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    a, sep, b = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(a), int(b)
    except ValueError:
        raise TournamentError(f"--score is two whole numbers A:B, not {text!r}") from None


def cmd_result(args: argparse.Namespace) -> int:
    from companion.tournament import sheets

    t, path = _open(args)
    g = t.game_at(args.round, args.table)
    if g.second is None:
        raise TournamentError("a bye has no result to record")
    if args.result not in _WINNERS:
        raise TournamentError(f"a result is one of {', '.join(_WINNERS)}")
    winner, forfeit = _WINNERS[args.result]
    g.result = Result(winner, forfeit, _score(args.score), args.reason or "", "arbiter")
    _save(t, path)
    r = next(r for r in t.played if r.number == args.round)
    print(f"round {r.number} table {g.table}: {sheets.result_text(t, r, g.table)}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Results from finished games' journals, matched to the pairing by round and names."""
    from companion.tournament.standings import NoStandings, record_from_journal

    t, path = _open(args)
    done = 0
    for name in args.journals:
        try:
            game, record = record_from_journal(name)
        except (NoStandings, OSError) as exc:
            raise TournamentError(f"{name}: {exc}") from None
        if game != t.game:
            raise TournamentError(f"{name}: a {game} game in a {t.game} tournament")
        if len(record.players) != 2:
            raise TournamentError(f"{name}: a tournament game has two players")
        a, b = record.players
        rounds = [record.round] if record.round is not None else [
            r.number for r in t.played]
        found = None
        for number in rounds:
            try:
                found = (*t.game_of(number, a, b), number)
                break
            except TournamentError:
                continue
        if found is None:
            raise TournamentError(f"{name}: {a} and {b} are not paired in "
                                  + (f"round {record.round}" if record.round else "any round"))
        g, a_first, number = found
        if not a_first:
            raise TournamentError(f"{name}: round {number} table {g.table} has {b} moving "
                                  f"first, but the journal has {a}")
        winner = "tie" if record.winner == "tie" else "first" if record.winner == a else "second"
        score = None if record.score is None else (record.score[a], record.score[b])
        old = g.result
        g.result = Result(winner, record.forfeit, score, record.reason or "",
                          f"journal {Path(name).name}")
        done += 1
        replaced = f" (replaces the result from {old.source})" if old is not None else ""
        print(f"round {number} table {g.table}: {a} - {b}: {record.winner}{replaced}")
    _save(t, path)
    print(f"{done} result(s) recorded")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from companion.tournament import sheets

    t, _ = _open(args)
    print(f"{t.name}: {t.game}, {t.system}, {len(t.played)} of {t.rounds} rounds paired")
    for p in t.players:
        extra = ", ".join(x for x in (str(p.rating) if p.rating else "", p.club,
                                      "withdrawn" if p.withdrawn else "") if x)
        print(f"  {p.number:3d}. {p.name}" + (f" ({extra})" if extra else ""))
    for r in t.played:
        print(sheets.pairings_text(t, r))
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    from companion.tournament import sheets, trf
    from companion.tournament.standings import NoStandings, record_from_journal, standings

    t: Tournament | None = None
    if args.tournament:
        t, _ = _open(args)
        records = t.records()
        game = t.game
        table = standings(game, records, [p.name for p in t.players])
    elif args.journals:
        by_game: dict[str, list[Any]] = {}
        for name in args.journals:
            try:
                game, record = record_from_journal(name)
            except (NoStandings, OSError) as exc:
                raise TournamentError(f"{name}: {exc}") from None
            by_game.setdefault(game, []).append(record)
        if len(by_game) > 1:
            raise TournamentError("these journals are of different games "
                                  f"({', '.join(sorted(by_game))}): give one game's at a time")
        game, records = next(iter(by_game.items()))
        table = standings(game, records)
    else:
        raise TournamentError("give a tournament or --journals")
    if args.csv:
        Path(args.csv).write_text(sheets.standings_csv(table), encoding="utf-8")
    if args.html:
        after = len(t.played) if t is not None else None
        Path(args.html).write_text(sheets.standings_html(
            table, title=f"{t.name}: standings" if t else "", after=after), encoding="utf-8")
    if args.trf:
        if t is None:
            raise TournamentError("--trf needs the tournament (its pairings and numbers)")
        ranks = {t.find(r.name).number: r.rank for r in table.rows}
        Path(args.trf).write_text(trf.to_trf(t, ranks), encoding="ascii", errors="replace")
    print(sheets.standings_text(table))
    return 0


def cmd_sheet(args: argparse.Namespace) -> int:
    from companion.tournament import sheets
    from companion.tournament.standings import standings

    t, _ = _open(args)
    if not t.played:
        raise TournamentError("no round is paired yet")
    number = args.round or len(t.played)
    if not 1 <= number <= len(t.played):
        raise TournamentError(f"round {number} is not paired")
    r = t.played[number - 1]
    done = [rec for rec in t.records() if rec.round is not None and rec.round <= number]
    table = standings(t.game, done, [p.name for p in t.players])
    Path(args.html).write_text(sheets.round_sheet(t, r, table), encoding="utf-8")
    print(args.html)
    return 0


def cmd_correct(args: argparse.Namespace) -> int:
    """An arbiter's correction appended to a finished game's journal, after his PIN."""
    from companion.arbiter.settings import arbiter_settings
    from companion.config import ConfigError, load
    from companion.tournament.correct import check_pin, correct, parse_fields

    try:
        settings = arbiter_settings(load(args.config))
    except (ConfigError, ValueError) as exc:
        raise TournamentError(f"config: {exc}") from None
    if not settings.pin_hash:
        raise TournamentError("no [arbiter] pin_hash in the configuration: corrections "
                              "need the arbiter's PIN")
    if args.pin_stdin:
        pin = sys.stdin.readline().strip()
    else:
        import getpass

        pin = getpass.getpass("arbiter PIN: ")
    check_pin(pin, settings.pin_hash)
    from companion.arbiter.signing import arbiter_key
    from companion.keys import KeyFileError

    try:
        key = arbiter_key(load(args.config))
    except (KeyFileError, OSError) as exc:
        raise TournamentError(f"the arbiter's key: {exc}") from None
    print(correct(args.journal, args.what, args.reason, parse_fields(args.set or []), key))
    return 0


def _guard(func: Any) -> Any:
    from companion.tournament.standings import NoStandings

    def run(args: argparse.Namespace) -> int:
        try:
            return int(func(args))
        except (TournamentError, NoStandings) as exc:
            return _fail(str(exc))
        except OSError as exc:
            return _fail(f"{exc.filename or ''}: {exc.strerror}")
    return run


def add_commands(sub: Any) -> None:
    """Add ``tournament`` to the ``companion`` command's subparsers."""
    from companion import registry
    from companion.tournament.model import SYSTEMS

    p = sub.add_parser("tournament", help="a club tournament: players, pairings, standings")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)

    def verb(name: str, func: Any, help_: str, *, tournament: bool = True) -> Any:
        v = verbs.add_parser(name, help=help_)
        if tournament:
            v.add_argument("tournament", help="its name (or its .tournament.json file)")
        v.add_argument("--dir", default=".", help="where the tournament file is kept "
                                                  "(beside the journals; default .)")
        v.set_defaults(func=_guard(func))
        return v

    v = verb("new", cmd_new, "make a tournament file", tournament=False)
    v.add_argument("name")
    v.add_argument("--game", required=True, choices=registry.names())
    v.add_argument("--system", required=True, choices=SYSTEMS)
    v.add_argument("--rounds", required=True, type=int)
    v.add_argument("--bye-points", type=float, default=1.0, choices=(0.0, 0.5, 1.0))

    v = verb("add-player", cmd_add_player, "add a player (before round 1 is paired)")
    v.add_argument("name")
    v.add_argument("--rating", type=int, default=0)
    v.add_argument("--club", default="")

    v = verb("withdraw", cmd_withdraw, "a player leaves a Swiss tournament")
    v.add_argument("player", help="name or starting number")

    v = verb("pair", cmd_pair, "pair the next round and print it")
    v.add_argument("--engine", choices=("bbpPairings",),
                   help="pair with this FIDE engine (on the PATH) instead")
    v.add_argument("--engine-path", help=argparse.SUPPRESS)

    v = verb("result", cmd_result, "record a game's result by hand")
    v.add_argument("--round", type=int, required=True)
    v.add_argument("--table", type=int, required=True)
    v.add_argument("result", help="1-0, 0-1, draw, +- or -+ (first mover's side first)")
    v.add_argument("--score", help="the game's score A:B (first mover's first)")
    v.add_argument("--reason", help="why (a forfeit, an adjudication)")

    v = verb("import", cmd_import, "record results from finished games' journals")
    v.add_argument("journals", nargs="+")

    verb("show", cmd_show, "players and rounds")

    v = verb("standings", cmd_standings, "standings with the game's own points and tie-breaks",
             tournament=False)
    v.add_argument("tournament", nargs="?", help="its name or file (or use --journals)")
    v.add_argument("--journals", nargs="+", help="finished games' journals (no key needed)")
    v.add_argument("--csv", help="write the standings as CSV here")
    v.add_argument("--html", help="write printable standings here")
    v.add_argument("--trf", help="write FIDE TRF-2016 here")

    v = verb("correct", cmd_correct, "an arbiter's correction to a finished game's journal "
             "(after the PIN)", tournament=False)
    v.add_argument("journal")
    v.add_argument("--what", required=True, help="the correction (see docs/tournament.md)")
    v.add_argument("--reason", required=True, help="why: every correction says why")
    v.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a field of the correction (tile=17, player=yellow, ...)")
    v.add_argument("--config", help="config file with [arbiter] pin_hash")
    v.add_argument("--pin-stdin", action="store_true", help="read the PIN from standard input")

    v = verb("sheet", cmd_sheet, "a printable round sheet (pairings, results, standings)")
    v.add_argument("--round", type=int, help="default: the last paired")
    v.add_argument("--html", required=True)
