"""Table and arbiter keys: made once, private 0600, public line and fingerprint, enrolment."""

from __future__ import annotations

import os
import stat

import pytest

from companion.files import atomic_write
from companion.keys import KeyFileError, Keyring, PublicKey, SigningKey, public_path


def test_a_new_key_is_private_to_its_owner(tmp_path):
    key = SigningKey.create(tmp_path / "table.key")
    assert stat.S_IMODE(os.stat(tmp_path / "table.key").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(public_path(tmp_path / "table.key")).st_mode) == 0o644
    assert key.path == tmp_path / "table.key"


def test_a_table_keeps_its_key(tmp_path):
    SigningKey.create(tmp_path / "table.key")
    with pytest.raises(KeyFileError, match="keeps its key"):
        SigningKey.create(tmp_path / "table.key")


def test_load_or_create_gives_the_same_key_after_a_restart(tmp_path):
    first = SigningKey.load_or_create(tmp_path / "k")
    again = SigningKey.load_or_create(tmp_path / "k")
    assert first.public == again.public


def test_a_signature_verifies_only_for_its_key_and_data(tmp_path):
    key = SigningKey.generate()
    other = SigningKey.generate()
    sig = key.sign(b"record")
    assert key.public.verify(sig, b"record")
    assert not key.public.verify(sig, b"recorD")
    assert not other.public.verify(sig, b"record")
    assert not key.public.verify(sig[:-1], b"record")


def test_the_public_line_reads_back_as_line_bare_base64_or_file(tmp_path):
    key = SigningKey.create(tmp_path / "t1.key")
    line = key.public.line("t1")
    assert line.startswith("companion-ed25519 ") and line.endswith(" t1")
    assert PublicKey.from_line(line) == key.public
    assert PublicKey.from_line(line.split()[1]) == key.public
    assert PublicKey.from_file_or_line(str(public_path(tmp_path / "t1.key"))) == key.public


@pytest.mark.parametrize(
    "text", ["", "ssh-rsa AAAA", "companion-ed25519", "companion-ed25519 !!!", "AAAA"]
)
def test_a_bad_public_line_is_refused_with_a_reason(text):
    with pytest.raises(KeyFileError):
        PublicKey.from_line(text)


def test_fingerprints_are_stable_and_short_enough_for_the_oled():
    key = PublicKey(bytes(range(32)))
    assert key.fingerprint.startswith("SHA256:")
    short = key.short_fingerprint
    assert len(short) == 19 and short.count("-") == 3
    assert PublicKey(bytes(range(32))).short_fingerprint == short


def test_a_damaged_private_key_file_is_a_message_not_a_traceback(tmp_path):
    (tmp_path / "k").write_bytes(b"\xff\xfe garbage")
    with pytest.raises(KeyFileError, match="not a private key"):
        SigningKey.load(tmp_path / "k")


def test_enrolment_is_kept_and_another_key_needs_replace(tmp_path):
    ring = Keyring.load(tmp_path / "keyring.json")
    a, b = SigningKey.generate().public, SigningKey.generate().public
    ring.enroll("t1", a, "2026-11-24T20:00")
    ring.save()
    again = Keyring.load(tmp_path / "keyring.json")
    assert again.key_for("t1") == a and again.table_for(a) == "t1"
    with pytest.raises(KeyFileError, match="another key"):
        again.enroll("t1", b, "later")
    again.enroll("t1", b, "later", replace=True)
    assert again.key_for("t1") == b


def test_a_damaged_keyring_is_refused_not_emptied(tmp_path):
    (tmp_path / "keyring.json").write_text('{"tables": {"t1": {"key": "nope"}}}')
    with pytest.raises(KeyFileError, match="damaged"):
        Keyring.load(tmp_path / "keyring.json")


def test_atomic_write_replaces_whole_with_the_mode_asked(tmp_path):
    target = tmp_path / "secret.toml"
    target.write_text("old")
    atomic_write(target, "new", mode=0o600)
    assert target.read_text() == "new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret.toml"]
