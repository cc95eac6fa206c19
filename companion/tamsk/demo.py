"""`companion demo`: the whole daemon on gpiozero's mock pins, playing a scripted level-3 game.

Nothing here is faked above the pins: a script drives the mock pins of the tilt switches and
buttons (with contact bounce) and types on the keypad at given game times; gpiozero calls the
daemon's callbacks; the daemon debounces, journals (fsync), folds the rules, beeps on a mock PWM
pin and draws the OLED on luma's dummy device. Only time is compressed: the loop waits on a
fake clock that jumps to the next thing due, pausing ``1/speed`` of that in real time so a
person can watch the frames in the terminal.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from companion.clock import FakeClock
from companion.i18n import _, pgettext
from companion.inputs import RawInput
from companion.notation import format_time
from companion.screens import upscale
from companion.tamsk.board import CAPACITY
from companion.tamsk.words import colour_word, reason_in_words, refusal_in_words, rule_in_words


@dataclass(order=True)
class Action:
    t: float  # game seconds
    seq: int
    run: Callable[[], None] = field(compare=False)
    label: str = field(default="", compare=False)


class ScriptedTime:
    """A waiter for :class:`~companion.daemon.Daemon` that runs on a :class:`FakeClock`.

    When the daemon would wait, the clock jumps to whichever comes first: the daemon's own
    wake-up or the script's next action (which drives a pin, whose callback fills the queue).
    """

    def __init__(
        self,
        clock: FakeClock,
        t0: float,
        speed: float,
        on_done: Callable[[], None],
        finished: Callable[[], bool] = lambda: False,
        linger: float = 4.0,
    ):
        self.clock = clock
        self.finished = finished
        self.linger = linger
        self._finished_at: float | None = None
        self.t0 = t0
        self.speed = speed
        self.actions: list[Action] = []
        self.on_done = on_done
        self._seq = 0

    def at(self, t: float, run: Callable[[], None], label: str = "") -> None:
        self._seq += 1
        self.actions.append(Action(t, self._seq, run, label))
        self.actions.sort()

    async def wait(self, queue: asyncio.Queue[RawInput], timeout: float | None) -> RawInput | None:
        if not queue.empty():
            return queue.get_nowait()
        now = self.clock.now()
        target = float("inf") if timeout is None else now + timeout
        if not self.actions and self.finished():
            # the game is over and the script done: show the result a moment, then stop
            if self._finished_at is None:
                self._finished_at = now
            target = min(target, self._finished_at + self.linger)
            if now >= self._finished_at + self.linger:
                self.on_done()
                await asyncio.sleep(0)
                return None
        if self.actions and self.t0 + self.actions[0].t <= target:
            action = self.actions.pop(0)
            await self._jump(max(now, self.t0 + action.t))
            action.run()
            await asyncio.sleep(0)  # let call_soon_threadsafe deliver the edge
            return queue.get_nowait() if not queue.empty() else None
        if target == float("inf"):
            self.on_done()
            await asyncio.sleep(0)
            return None
        await self._jump(target)
        return None

    async def _jump(self, t: float) -> None:
        dt = t - self.clock.now()
        if dt > 0:
            self.clock.set(t)
            if self.speed > 0:
                await asyncio.sleep(min(dt / self.speed, 1.0))


class Table3Script:
    """A believable level-3 game, as physical actions on the table."""

    def __init__(self, time: ScriptedTime, inputs: Any, deliver: Callable[[RawInput], None]):
        self.time = time
        self.inputs = inputs
        self.deliver = deliver
        self.rng = random.Random(1)
        self.level = {g: False for g in ("r1", "r2", "r3", "b1", "b2", "b3")}

    def keys(self, t: float, text: str) -> None:
        for i, k in enumerate(text):
            self.time.at(t + 0.15 * i, self._key_press(k), f"key {k}")

    def _key_press(self, key: str) -> Callable[[], None]:
        return lambda: self.deliver(RawInput("key", key, True, self.time.clock.now()))

    def flip(self, t: float, glass: str, to: str | None = None) -> None:
        """Type the destination, then turn the glass over: the switch chatters, then settles."""
        if to is not None:
            col = "abcdefg".index(to[0]) + 1
            self.keys(t - 1.2, f"{col}{to[1]}#")
        pin = self.inputs.pin("tilt", glass)
        new = not self.level[glass]
        self.level[glass] = new
        offset = 0.0
        for _bounce in range(self.rng.randint(2, 5)):  # bounce: 1-40 ms of chatter
            level = self.rng.random() < 0.5
            self.time.at(t + offset, (pin.drive_low if level else pin.drive_high), "chatter")
            offset += self.rng.uniform(0.001, 0.040)
        self.time.at(t + offset, (pin.drive_low if new else pin.drive_high), f"{glass} set down")

    def press(self, t: float, button: str, hold: float = 0.12) -> None:
        pin = self.inputs.pin("button", button)
        self.time.at(t, pin.drive_low, f"{button} pressed")
        self.time.at(t + 0.004, pin.drive_high, "bounce")
        self.time.at(t + 0.007, pin.drive_low, "bounce")
        self.time.at(t + hold, pin.drive_high, f"{button} released")

    def script(self, until: float = 215.0) -> None:
        for step in plan_game(until=until):
            kind, t = step[0], step[1]
            if kind == "flip":
                self.flip(t, step[2], step[3])
            elif kind == "press":
                self.press(t, step[2], hold=step[3] if len(step) > 3 else 0.12)
            elif kind == "keys":
                self.keys(t, step[2])


def plan_game(seed: int = 5, until: float = 215.0) -> list[tuple[Any, ...]]:
    """Plan a believable level-3 game on the rules engine itself, as table actions.

    Each player moves, after some thought, the glass with the least sand on top (turning it
    gives the most time) to a free neighbouring space, and drops his ring. On the way: black
    forgets a ring and red claims it; red turns the 15-second timer and black hesitates too
    long (a forfeit, so red drops a second ring); glasses that cannot be saved run out; the
    arbiter stops the game with a long press on MENU.
    """
    from companion.tamsk import events as ev
    from companion.tamsk.game import Game, Rules

    rng = random.Random(seed)
    game = Game(Rules(level=3))
    steps: list[tuple[Any, ...]] = []
    t = 1.0
    move = 0
    while t < until and not game.over:
        player = game.turn
        t += rng.uniform(2.5, 6.0)
        if move == 7:  # red turns the timer against black, who hesitates: forfeit at +15
            steps.append(("press", t, "timer15.red"))
            game.apply(ev.timer15(t, "red"))
            t += 17.0
        game.advance(t)
        if game.over:
            break
        player = game.turn
        glasses = [g for g in game.movable(player) if game.sand(g) > 1.5 or move < 6]
        if move > 12 and "b2" in glasses and len(glasses) > 1:
            glasses.remove("b2")  # black forgets b2 at the edge of the board: it will run out
        if not glasses:
            t += 1.0
            continue
        glass = min(glasses, key=lambda g: (game.sand(g), g))
        spots = game.destinations(glass)
        spots.sort(key=lambda s: (-(CAPACITY[s] - game.rings_on.get(s, 0)), rng.random()))
        to = spots[0]
        steps.append(("flip", t, glass, to))
        game.apply(ev.lift(t, glass))
        game.apply(ev.release(t + 0.05, glass, to))
        move += 1
        ring_button = f"ring.{player}"
        if move == 6:  # black forgets his ring; red claims it
            steps.append(("press", t + 0.9, "ring.red"))
            game.apply(ev.ring(t + 0.9, "red"))
        elif game.rings_left[player] and not game.is_full(to):
            steps.append(("press", t + 0.5, ring_button))
            game.apply(ev.ring(t + 0.5, player))
        if game.bonus_available(player):
            free = [s for s in ("d4", "c3", "e4", "d3", "c4", "e3") if not game.is_full(s)]
            col = "abcdefg".index(free[0][0]) + 1
            key = "A" if player == "red" else "B"
            steps.append(("keys", t + 1.2, f"{col}{free[0][1]}{key}"))
            game.apply(ev.ring(t + 1.5, player, free[0]))
        t += 1.5
    steps.append(("press", t + 3.0, "menu", 2.6))
    return steps


async def run_demo(
    *,
    speed: float = 12.0,
    journal_dir: Path | None = None,
    gif: Path | None = None,
    live: bool | None = None,
    out: Any = None,
) -> dict[str, Any]:
    """Play the scripted game. Returns the final state, the journal path and the frame count."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import defaults
    from companion.daemon import Daemon, make_sounder
    from companion.hw.display import Display, make_device
    from companion.hw.inputs import GpioInputs
    from companion.screens import frame_to_text
    from companion.tamsk.table import Table, rules_from_config

    out = out or sys.stdout
    live = out.isatty() if live is None else live
    config = defaults()
    config["table"]["backend"] = "mock"
    journal_dir = journal_dir or Path(tempfile.mkdtemp(prefix="companion-demo-"))
    clock = FakeClock()
    factory = MockFactory(pin_class=MockPWMPin)
    frames: list[tuple[Image.Image, float]] = []
    sounds: list[tuple[float, str]] = []

    def on_frame(image: Image.Image, now: float) -> None:
        frames.append((image.copy(), now))
        if live:
            out.write("\x1b[H\x1b[2J" + frame_to_text(image) + "\n")
            shown = format_time(table.game_time(now), exact=False)  # as the replay shows it
            out.write(f"  game time {shown}   (demo x{speed:g})\n")
            out.flush()

    sounder = make_sounder(config, factory)

    def sound(pattern: str) -> None:
        sounds.append((clock.now(), pattern))
        sounder.play(pattern, clock.now())

    def on_record(record: dict[str, Any]) -> None:
        if not live and record.get("ev") not in (None,):
            sealing = ("seq", "prev", "hash", "sig", "wall")
            body = {k: v for k, v in record.items() if k not in sealing}
            shown = format_time(float(record.get("t", 0.0)), exact=False)  # as the replay
            out.write(f"journal {record['seq']:3d} @{shown}: {body}\n")

    table = Table(clock, journal_dir, config=config, sound=sound, on_record=on_record)
    display = Display(make_device(config, "mock"), max_fps=10, on_frame=on_frame)
    daemon: Daemon
    scripted = ScriptedTime(
        clock,
        clock.now(),
        speed,
        on_done=lambda: daemon.stop(),
        finished=lambda: table.game is not None and table.game.over,
    )
    daemon = Daemon(table, clock, display=display, sounder=sounder, waiter=scripted.wait)
    daemon.loop = asyncio.get_running_loop()
    inputs = GpioInputs(config, clock, daemon.deliver, pin_factory=factory)
    path = table.start_game(rules_from_config(config), names={"red": "Ada", "black": "Ben"})
    scripted.t0 = table.mono0
    Table3Script(scripted, inputs, daemon.deliver).script()
    try:
        await daemon.run()
    finally:
        inputs.close()
    state = table.game.snapshot() if table.game else {}
    if gif is not None and frames:
        save_gif(frames, gif, speed)
    from companion.keys import public_path

    key = public_path(table.signer.path) if table.signer.path is not None else None
    return {"state": state, "journal": path, "frames": len(frames), "sounds": sounds, "gif": gif,
            "key": key}


