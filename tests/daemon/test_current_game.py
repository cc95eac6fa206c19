"""The game in play is named by the table's ``current`` pointer, never guessed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import registry
from companion.cli import main
from companion.clock import FakeClock
from companion.config import defaults
from companion.current import (
    CurrentGame,
    TableLock,
    game_to_resume,
    is_unfinished,
    pointer_path,
    read_pointer,
    write_pointer,
)
from companion.daemon import Daemon
from companion.journal import read_path
from companion.tables import make_table, start_configured_game
from companion.verify import verify_path

KINDS = ["tamsk", "tantrix", "tokami"]


def new_game(folder: Path, *args: str) -> Path:
    rc = main(["new-game", "--journal-dir", str(folder), "--as-root", *args])
    assert rc == 0
    return Path(pointer_path(folder, 1).parent / read_pointer(folder, 1).journal)  # type: ignore[union-attr]


def events(path: Path) -> list[dict[str, object]]:
    return [body for _, body in read_path(path).events]


def config_for(kind: str) -> dict[str, object]:
    config = defaults()
    config["game"]["kind"] = kind
    return config


@pytest.mark.parametrize("kind", KINDS)
def test_new_game_starts_a_game_of_every_kind_with_its_players_round_and_table(
    tmp_path: Path, kind: str
) -> None:
    players = {"tamsk": "Ada,Ben", "tantrix": "red,blue,green", "tokami": "Ada,Ben,Cy"}[kind]
    path = new_game(tmp_path, "--game", kind, "--players", players, "--round", "3",
                    "--table", "1")
    header = read_path(path).header
    assert header is not None
    assert header["game"] == kind and header["round"] == 3 and header["table"] == 1
    if kind == "tamsk":
        assert header["names"] == {"red": "Ada", "black": "Ben"}
    else:
        assert header["players"] == players.split(",")
    assert verify_path(path).ok and is_unfinished(path, kind)


def test_new_game_refuses_players_a_game_cannot_take_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["new-game", "--journal-dir", str(tmp_path), "--as-root", "--game", "tantrix",
               "--players", "red,purple"])
    assert rc == 2 and "purple" in capsys.readouterr().err
    assert list(tmp_path.glob("*.jsonl")) == []


def test_two_new_games_in_one_second_get_two_journals(tmp_path: Path) -> None:
    clock = FakeClock()  # the wall clock does not move between the two
    table = make_table(config_for("tantrix"), clock, tmp_path)
    first = start_configured_game(table, config_for("tantrix"))
    second = start_configured_game(table, config_for("tantrix"))
    table.close()
    assert first != second and first.exists() and second.exists()


def test_two_new_game_commands_in_one_second_get_two_journals(tmp_path: Path) -> None:
    first = new_game(tmp_path, "--game", "tokami")
    second = new_game(tmp_path, "--game", "tokami")
    assert first != second and verify_path(first).ok and verify_path(second).ok
    assert not is_unfinished(first, "tokami") and is_unfinished(second, "tokami")


def test_the_demo_run_twice_into_one_folder_keeps_both_journals(tmp_path: Path) -> None:
    from companion.tamsk.demo import main as demo_main

    assert demo_main(600.0, None, tmp_path) == 0
    assert demo_main(600.0, None, tmp_path) == 0
    journals = sorted(tmp_path.glob("*.jsonl"))
    assert len(journals) == 2 and all(verify_path(j).ok for j in journals)


def test_new_game_ends_the_game_in_play_and_points_the_table_at_the_new_one(
    tmp_path: Path,
) -> None:
    old = new_game(tmp_path, "--game", "tantrix")
    new = new_game(tmp_path, "--game", "tokami")
    assert new != old
    assert events(old)[-1]["ev"] == "end" and events(old)[-1]["src"] == "new-game"
    assert not is_unfinished(old, "tantrix") and verify_path(old).ok
    assert read_pointer(tmp_path, 1).journal == new.name  # type: ignore[union-attr]
    assert CurrentGame(tmp_path, 1).start("tamsk") == new  # the pointer decides, not the config


def test_new_game_while_the_daemon_runs_leaves_the_ending_to_it_and_reload_takes_up_the_new_game(
    tmp_path: Path,
) -> None:
    config = config_for("tantrix")
    clock = FakeClock()
    current = CurrentGame(tmp_path, 1)
    assert current.lock.acquire()  # the daemon holds the table
    table = make_table(config, clock, tmp_path)
    old = start_configured_game(table, config)
    daemon = Daemon(table, clock, current=current)
    daemon.step(None)
    assert read_pointer(tmp_path, 1).journal == old.name  # type: ignore[union-attr]

    new = new_game(tmp_path, "--game", "tantrix")
    assert events(old) == []  # new-game did not append to a journal the daemon writes
    assert read_pointer(tmp_path, 1).previous == old.name  # type: ignore[union-attr]

    daemon.reload()  # SIGHUP
    assert table.journal_path == new
    assert events(old)[-1]["ev"] == "end" and verify_path(old).ok
    assert read_pointer(tmp_path, 1) is not None
    assert read_pointer(tmp_path, 1).previous is None  # type: ignore[union-attr]
    table.close()
    current.lock.release()
    assert game_to_resume(tmp_path, "tantrix", 1) == new  # and a restart takes up the same


def test_a_pending_ending_is_done_at_the_daemons_next_start(tmp_path: Path) -> None:
    old = new_game(tmp_path, "--game", "tokami")
    with TableLock(tmp_path, 1):  # a daemon runs (then is stopped, not reloaded)
        new = new_game(tmp_path, "--game", "tokami")
    current = CurrentGame(tmp_path, 1)
    assert current.start("tokami") == new
    assert not is_unfinished(old, "tokami")


def test_an_abandoned_old_game_never_comes_back_without_a_pointer(tmp_path: Path) -> None:
    config = config_for("tantrix")
    table = make_table(config, FakeClock(), tmp_path)
    abandoned = start_configured_game(table, config)
    os.utime(abandoned, (1_700_000_000, 1_700_000_000))  # 62 days before the next game
    newest = start_configured_game(table, config)
    table.close()
    assert game_to_resume(tmp_path, "tantrix", 1) == newest  # no pointer: the newest only
    from companion.current import end_game

    end_game(newest)
    assert game_to_resume(tmp_path, "tantrix", 1) is None  # the old one stays in the past


@pytest.mark.parametrize(
    "content",
    [b"", b"\xff\xfe", b"[]", b'{"journal": "../../etc/passwd"}', b'{"journal": 3}', b"x" * 9000],
)
def test_a_pointer_that_is_not_one_is_ignored(tmp_path: Path, content: bytes) -> None:
    pointer_path(tmp_path, 1).write_bytes(content)
    assert read_pointer(tmp_path, 1) is None


def test_the_pointer_is_replaced_whole(tmp_path: Path) -> None:
    write_pointer(tmp_path, 1, tmp_path / "tamsk-t1-a.jsonl")
    write_pointer(tmp_path, 1, tmp_path / "tamsk-t1-b.jsonl", previous="tamsk-t1-a.jsonl")
    assert json.loads(pointer_path(tmp_path, 1).read_text()) == {
        "journal": "tamsk-t1-b.jsonl",
        "previous": "tamsk-t1-a.jsonl",
    }
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current-t1"]


def test_a_second_daemon_for_the_same_table_is_refused(tmp_path: Path) -> None:
    with TableLock(tmp_path, 1):
        assert not TableLock(tmp_path, 1).acquire()
    assert TableLock(tmp_path, 1).acquire()


def test_new_game_run_as_root_refuses_with_the_exact_command_when_it_cannot_drop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import companion.newgame as newgame

    monkeypatch.setattr(newgame.os, "geteuid", lambda: 0)
    monkeypatch.setattr(newgame, "SERVICE_USER", "no-such-user-here")
    argv = ["new-game", "--journal-dir", str(tmp_path), "--game", "tokami"]
    monkeypatch.setattr(sys, "argv", ["companion", *argv])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"sudo -u no-such-user-here companion new-game --journal-dir {tmp_path}" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to the service user needs root")
def test_new_game_run_as_root_becomes_the_service_user(tmp_path: Path) -> None:
    code = (
        "import os; from companion.newgame import become_service_user as b; "
        "ok = b('nobody'); print(ok, os.geteuid(), os.getegid())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    import pwd

    nobody = pwd.getpwnam("nobody")
    assert out.stdout.split() == ["True", str(nobody.pw_uid), str(nobody.pw_gid)]


def test_the_service_user_is_the_one_systemd_creates() -> None:
    from companion.newgame import SERVICE_USER

    root = Path(__file__).resolve().parents[2]
    users = [
        line.split()[1]
        for line in (root / "systemd" / "companion.sysusers.conf").read_text().splitlines()
        if line.startswith("u ")
    ]
    assert users == [SERVICE_USER]
    assert f"User={SERVICE_USER}" in (root / "systemd" / "companion.service").read_text()


def test_every_kind_new_game_offers_is_registered() -> None:
    assert set(KINDS) <= set(registry.names())


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xff",
        b"[]",
        b'{"journal": "g.jsonl", "t": "1", "wall": 2}',
        b'{"journal": "g.jsonl", "t": NaN, "wall": 2}',
        b'{"journal": "other.jsonl", "t": 1, "wall": 2}',
        b'{"journal": "g.jsonl", "t": true, "wall": 2}',
    ],
)
def test_a_heartbeat_that_is_not_one_is_ignored(tmp_path: Path, content: bytes) -> None:
    from companion.current import alive_path, read_alive

    alive_path(tmp_path, 1).write_bytes(content)
    assert read_alive(tmp_path / "g.jsonl", 1) is None


def test_the_heartbeat_says_where_the_game_had_got_to(tmp_path: Path) -> None:
    from companion.current import Heartbeat, read_alive

    beat = Heartbeat(tmp_path, 1)
    beat.beat(tmp_path / "g.jsonl", 12.5, 1_790_000_000.0)
    beat.beat(tmp_path / "g.jsonl", 7.25, 1_790_000_100.0)  # rewritten in place, shorter
    beat.close()
    assert read_alive(tmp_path / "g.jsonl", 1) == (7.25, 1_790_000_100.0)


def test_run_new_game_ends_the_game_in_play(tmp_path: Path) -> None:
    old = new_game(tmp_path, "--game", "tantrix")
    current = CurrentGame(tmp_path, 1)
    assert current.start("tantrix", new_game=True) is None
    assert not is_unfinished(old, "tantrix") and events(old)[-1]["src"] == "daemon"
