"""Tamsk for the arbiter: the live board, the result, disputes, arbiter mode at the table.

A Tamsk table's mirror folds the records through the same engine as the table
(:class:`companion.tamsk.game.Game`); sand runs on between records, so the page's card runs the
clock on to the moment shown: board, rings, sand per glass, whose turn, the 15-second timer,
and the alerts (a glass under 10 s, a 15-second overrun, a penalty, a refused input). The board
is drawn by the page from that JSON (:func:`page_script`), not served as a picture.

At the table, :class:`TamskStation` is arbiter mode: the keypad menu
(:mod:`companion.tamsk.arbiter_menu`), corrections (:mod:`companion.tamsk.corrections`) and the
tournament options (whether the players' screen shows exact sand seconds, the level, the rule
set, the calibration), kept in ``tournament.json`` in the journal folder and journaled as notes
when they change; the rules ones apply from the next game.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from companion import numbers
from companion.arbiter.kinds import RECENT_S, GameResult
from companion.arbiter.station import ArbiterStation, ClockLike, Outcome
from companion.i18n import N_, _
from companion.tamsk.arbiter_menu import ArbiterMenu
from companion.tamsk.board import CAPACITY, SPACES, coordinates
from companion.tamsk.correction_words import correction_refusal_in_words
from companion.tamsk.corrections import NEXT_ROUND, UNDOABLE, parse_correction
from companion.tamsk.dispute import dispute as tamsk_dispute
from companion.tamsk.events import GLASSES, parse_event
from companion.tamsk.game import Game, Rules
from companion.tamsk.simulate import rules_from_header
from companion.tamsk.words import colour_word, penalty_in_words, refusal_in_words

#: The unit of a result's margin (:func:`result`): the standings' tie-break says it.
MARGIN_UNIT = "rings"
LOW_SAND_S = 10.0
OPTIONS_FILE = "tournament.json"


# ---------------------------------------------------------------------------- the live page


class TamskMirror:
    """A Tamsk game rebuilt from its journal records."""

    def __init__(self, header: Mapping[str, Any]) -> None:
        self.game = Game(rules_from_header(header))

    def apply(self, record: Mapping[str, Any]) -> None:
        """Play one record (one whose time goes back, or that the rules cannot read, is
        skipped)."""
        game = self.game
        t = record.get("t")
        if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= game.t:
            try:
                game.apply(parse_event(dict(record), float(t)))
            except ValueError:
                pass

    def snapshot(self) -> dict[str, Any]:
        return self.game.snapshot()

    def card(self, out: dict[str, Any], *, elapsed: float, online: bool, board: str) -> None:
        game = self.game
        alerts: list[dict[str, str]] = out["alerts"]
        running = online and not game.over
        t_now = game.t + (elapsed if running else 0.0)
        if running and game.next_deadline() <= t_now:
            # A glass or the 15-second timer ran out since the last record: the turn may have
            # passed with a penalty. Show a copy run on to now (the mirror itself stays at its
            # last record, so the table's next record still applies).
            game = copy.deepcopy(game)
            game.advance(t_now)
        glasses = {}
        for name in GLASSES:
            g = game.glasses[name]
            sand = g.sand_at(t_now)
            dead = g.dead or (g.running and sand <= 0.0)
            glasses[name] = {
                "space": g.space,
                "sand": round(sand, 1),
                "running": g.running and not dead,
                "dead": dead,
                "period": g.period,
            }
            if game.rules.timed and not game.over:
                if dead and not self.game.glasses[name].dead:
                    alerts.append({"kind": "out",
                                   "text": _("{glass} has run out").format(glass=name)})
                elif g.running and sand < LOW_SAND_S and not dead:
                    alerts.append({"kind": "low", "text": _("{glass} under 10 s ({sand} s)").format(
                        glass=name, sand=numbers.decimal(sand, 1))})
        timer = game.timer
        remaining = timer.expires - t_now if timer.running else 0.0
        if (
            timer.running
            and remaining <= 0.0
            and timer.against == game.turn
            and timer.against_turn == game.turn_no
        ):
            alerts.append({"kind": "overrun", "text": _("15 s overrun: {player}").format(
                player=colour_word(str(timer.against)))})
        for p in game.penalties[len(self.game.penalties):]:  # ran out since the last record
            alerts.append({"kind": "overrun", "text": _("15 s overrun: {player}").format(
                player=colour_word(p.player))})
        for p in game.penalties:
            if t_now - p.t < RECENT_S:
                alerts.append({"kind": "overrun", "text": _("penalty {kind}: {player}").format(
                    kind=penalty_in_words(p.kind), player=colour_word(p.player))})
        for v in game.violations:
            if t_now - v.t < RECENT_S:
                # a refused correction is the arbiter's (no player), in the corrections' words
                corrected = v.kind == "correction"
                player = (_("the arbiter") if v.player is None
                          else colour_word(str(v.player)))
                detail = (correction_refusal_in_words(v.detail) if corrected
                          else refusal_in_words(v.detail))
                alerts.append({"kind": "refused", "text": _("refused ({player}): {detail}").format(
                    player=player, detail=detail)})
        outcome = game.outcome
        deadline = game.next_deadline()
        out.update(
            # when the card changes by itself next (a glass or the timer running out): the
            # page's stream sends it again then
            next_change_s=round(deadline - t_now, 2) if running and deadline < 1e12 else None,
            t=round(t_now, 2),
            turn=game.turn,
            over=outcome is not None,
            winner=outcome.winner if outcome else None,
            reason=outcome.reason if outcome else None,
            confirmed=game.confirmed,
            rings_left=dict(game.rings_left),
            spaces=dict(game.rings_on),
            glasses=glasses,
            in_hand=dict(game.in_hand),
            timer15={
                "running": timer.running and remaining > 0.0,
                "remaining": round(max(0.0, remaining), 1),
                "against": timer.against if timer.running else None,
            },
            penalties=[p.to_dict() for p in game.penalties],
            corrections=list(game.corrections),
            last_input=last_input(game),
        )


def last_input(game: Game) -> dict[str, Any] | None:
    """The last input an undo would take back."""
    for event in reversed(game.history):
        if event.kind in UNDOABLE:
            return event.to_dict()
    return None


def mirror(header: Mapping[str, Any]) -> TamskMirror | None:
    try:
        return TamskMirror(header)
    except ValueError:
        return None


def snapshot_card(
    out: dict[str, Any],
    state: Mapping[str, Any],
    header: Mapping[str, Any],
    *,
    elapsed: float,
    online: bool,
    board: str,
) -> bool:
    """A Tamsk snapshot is not shown: the sand needs the records."""
    return False


def board_svg(card: Mapping[str, Any], *, label: str) -> str | None:
    """None: the page draws a Tamsk board itself from the card (:func:`page_script`)."""
    return None


def board_geometry() -> dict[str, list[float]]:
    """Where each space is drawn: x, y and capacity (the hexagonal board, a1 bottom left)."""
    out = {}
    for space in SPACES:
        i, y = coordinates(space)
        v = y - i / 2
        out[space] = [24 + i * 32, 24 + (5.5 - v) * 36, CAPACITY[space]]
    return out


def page_script() -> str:
    """The card's script with the board's geometry and its words in the arbiter's language
    (``TAMSK_WORDS``; a player's colour as Tamsk says it)."""
    from companion.arbiter.web import script_json
    from companion.tamsk.words import _REASONS, reason_in_words

    words = {
        "over": _("over: {winner} ({reason})"),
        "confirmed": _(", confirmed"),
        "moving": _(" (moving {glasses})"),
        "timer": _("15 s timer: {remaining} s against {player}"),
        "timer_off": _("15 s timer: off"),
        "rings": _("rings left: red {red}, black {black}"),
        "sand": _("sand: {glasses}"),
        "out": _("out"),
        "decimal": numbers.cldr().decimal,  # 12,5 s in French and Czech (companion.numbers)
        "colours": {"red": colour_word("red"), "black": colour_word("black"),
                    "tie": _("a tie")},
        "reasons": {reason: reason_in_words(reason) for reason in _REASONS},
    }
    return (_SCRIPT.replace("__GEOMETRY__", json.dumps(board_geometry()))
            .replace("__TAMSK_WORDS__", script_json(words)))


def correction_fields() -> str:
    return _FIELDS


_SCRIPT = r"""
const GEOMETRY = __GEOMETRY__;
const TAMSK_WORDS = __TAMSK_WORDS__;
KIND_WORDS.tamsk = TAMSK_WORDS.colours;
// Seconds with one decimal, the decimal mark of the arbiter's language (CLDR's, server-side).
const tenths = v => v.toFixed(1).replace(".", TAMSK_WORDS.decimal);
function board(t) {
  const svg = el("svg", {width: 240, height: 262, viewBox: "0 0 240 262"});
  const at = {};
  for (const [g, info] of Object.entries(t.glasses || {})) if (info.space) at[info.space] = g;
  for (const [space, [x, y, cap]] of Object.entries(GEOMETRY)) {
    const n = (t.spaces || {})[space] || 0;
    const shade = Math.round(240 - 160 * n / cap);
    svg.appendChild(el("circle", {cx: x, cy: y, r: 14, fill: `rgb(${shade},${shade},255)`,
                                  stroke: "#668", "data-space": space}));
    const g = at[space];
    if (g) {
      const info = t.glasses[g];
      const cls = info.dead ? "dead" : (g[0] === "r" ? "glass-red" : "glass-black");
      svg.appendChild(el("circle", {cx: x, cy: y, r: 11, class: cls}));
      const label = info.dead ? g.toUpperCase() : `${g} ${Math.round(info.sand)}`;
      svg.appendChild(el("text", {x: x, y: y + 3, "font-size": 7, "text-anchor": "middle",
                                  fill: "#fff"}, label));
    } else {
      svg.appendChild(el("text", {x: x, y: y + 7, "font-size": 7, "text-anchor": "middle"},
                         `${n}/${cap}`));
    }
    // The space's coordinate, as the corrections and the notation name it.
    svg.appendChild(el("text", {x: x, y: y - (g ? 12 : 1), "font-size": 7,
                                "text-anchor": "middle", fill: g ? "#333" : "#446",
                                class: "coord"}, space));
  }
  return svg;
}
CARDS.tamsk = (box, t) => {
  if (!t.glasses) return;
  const age = t._age || 0;  // seconds since the card came: running sand and timer run on
  if (age > 0) {
    t = {...t, glasses: Object.fromEntries(Object.entries(t.glasses).map(([g, i]) =>
      [g, i.running ? {...i, sand: Math.max(0, i.sand - age)} : i])),
      timer15: t.timer15 && t.timer15.running
        ? {...t.timer15, remaining: Math.max(0, t.timer15.remaining - age)} : t.timer15};
  }
  box.appendChild(board(t));
  const timer = t.timer15 || {};
  const rl = t.rings_left || {};
  const w = TAMSK_WORDS, colour = c => word(c, "tamsk");
  const lines = [
    t.over ? fmt(w.over, {winner: colour(t.winner), reason: w.reasons[t.reason] || t.reason})
             + (t.confirmed ? w.confirmed : "")
           : fmt(W.turn, {player: colour(t.turn)}) + (t.in_hand && Object.keys(t.in_hand).length
               ? fmt(w.moving, {glasses: Object.values(t.in_hand).join(", ")}) : ""),
    timer.running ? fmt(w.timer, {remaining: tenths(timer.remaining),
                                  player: colour(timer.against)})
                  : w.timer_off,
    fmt(w.rings, {red: rl.red, black: rl.black}),
    fmt(w.sand, {glasses: Object.entries(t.glasses).map(([g, i]) =>
      `${g} ${i.dead ? w.out : tenths(i.sand)}`).join(" ")}),
    fmt(W.records, {n: t.seq + 1}),
  ];
  for (const line of lines) box.appendChild(el("div", {}, line));
};
"""

_FIELDS = r"""
 <label title="[[sand: set a glass's sand; space: move a glass; add-ring / remove-ring: on a
space; undo: take back the last input; penalty / cancel-penalty; turn: whose turn it is;
result / confirm: the game's result; next-round: a new game]]">[[what]] <select name="what">
  <option>sand</option><option>space</option><option>add-ring</option><option>remove-ring</option>
  <option>undo</option><option>penalty</option><option>cancel-penalty</option><option>turn</option>
  <option>result</option><option>confirm</option><option>next-round</option></select></label>
 <label title="[[a glass: r1, r2, r3 (red) or b1, b2, b3 (black)]]">[[glass]]
  <input name="glass" size="3" value="r1" placeholder="r1" data-field="text"></label>
 <label title="[[a space on the board, as on its picture: a1 ... g4 (space, add-ring,
remove-ring)]]">[[space]] <input name="space" size="3" placeholder="d4" data-field="text"></label>
 <label title="[[red or black (penalty, turn)]]">[[player]]
  <input name="player" size="5" placeholder="red" data-field="text"></label>
 <label title="[[seconds of sand left in the glass (sand)]]">[[sand]]
  <input name="sand" size="5" placeholder="s" data-field="number"></label>
 <label title="[[late or forfeit (penalty)]]">[[kind]]
  <input name="kind" size="7" placeholder="forfeit" data-field="text"></label>
 <label title="[[red, black or tie (result)]]">[[winner]]
  <input name="winner" size="5" placeholder="red" data-field="text"></label>
 <label title="[[which penalty, counted from 0 in the card's list (cancel-penalty)]]">[[index]]
  <input name="index" size="3" placeholder="0" data-field="number"></label>
 <label title="[[the round number of the next game (next-round)]]">[[round]]
  <input name="round" size="3" placeholder="2" data-field="number"></label>
"""

#: The correction fields' labels and hints (``[[...]]`` in :data:`_FIELDS`, said in the
#: arbiter's language by :func:`companion.arbiter.web.page`), marked for the catalogs.
LABELS = (
    N_("sand: set a glass's sand; space: move a glass; add-ring / remove-ring: on a space; "
       "undo: take back the last input; penalty / cancel-penalty; turn: whose turn it is; "
       "result / confirm: the game's result; next-round: a new game"),
    N_("what"),
    N_("a glass: r1, r2, r3 (red) or b1, b2, b3 (black)"),
    N_("glass"),
    N_("a space on the board, as on its picture: a1 ... g4 (space, add-ring, remove-ring)"),
    N_("space"),
    N_("red or black (penalty, turn)"),
    N_("player"),
    N_("seconds of sand left in the glass (sand)"),
    N_("sand"),
    N_("late or forfeit (penalty)"),
    N_("kind"),
    N_("red, black or tie (result)"),
    N_("winner"),
    N_("which penalty, counted from 0 in the card's list (cancel-penalty)"),
    N_("index"),
    N_("the round number of the next game (next-round)"),
    N_("round"),
)



# ---------------------------------------------------------------------------- results


def result(state: Mapping[str, Any]) -> GameResult:
    """Red against black; fewer rings left is better, so the margin is the opponent's rings
    left minus one's own."""
    colours = ["red", "black"]
    if not state["over"]:
        raise ValueError("the game is not over: no result yet")
    reason = state["reason"]
    score = {c: int(state["rings_left"][c]) for c in colours}
    margin = {c: score[o] - score[c] for c, o in zip(colours, reversed(colours), strict=True)}
    return GameResult(colours, state["winner"], reason, reason == "forfeit", score, margin,
                      bool(state.get("confirmed")), state.get("over_at"))


# ---------------------------------------------------------------------------- disputes

#: ``companion dispute`` (:mod:`companion.tamsk.dispute`).
dispute = tamsk_dispute


# ---------------------------------------------------------------------------- at the table


class TableLike(Protocol):
    """What Tamsk's arbiter mode needs of a table (``companion.tamsk.table.Table`` has it)."""

    game: Game | None
    journal_dir: Path
    config: Mapping[str, Any]
    header: dict[str, Any]

    @property
    def journal_path(self) -> Path | None: ...

    def submit(self, t_mono: float, body: dict[str, Any]) -> None: ...

    def start_game(
        self,
        rules: Rules,
        *,
        names: Mapping[str, str] | None = ...,
        table: int | None = ...,
        name: str | None = ...,
    ) -> Path: ...


@dataclass
class TournamentOptions:
    """What the arbiter sets for the whole tournament at this table."""

    show_sand_seconds: bool = True
    level: int | None = None
    ruleset: str | None = None
    calibration: dict[str, float] = field(default_factory=dict)

    def rules(self, base: Rules) -> Rules:
        """The rules of the next game: the configured ones with the arbiter's choices."""
        periods = {**dict(base.periods), **self.calibration}
        timer = periods.pop("timer15", base.timer_period)
        return replace(
            base,
            level=self.level or base.level,
            ruleset=self.ruleset or base.ruleset,
            periods=periods,
            timer_period=timer,
        )

    @classmethod
    def load(cls, path: Path, default_show: bool) -> TournamentOptions:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(show_sand_seconds=default_show)
        if not isinstance(data, dict):
            return cls(show_sand_seconds=default_show)
        return cls(
            show_sand_seconds=bool(data.get("show_sand_seconds", default_show)),
            level=data.get("level") if data.get("level") in (1, 2, 3) else None,
            ruleset=data.get("ruleset") if data.get("ruleset") in ("adjusted", "original")
            else None,
            calibration={
                str(k): float(v)
                for k, v in (data.get("calibration") or {}).items()
                if isinstance(v, (int, float)) and 0 < v < 3600
            },
        )

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


def base_rules(config: Mapping[str, Any]) -> Rules:
    """The rules the configuration gives (``[game]`` and ``[calibration]``)."""
    game = config.get("game") or {}
    periods = {str(k): float(v) for k, v in (config.get("calibration") or {}).items()}
    timer = periods.pop("timer15", 15.0)
    return Rules(
        int(game.get("level", 3)),
        str(game.get("ruleset", "adjusted")),
        str(game.get("start", "standard")),
        periods,
        timer,
    )


class TamskStation(ArbiterStation):
    """Arbiter mode at a Tamsk table: the keypad menu, corrections, tournament options."""

    table: TableLike

    def __init__(self, table: TableLike, clock: ClockLike) -> None:
        super().__init__(table, clock)
        display = table.config.get("display", {})
        default_show = bool(display.get("show_sand_seconds", True)) if display else True
        self.options_path = Path(table.journal_dir) / OPTIONS_FILE
        self.options = TournamentOptions.load(self.options_path, default_show)

    def make_menu(self) -> ArbiterMenu:
        return ArbiterMenu(self.lock, last_input=self._last_input, penalties=self._penalties)

    def game_open(self) -> bool:
        return self.table.game is not None

    def view(self, state: dict[str, Any]) -> dict[str, Any]:
        """The table's view with the arbiter's options (exact sand seconds or not)."""
        state["show_sand_seconds"] = self.options.show_sand_seconds or self.menu.active
        return super().view(state)

    def check_correction(self, body: dict[str, Any]) -> None:
        parse_correction(body)

    def carry_out(self, body: dict[str, Any], t_mono: float, nonce: str | None) -> Outcome:
        game = self.table.game
        assert game is not None
        refused, applied = len(game.violations), len(game.corrections)
        self.submit(t_mono, body)
        game = self.table.game
        assert game is not None
        if len(game.corrections) > applied:
            if body["what"] == NEXT_ROUND:
                self._next_round(int(body["round"]))
            return Outcome(True, f"{body['what']}: done", nonce)
        if len(game.violations) > refused:
            # the rules refuse in English; the arbiter reads it in the table's language
            return Outcome(False, correction_refusal_in_words(game.violations[-1].detail), nonce)
        return Outcome(None, f"{body['what']}: queued behind a glass in motion", nonce)

    def _next_round(self, number: int) -> None:
        base = base_rules(self.table.config)
        self.table.start_game(self.options.rules(base), table=self.table_no)
        self.note(f"round {number}", fields={"round": number})
        self.remember_nonces()

    def apply_option(self, name: str, value: Any) -> str:
        if name == "calibration":
            self.options.calibration.update({str(k): float(v) for k, v in value.items()})
        elif name in ("show_sand_seconds", "level", "ruleset"):
            setattr(self.options, name, value)
        else:
            raise ValueError(f"unknown tournament option {name!r}")
        self.options.save(self.options_path)
        return "now" if name == "show_sand_seconds" else "from the next game"

    # ------------------------------------------------------------------ for the menu

    def _last_input(self) -> tuple[float, str, str] | None:
        game = self.table.game
        if game is None:
            return None
        for event in reversed(game.history):
            if event.kind in UNDOABLE:
                d = event.to_dict()
                what = " ".join(str(v) for k, v in d.items() if k not in ("t", "ev"))
                return event.t, event.kind, f"{event.kind} {what} at {event.t:.1f}"
        return None

    def _penalties(self) -> list[str]:
        game = self.table.game
        if game is None:
            return []
        return [f"{p.player} {p.kind} at {p.t:.1f}" for p in game.penalties]


def station(table: Any, clock: ClockLike) -> TamskStation:
    return TamskStation(table, clock)
