"""Signed journals: each attack a player with the file could try, refused by `companion verify`.

A hash chain has no secret; the table's Ed25519 signature on every record does. Each test is
one attack, named after it; each checks the exit code and that the first bad record is named.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import journal
from companion.arbiter.tails import TailStore
from companion.cli import main
from companion.journal import JournalWriter
from companion.keys import KeyFileError, Keyring, PublicKey, SigningKey
from companion.verify import verify_path

HEADER = {"game": "tamsk", "level": 3, "ruleset": "adjusted", "table": 4, "wall0": 0.0}
EVENTS: list[dict[str, Any]] = [
    {"t": 2.5, "ev": "lift", "glass": "r1"},
    {"t": 3.0, "ev": "release", "glass": "r1", "to": "a2"},
    {"t": 3.2, "ev": "ring", "player": "red"},
    {"t": 6.0, "ev": "release", "glass": "b3", "to": "b5"},
    {"t": 9.0, "ev": "release", "glass": "b1", "to": "c1"},
]


def write(path: Path, key: SigningKey, header: dict[str, Any] = HEADER) -> Path:
    with JournalWriter.create(path, header, key) as w:
        for body in EVENTS:
            w.append(body)
    return path


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rechain(recs: list[dict[str, Any]], signer: SigningKey | None = None) -> bytes:
    """What an attacker without the table's key can do: recompute every hash and prev (and,
    with a key of his own, sign with it)."""
    out = []
    prev = journal.GENESIS
    for r in recs:
        body = {k: v for k, v in r.items() if k not in journal.SEAL_KEYS}
        line, h = journal.seal(body, len(out), prev, signer)
        if signer is None and "sig" in r:  # keep the old signature: the best he can do
            line = line[:-1] + f',"sig":"{r["sig"]}"}}'
        out.append(line)
        prev = h
    return ("\n".join(out) + "\n").encode()


def verify(*argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    rc = main(["verify", *argv])
    captured = capsys.readouterr()
    return rc, captured.out + captured.err


@pytest.fixture
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
def pub(tmp_path: Path, key: SigningKey) -> str:
    path = tmp_path / "table.key.pub"
    path.write_text(key.public.line("table-4") + "\n")
    return str(path)


def test_a_journal_signed_by_its_table_verifies_with_its_key(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    assert records(path)[0]["signer"] == key.public.line()
    rc, out = verify(str(path), "--key", pub, capsys=capsys)
    assert rc == 0, out
    assert f"every record signed by the given key ({key.public.short_fingerprint})" in out
    rc, _ = verify(str(path), "--key", key.public.line(), capsys=capsys)  # the line works too
    assert rc == 0


def test_a_journal_written_by_the_software_with_another_key_is_refused(
    tmp_path: Path, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = write(tmp_path / "g.jsonl", SigningKey.generate())  # a genuine companion, other key
    rc, out = verify(str(forged), "--key", pub, capsys=capsys)
    assert rc == 1
    assert "FIRST BAD RECORD: line 1" in out and "signed with another key" in out


def test_records_spliced_from_two_journals_are_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = records(write(tmp_path / "a.jsonl", key))
    other = records(write(tmp_path / "b.jsonl", SigningKey.generate(), {**HEADER, "level": 2}))
    spliced = tmp_path / "spliced.jsonl"
    spliced.write_bytes(rechain(ours[:3] + other[3:]))  # chain made whole again
    rc, out = verify(str(spliced), "--key", pub, capsys=capsys)
    assert rc == 1
    assert "FIRST BAD RECORD: line 4" in out


def test_records_spliced_from_two_journals_of_the_same_table_break_the_chain(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write(tmp_path / "a.jsonl", key).read_bytes().splitlines(keepends=True)
    b = write(tmp_path / "b.jsonl", key, {**HEADER, "wall0": 99.0}).read_bytes()
    spliced = tmp_path / "spliced.jsonl"
    spliced.write_bytes(b"".join(a[:3]) + b"".join(b.splitlines(keepends=True)[3:]))
    rc, out = verify(str(spliced), "--key", pub, capsys=capsys)
    assert rc == 1 and "FIRST BAD RECORD: line 4" in out


def test_a_record_edited_and_rechained_is_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = records(write(tmp_path / "g.jsonl", key))
    recs[2]["to"] = "b2"  # the release went elsewhere
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(rechain(recs))
    assert journal.read_path(edited).intact  # the chain alone is fooled
    rc, out = verify(str(edited), "--key", pub, capsys=capsys)
    assert rc == 1
    assert "FIRST BAD RECORD: line 3" in out and "not signed by the journal's key" in out


def test_a_signature_spelt_another_way_is_an_edit_and_is_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Base64 of 64 bytes ends in a character with 4 bits the decoder ignores: changing them
    leaves the signature's bytes (and so its check) as they were, but the file was edited."""
    path = write(tmp_path / "g.jsonl", key)
    text = path.read_text()
    sig = records(path)[2]["sig"]
    assert sig.endswith("==")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = alphabet.index(sig[-3])
    respelt = sig[:-3] + alphabet[last ^ 0b0001] + "=="  # one of the ignored bits
    assert respelt != sig
    edited = tmp_path / "respelt.jsonl"
    edited.write_text(text.replace(sig, respelt, 1))
    rc, out = verify(str(edited), "--key", pub, capsys=capsys)
    assert rc == 1
    assert "FIRST BAD RECORD: line 3" in out and "signature is malformed" in out