def save_gif(frames: list[tuple[Image.Image, float]], path: Path, speed: float) -> None:
    """An animated GIF of the OLED frames, each shown as long as it was (time compressed)."""
    images = [upscale(img.convert("L"), 3) for img, _ in frames]
    times = [t for _, t in frames]
    durations = []
    for i in range(len(times)):
        nxt = times[i + 1] if i + 1 < len(times) else times[i] + 24.0
        durations.append(max(20, int(1000 * (nxt - times[i]) / (speed or 12.0))))
    path.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(
        path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=False
    )


def result_line(state: dict[str, Any]) -> str:
    """How the demo game ended, in the players' language."""
    if not state.get("over"):
        return _("{player} to move").format(player=colour_word(str(state.get("turn"))))
    winner = state.get("winner")
    words = _("a tie") if winner == "tie" else _("{player} wins").format(
        player=colour_word(str(winner)))
    return _("game over: {result} ({reason})").format(
        result=words, reason=reason_in_words(state.get("reason")))


def invoked_as(argv0: str | None = None) -> str:
    """How to run ``companion`` again from here, as this run was started: ``companion`` when
    that is the one on the PATH, ``python -m companion`` for a module run, else the script's
    path (relative when it is under the current folder, as ``.venv/bin/companion`` from
    ``make demo``)."""
    import os
    import shutil

    script = Path(argv0 if argv0 is not None else sys.argv[0])
    if script.name == "__main__.py":
        return f"{Path(sys.executable).name} -m companion"
    on_path = shutil.which("companion")
    if on_path and script.name == "companion" and os.path.realpath(on_path) == os.path.realpath(
            script if script.parent != Path() else on_path):
        return "companion"
    try:
        return str(script.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(script.resolve())


def next_steps(journal: Path, key: Path | None, program: str | None = None) -> list[str]:
    """The two commands to try next, their labels in one column however long the players'
    language makes them."""
    program = program or invoked_as()
    step, check = _("step through it:"), _("check it:")
    width = max(len(step), len(check)) + 1
    verify = f"{program} verify {journal}" + (f" --key {key}" if key else "")
    return [f"  {step:{width}}{program} replay {journal}",
            f"  {check:{width}}{verify}"]


def main(speed: float, gif: Path | None, journal_dir: Path | None) -> int:
    result = asyncio.run(run_demo(speed=speed, journal_dir=journal_dir, gif=gif))
    print()
    from companion.simulate import simulate_file
    from companion.tamsk.simulate import summary

    # The game as its journal ends, exactly as ``companion simulate`` and the replay's last
    # position show it (the live table has lingered on after the end: its sand ran on).
    state_view = simulate_file(result["journal"])
    # What ``companion simulate`` prints, in the players' language (its JSON stays English).
    print(summary(state_view, _=_, pgettext=pgettext, refusal=refusal_in_words,
                  rule=rule_in_words))
    print()
    print(result_line(state_view))
    print(_("journal: {path}").format(path=result["journal"]))
    print(_("table key: {key}").format(key=result["key"]))
    for line in next_steps(result["journal"], result["key"]):
        print(line)
    if result["gif"]:
        print(_("OLED animation ({n} frames): {path}").format(
            n=result["frames"], path=result["gif"]))
        import contextlib
        import io

        from companion.replay.cli import main as replay_main

        html = Path(result["gif"]).with_name("demo-replay.html")
        with contextlib.redirect_stdout(io.StringIO()):
            replay_main(["replay", str(result["journal"]), "--html", str(html)])
        print(_("the game as a web page (slider, moves, sand chart): {path}").format(path=html))
    return 0
