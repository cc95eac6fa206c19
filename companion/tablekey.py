"""Where a table keeps its signing key, and the key itself (made on first use).

The private key is a file of its own, never a configuration value: the configuration is copied,
printed (``companion config``) and mailed around; the key must not be. Its place:

``[table] key_file``
    when set, that path;
otherwise ``JOURNAL_DIR/keys/table.key``
    beside the journals, in a folder of its own (mode 0700) so that copying the journals
    (``cp JOURNAL_DIR/*.jsonl``) never copies the key. On the Pi the journal folder is the
    service's state directory (``/var/lib/companion``, owned by the service user), so the key is
    ``/var/lib/companion/keys/table.key``; the demo and the desktop backend keep theirs in their
    own journal folder.

The public half is ``table.key.pub`` beside it (what ``companion keys show`` prints). A key file
that others may read is refused: a key anybody on the machine could copy vouches for nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.keys import KeyFileError, PublicKey, SigningKey, loose_permissions

KEY_NAME = "table.key"

_loaded: dict[Path, SigningKey] = {}


def key_path(config: Mapping[str, Any], journal_dir: str | Path | None = None) -> Path:
    """The table's private key file for this configuration."""
    table = config.get("table", {}) if isinstance(config, Mapping) else {}
    configured = str(table.get("key_file", "") or "") if isinstance(table, Mapping) else ""
    if configured:
        return Path(configured).expanduser()
    folder = journal_dir
    if folder is None and isinstance(table, Mapping):
        folder = table.get("journal_dir")
    if folder is None:
        raise KeyFileError("no [table] key_file and no journal folder to keep the key in")
    return Path(folder).expanduser() / "keys" / KEY_NAME


def table_key(config: Mapping[str, Any], journal_dir: str | Path | None = None) -> SigningKey:
    """The table's key, made on first use (0600, its folder 0700); loaded once per process."""
    path = key_path(config, journal_dir).absolute()
    key = _loaded.get(path)
    if key is not None:
        return key
    key = load_or_init(path)
    _loaded[path] = key
    return key


def load_or_init(path: Path, *, create: bool = True) -> SigningKey:
    """Load the key at ``path`` (refusing one others can read), or make it when absent."""
    if path.exists():
        if loose_permissions(path):
            raise KeyFileError(
                f"{path}: the table's key is readable by others; `chmod 600 {path}` "
                "(and make a new key if it may have been copied)"
            )
        return SigningKey.load(path)
    if not create:
        raise KeyFileError(f"{path}: no table key yet (`companion keys init`)")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent.name == "keys":
        os.chmod(path.parent, 0o700)
    key = SigningKey.create(path)
    _give_to_service_user(path)
    return key


def _give_to_service_user(path: Path) -> None:
    """Run as root (``sudo companion keys init``), hand the key to whoever owns the journal
    folder (the service user), or the daemon could not read its own key."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    owner = path.parent.parent if path.parent.name == "keys" else path.parent
    try:
        st = owner.stat()
    except OSError:
        return
    for p in (path, path.with_name(path.name + ".pub"), path.parent):
        try:
            os.chown(p, st.st_uid, st.st_gid)
        except OSError:
            pass


def key_for_journal(path: str | Path, named: PublicKey) -> SigningKey | None:
    """The table's private key that signed a journal (its header ``named`` it), to append to
    the journal from another part of the table's software (ending a game ``new-game``
    replaced): a key this process already loaded, else the one beside the journals
    (``JOURNAL_DIR/keys/table.key``). None when neither is that key."""
    for key in _loaded.values():
        if key.public == named:
            return key
    beside = Path(path).parent / "keys" / KEY_NAME
    try:
        key = load_or_init(beside, create=False)
    except (KeyFileError, OSError):
        return None
    return key if key.public == named else None


def forget_loaded() -> None:
    """Drop the keys loaded so far (tests that replace a key file)."""
    _loaded.clear()