def test_a_public_key_spelt_another_way_is_refused() -> None:
    line = SigningKey.generate().public.line()
    encoded = line.split()[1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    respelt = encoded[:-2] + alphabet[alphabet.index(encoded[-2]) ^ 0b01] + "="
    with pytest.raises(KeyFileError, match="base64 differs"):
        PublicKey.from_line(line.replace(encoded, respelt))


def test_a_journal_resigned_with_the_attackers_own_key_is_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = SigningKey.generate()
    recs = records(write(tmp_path / "g.jsonl", key))
    recs[0]["signer"] = mine.public.line()
    recs[2]["to"] = "b2"
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(rechain(recs, mine))
    assert verify_path(forged).ok  # consistent in itself...
    rc, out = verify(str(forged), "--key", pub, capsys=capsys)  # ...but not the table's
    assert rc == 1 and "FIRST BAD RECORD: line 1" in out


def test_a_result_appended_without_the_key_is_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = records(write(tmp_path / "g.jsonl", key))
    recs.append({"t": 40.0, "ev": "correct", "what": "result", "winner": "black",
                 "reason": "", "by": "arbiter", "auth": "pin"})
    appended = tmp_path / "appended.jsonl"
    appended.write_bytes(rechain(recs))
    rc, out = verify(str(appended), "--key", pub, capsys=capsys)
    assert rc == 1 and f"FIRST BAD RECORD: line {len(recs)}" in out


def test_an_unsigned_journal_is_refused(
    tmp_path: Path, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with JournalWriter.create(tmp_path / "old.jsonl", HEADER) as w:
        w.append(EVENTS[0])
    rc, out = verify(str(tmp_path / "old.jsonl"), "--key", pub, capsys=capsys)
    assert rc == 1 and "not signed" in out


def test_without_a_key_the_arbiters_enrolled_key_for_the_table_decides(
    tmp_path: Path, key: SigningKey, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    ring = Keyring(tmp_path / "keyring.json")
    ring.enroll("4", key.public, "2026-11-24T20:00:00+00:00")
    ring.save()
    rc, out = verify(str(path), "--keyring", str(ring.path), capsys=capsys)
    assert rc == 0 and "table 4's enrolled key" in out


def test_signer_unknown_when_the_table_is_not_enrolled(
    tmp_path: Path, key: SigningKey, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    rc, out = verify(str(path), "--keyring", str(tmp_path / "none.json"), capsys=capsys)
    assert rc == 1 and "signer unknown: table 4 is not enrolled" in out


def test_a_key_that_is_not_a_key_is_a_clear_error(
    tmp_path: Path, key: SigningKey, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    rc, out = verify(str(path), "--key", "companion-ed25519 not-base64!", capsys=capsys)
    assert rc == 2 and "base64" in out and "Traceback" not in out


def station_saw(tmp_path: Path, path: Path, upto: int | None = None) -> Path:
    """The arbiter's station, fed the journal's records as the table streamed them."""
    store = TailStore(tmp_path / "tails")
    recs = records(path)
    game = recs[0]["hash"][:16]
    for r in recs[: upto if upto is not None else len(recs)]:
        store.saw(4, game, r)
    return tmp_path / "tails" / "table-4.json"


def test_a_journal_cut_before_what_the_station_saw_is_reported(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    station = station_saw(tmp_path, path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-2]))  # the last two records deleted
    assert verify_path(path, key=key.public).ok  # every record left is genuine...
    rc, out = verify(str(path), "--key", pub, "--against", str(station), capsys=capsys)
    assert rc == 1  # ...but the station saw more
    assert "CUT OFF: the journal ends at record 3, but the station saw record 5" in out


def test_a_cut_off_finished_game_is_reported_as_such(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with JournalWriter.create(tmp_path / "g.jsonl", HEADER, key) as w:
        for body in EVENTS:
            w.append(body)
        w.append({"t": 30.0, "ev": "end"})
        w.append({"t": 30.0, "ev": "note", "text": "game over", "final": {"winner": "red"}})
    path = tmp_path / "g.jsonl"
    rc, out = verify(str(path), "--key", pub, capsys=capsys)
    assert rc == 0 and "ends with the table's final record" in out
    station = station_saw(tmp_path, path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-3]))
    rc, out = verify(str(path), "--key", pub, "--against", str(station), capsys=capsys)
    assert rc == 1 and "a finished game was cut off" in out


def test_a_journal_the_station_saw_whole_passes_against_it(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    station = station_saw(tmp_path, path, upto=4)  # the table wrote more since: fine
    rc, out = verify(str(path), "--key", pub, "--against", str(station), capsys=capsys)
    assert rc == 0, out


def test_a_damaged_station_record_is_a_clear_error(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    bad = tmp_path / "station.json"
    bad.write_text("{nope")
    rc, out = verify(str(path), "--key", pub, "--against", str(bad), capsys=capsys)
    assert rc == 2 and "not a station record" in out


def test_resuming_a_journal_with_another_tables_key_is_refused(
    tmp_path: Path, key: SigningKey
) -> None:
    path = write(tmp_path / "g.jsonl", key)
    with pytest.raises(ValueError, match="another key"):
        JournalWriter.resume(path, SigningKey.generate())
    writer, _ = JournalWriter.resume(path, key)
    writer.append({"t": 12.0, "ev": "pass", "player": "red"})
    writer.close()
    assert verify_path(path, key=key.public).ok


def test_keys_init_then_show_prints_the_public_line_and_fingerprint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "init", "--journal-dir", str(tmp_path)]) == 0
    made = capsys.readouterr().out
    assert main(["keys", "show", "--journal-dir", str(tmp_path)]) == 0
    shown = capsys.readouterr().out.splitlines()
    key = PublicKey.from_line(shown[0])
    assert shown[0] in made and key.short_fingerprint in shown[1]
    private = tmp_path / "keys" / "table.key"
    assert private.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "keys").stat().st_mode & 0o777 == 0o700


def test_keys_show_before_init_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "show", "--journal-dir", str(tmp_path)]) == 2
    assert "companion keys init" in capsys.readouterr().err


