"""Game time is monotonic and journal-relative; the wall clock counts an outage only when the
machine knows it is right, otherwise the players confirm the sand."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import wallclock
from companion.clock import FakeClock
from companion.config import ConfigError, defaults, load
from companion.current import Heartbeat
from companion.inputs import RawInput
from companion.journal import read_path
from companion.pages import PAGE_S
from companion.simulate import simulate_file
from companion.tamsk.table import Table
from companion.tantrix.table import TantrixTable
from companion.verify import verify_path
from companion.wallclock import Trust, always_trusted, never_trusted
from tests.daemon.harness import Rig, make_rig

FOUR_HOURS = 4 * 3600.0


def notes(path: Path) -> list[str]:
    return [str(b["text"]) for _, b in read_path(path).events if b["ev"] == "note"]


def played_rig(tmp_path: Path) -> Rig:
    """Red has turned r1 over at 1 s; the game runs to 10 s."""
    rig = make_rig(tmp_path)
    rig.daemon.alive = Heartbeat(tmp_path / "journals", 1)
    rig.flip(1.0, "r1")
    return rig


def sand(table: Table, glass: str) -> float:
    assert table.game is not None
    return table.game.glasses[glass].sand_at(table.game.t)


def test_a_wall_clock_jump_while_running_changes_no_game_time(tmp_path: Path) -> None:
    rig = played_rig(tmp_path)
    rig.time.at(5.0, lambda: rig.clock.jump_wall(FOUR_HOURS))  # NTP syncs mid-game
    rig.run(until=10.0)
    table = rig.table
    assert table.game is not None and table.game.penalties == []
    period = table.game.glasses["r1"].period
    assert sand(table, "r1") == pytest.approx(period - (table.game.t - 1.03), abs=0.05)
    assert table.game.t == pytest.approx(10.0, abs=0.05)
    assert any(n.startswith("wall clock moved +14400") for n in notes(table.journal_path))
    assert verify_path(table.journal_path).ok  # type: ignore[arg-type]


def restart(rig: Rig, outage: float, jump: float, trust: wallclock.TrustProbe) -> Table:
    """The power goes off for ``outage`` seconds while the wall clock also jumps ``jump``."""
    path = rig.table.journal_path
    assert path is not None
    rig.table.close()
    rig.clock.power_off(outage)
    rig.clock.jump_wall(jump)
    table = Table(rig.clock, path.parent, config=defaults())
    table.wall_trust = trust
    table.resume(path)
    table.poll()
    return table


def test_with_a_trusted_clock_the_whole_outage_is_counted_across_a_restart(
    tmp_path: Path,
) -> None:
    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    table = restart(rig, 60.0, FOUR_HOURS, always_trusted)
    assert table.held is None
    resumed = notes(table.journal_path)[-1]  # type: ignore[arg-type]
    assert resumed.startswith("resumed after ")
    assert 14460.0 <= float(resumed.split()[2]) <= 14460.0 + Heartbeat.EVERY_S
    assert sand(table, "r1") == 0.0  # four hours: r1 ran out while the table was dark


def test_with_an_untrusted_clock_the_game_resumes_held_at_the_cut(tmp_path: Path) -> None:
    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    at_cut = sand(rig.table, "r1")  # the heartbeat saw the game at 10 s, when it was cut
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    assert table.held is not None
    rig.clock.advance(100.0)  # the players take their time to answer
    table.poll()
    view = table.view()
    assert sand(table, "r1") == pytest.approx(at_cut)  # the glasses as they were at the cut
    assert view["held"] and "#" in view["warning"]
    assert not table.animating()
    wake = table.next_wakeup()  # nothing runs while held: only the question's line turns
    assert wake is not None and wake <= rig.clock.now() + PAGE_S
    table.poll()
    assert sand(table, "r1") == pytest.approx(at_cut) and table.view()["held"]


def test_a_held_game_takes_no_move_until_the_sand_is_confirmed(tmp_path: Path) -> None:
    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    before = len(read_path(table.journal_path).events)  # type: ignore[arg-type]
    t = rig.clock.now()
    table.feed(RawInput("button", "ring.red", False, t))
    rig.clock.advance(0.1)
    table.feed(RawInput("button", "ring.red", True, rig.clock.now()))
    rig.clock.advance(0.2)
    table.poll()
    assert len(read_path(table.journal_path).events) == before  # type: ignore[arg-type]
    assert table.game is not None and table.game.rings_left["red"] == 32


def test_the_players_confirm_the_sand_as_at_the_cut_and_the_journal_says_so(
    tmp_path: Path,
) -> None:
    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    at_cut = sand(rig.table, "r1")  # the heartbeat saw the game at 10 s, when it was cut
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    rig.clock.advance(30.0)
    table.feed(RawInput("key", "#", True, rig.clock.now()))
    assert table.held is None
    assert "sand confirmed after the power cut: it ran 0 s" in notes(table.journal_path)  # type: ignore[arg-type]
    rig.clock.advance(5.0)
    table.poll()
    assert sand(table, "r1") == pytest.approx(at_cut - 5.0, abs=0.01)  # time runs again
    path = table.journal_path
    assert path is not None and verify_path(path).ok
    folded = simulate_file(path)
    assert folded["glasses"]["r1"]["sand"] == pytest.approx(
        table.game.glasses["r1"].sand_at(folded["t"]), abs=0.01  # type: ignore[union-attr]
    )


def test_the_players_may_correct_the_sand_by_the_seconds_it_ran(tmp_path: Path) -> None:
    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    at_cut = sand(rig.table, "r1")  # the heartbeat saw the game at 10 s, when it was cut
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    for key in "60#":
        table.feed(RawInput("key", key, True, rig.clock.now()))
    assert sand(table, "r1") == pytest.approx(at_cut - 60.0, abs=0.01)
    assert "sand confirmed after the power cut: it ran 60 s" in notes(table.journal_path)  # type: ignore[arg-type]
    folded = simulate_file(table.journal_path)  # type: ignore[arg-type]
    assert folded["t"] == pytest.approx(table.game.t, abs=0.01)  # type: ignore[union-attr]


def test_a_keypad_game_leaves_an_untrusted_outage_out(tmp_path: Path) -> None:
    clock = FakeClock()
    config = defaults()
    table = TantrixTable(clock, tmp_path, config=config)
    path = table.start_game()
    clock.advance(20.0)
    table.close()
    clock.power_off(60.0)
    clock.jump_wall(FOUR_HOURS)
    again = TantrixTable(clock, tmp_path, config=config)
    again.wall_trust = never_trusted
    again.resume(path)
    assert again.game_time() == pytest.approx(0.0)  # the last record was the header, at 0
    assert notes(path)[-1].startswith("resumed; the time off is not counted")


def test_a_real_time_clock_that_set_the_time_at_boot_is_trusted(tmp_path: Path) -> None:
    rtc = tmp_path / "rtc0"
    rtc.mkdir()
    (rtc / "hctosys").write_text("1\n")
    assert wallclock.rtc_set_the_clock(tmp_path) == "rtc0"
    (rtc / "hctosys").write_text("0\n")
    assert wallclock.rtc_set_the_clock(tmp_path) is None
    assert wallclock.rtc_set_the_clock(tmp_path / "absent") is None


def test_systemd_timesyncd_s_flag_file_means_synchronised(tmp_path: Path) -> None:
    flag = tmp_path / "synchronized"
    assert not wallclock.timesyncd_synchronised(flag)
    flag.touch()
    assert wallclock.timesyncd_synchronised(flag)


def test_the_kernel_is_asked_without_changing_the_clock() -> None:
    answer = wallclock.kernel_ntp_synchronised()
    assert answer in (True, False, None)
    assert isinstance(wallclock.wall_clock_trust(), Trust)


def test_the_config_chooses_how_far_to_trust_the_wall_clock() -> None:
    assert wallclock.probe_for("trusted")().trusted
    assert not wallclock.probe_for("untrusted")().trusted
    assert wallclock.probe_for("auto") is wallclock.wall_clock_trust
    assert load(text='[table]\nwall_clock = "untrusted"\n')["table"]["wall_clock"] == "untrusted"
    with pytest.raises(ConfigError, match="wall_clock"):
        load(text='[table]\nwall_clock = "maybe"\n')


def test_a_game_with_no_sand_running_is_not_held(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    rig.run(until=3.0)  # nobody has moved: no glass runs
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    assert table.held is None
    assert notes(table.journal_path)[-1].startswith("resumed; nothing was running")  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["fr", "cs"])
def test_the_power_cut_question_is_asked_in_the_players_language(
    tmp_path: Path, lang: str
) -> None:
    from companion import i18n

    rig = played_rig(tmp_path)
    rig.run(until=10.0)
    table = restart(rig, 60.0, FOUR_HOURS, never_trusted)
    i18n.use(lang)
    try:
        asked = str(table.view()["warning"])
        for key in "60":
            table.feed(RawInput("key", key, True, rig.clock.now()))
        typed = str(table.view()["warning"])
    finally:
        i18n.reset()
    assert asked == i18n_in(lang, "power cut: # = sand ok") and "power cut" not in asked
    assert typed == i18n_in(lang, "ran {seconds} s? #").format(seconds="60")
    assert "ran" not in typed.split()


def i18n_in(lang: str, msgid: str) -> str:
    """``msgid`` as the ``lang`` catalog says it."""
    from companion import i18n

    i18n.use(lang)
    try:
        return i18n._(msgid)
    finally:
        i18n.reset()