def test_a_table_key_readable_by_others_is_refused(tmp_path: Path) -> None:
    from companion.keys import KeyFileError
    from companion.tablekey import load_or_init

    path = tmp_path / "keys" / "table.key"
    load_or_init(path)
    path.chmod(0o644)
    with pytest.raises(KeyFileError, match="readable by others"):
        load_or_init(path)


def test_enroll_compares_the_fingerprint(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ring = tmp_path / "keyring.json"
    wrong = SigningKey.generate().public.short_fingerprint
    assert main(["arbiter", "enroll", "4", pub, "--keyring", str(ring),
                 "--fingerprint", wrong]) == 1
    assert "not enrolled" in capsys.readouterr().err and not ring.exists()
    assert main(["arbiter", "enroll", "4", pub, "--keyring", str(ring),
                 "--fingerprint", key.public.short_fingerprint]) == 0
    assert Keyring.load(ring).key_for("4") == key.public
    assert ring.stat().st_mode & 0o777 == 0o600


def test_enroll_asks_when_no_fingerprint_is_given(
    tmp_path: Path, key: SigningKey, pub: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ring = tmp_path / "keyring.json"
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert main(["arbiter", "enroll", "4", pub, "--keyring", str(ring)]) == 1
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert main(["arbiter", "enroll", "4", pub, "--keyring", str(ring)]) == 0
    assert key.public.short_fingerprint in capsys.readouterr().out


def test_a_correction_the_arbiter_appends_verifies_only_with_his_key(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.tournament.correct import correct

    arbiter = SigningKey.generate()
    path = write(tmp_path / "g.jsonl", key)
    correct(path, "result", "the arbiter's ruling", {"winner": "black"}, arbiter)
    assert records(path)[-1]["signer"] == arbiter.public.line()
    assert verify_path(path, key=key.public, arbiter_keys=(arbiter.public,)).ok
    arbiter_pub = tmp_path / "arbiter.pub"
    arbiter_pub.write_text(arbiter.public.line())
    rc, out = verify(str(path), "--key", pub, "--arbiter-key", str(arbiter_pub), capsys=capsys)
    assert rc == 0, out
    rc, out = verify(str(path), "--key", pub, "--arbiter-key",
                     SigningKey.generate().public.line(), capsys=capsys)
    assert rc == 1 and "not the arbiter's" in out


def test_a_result_appended_with_a_key_of_his_own_is_refused(
    tmp_path: Path, key: SigningKey, pub: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.tournament.correct import correct

    arbiter, forger = SigningKey.generate(), SigningKey.generate()
    path = write(tmp_path / "g.jsonl", key)
    correct(path, "result", "I won", {"winner": "black"}, forger)
    verdict = verify_path(path, key=key.public, arbiter_keys=(arbiter.public,))
    assert not verdict.ok
    assert verdict.first_bad is not None and verdict.first_bad.line == len(EVENTS) + 2
    assert "not the arbiter's" in verdict.report()


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, len(EVENTS)), value=st.floats(0.0, 1e6, allow_nan=False))
def test_any_record_edited_and_rechained_is_named_as_the_first_bad_one(
    index: int, value: float
) -> None:
    key = SigningKey.generate()
    with tempfile.TemporaryDirectory() as d:
        path = write(Path(d) / "g.jsonl", key)
        recs = records(path)
        if recs[index].get("wall0") == value or recs[index].get("t") == value:
            return  # not an edit
        recs[index]["wall0" if index == 0 else "t"] = value
        path.write_bytes(rechain(recs))
        verdict = verify_path(path, key=key.public)
        assert not verdict.ok
        assert verdict.first_bad is not None and verdict.first_bad.line == index + 1
