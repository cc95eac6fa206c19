"""The arbiter's and the broker's settings, read from the configuration with safe defaults.

The configuration file gains two tables (see ``docs/arbiter.md``)::

    [arbiter]
    pin_hash = ""            # the PIN's salted scrypt hash (`companion arbiter hash-pin`); "" off
    pin_attempts = 3         # wrong PINs before a lock-out
    pin_lockout_s = 60.0     # the first lock-out; each further one lasts twice as long
    club_key = ""            # HMAC key for result records ("" = none)
    command_max_age_s = 300.0
    language = ""            # the arbiter's page: "en", "fr" or "cs" ("" = [table] language)

    [mqtt]
    enabled = false
    host = "localhost"
    port = 1883
    username = ""
    password = ""
    tls = false
    ca_file = ""             # CA bundle for TLS ("" = the system's)
    cert_file = ""           # client certificate, if the broker asks for one
    key_file = ""
    topic_prefix = "companion"
    keepalive_s = 30
    send_username = ""       # the arbiter's laptop: the command line's own user
    send_password = ""       # (`tournament pair --send`; "" = username/password)

Keys that are not there take these defaults, so this module works with a configuration that
predates them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, TypeVar

from companion.arbiter.signing import ClubKeyError, club_key
from companion.keys import PublicKey

#: The configuration's ``[arbiter]`` and ``[mqtt]`` tables with their defaults, as
#: ``companion/config.py``'s DEFAULT_TOML should end (replacing its ``[arbiter]`` table).
CONFIG_TOML = """\
[arbiter]
# The arbiter PIN's salted scrypt hash (`companion arbiter hash-pin`); empty: arbiter mode off.
pin_hash = ""
pin_attempts = 3          # wrong PINs in a row before the PIN entry locks
pin_lockout_s = 60.0      # the first lock-out; each further one lasts twice as long
# The club's secret for signed result records (the same on every table and on the arbiter's
# laptop, at least 16 characters); empty: results are not signed. Commands are signed with
# the arbiter's own key (arbiter_key / key_file below).
club_key = ""
command_max_age_s = 300.0 # commands issued further than this from the table's clock: refused
# Tables: the arbiter's public key (the line `companion keys show` prints on the arbiter's
# laptop); only commands it signed are carried out. Empty: the table takes no commands.
arbiter_key = ""
# The arbiter's laptop: its private key (signs commands) and the enrolled tables' keyring
# (only their signed messages reach the page and the standings).
key_file = ""
keyring = ""
# The language of the arbiter's page (`companion arbiter`): "en", "fr" or "cs"; "" follows
# [table] language, then the environment (LANG). `--lang` on the command line wins over this.
language = ""

[mqtt]
# Publish this table to a broker (mosquitto) for the arbiter's page. Off by default.
enabled = false
host = "localhost"
port = 1883
username = ""
password = ""
tls = false
ca_file = ""              # CA bundle for TLS ("" = the system's)
cert_file = ""            # client certificate and key, if the broker asks for them
key_file = ""
topic_prefix = "companion"
keepalive_s = 30
# The arbiter's laptop: the user `companion tournament pair --send` connects as (its own, so
# it never takes over the page's broker session); "" = username and password above.
send_username = ""
send_password = ""
"""


_S = TypeVar("_S")


class SettingsError(ValueError):
    """A section of the configuration that cannot be read; the message names it."""


@dataclass(frozen=True)
class MqttSettings:
    enabled: bool = False
    host: str = "localhost"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    topic_prefix: str = "companion"
    keepalive_s: int = 30
    send_username: str = ""
    send_password: str = ""

    def sender(self) -> MqttSettings:
        """The settings the arbiter's command line connects with: its own user when the
        configuration names one (``send_username``), else these."""
        if not self.send_username:
            return self
        return replace(self, username=self.send_username, password=self.send_password,
                       send_username="", send_password="")

    def client_id(self, fallback: str) -> str:
        """The client id to connect with: the user name, when there is one (each user owns
        one client id: the club's broker forces it, ``use_username_as_clientid``), else
        ``fallback`` (an open broker without users: the tests', a casual club's)."""
        return self.username or fallback


@dataclass(frozen=True)
class ArbiterSettings:
    pin_hash: str = ""
    pin_attempts: int = 3
    pin_lockout_s: float = 60.0
    club_key: str = ""
    command_max_age_s: float = 300.0
    arbiter_key: str = ""
    key_file: str = ""
    keyring: str = ""
    #: The arbiter's page's language ("" follows ``[table] language``, then the environment).
    language: str = ""

    def arbiter_public(self) -> PublicKey | None:
        """The arbiter's public key the tables check commands with (None: none configured);
        :class:`~companion.keys.KeyFileError` for a line that is not a key."""
        return PublicKey.from_line(self.arbiter_key) if self.arbiter_key.strip() else None

    def key(self) -> bytes | None:
        """The club's key, or None when none is configured (signing is then refused)."""
        if not self.club_key:
            return None
        return club_key(self.club_key)


def _section(config: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """A section of the configuration; one that is there but not a table of settings is
    refused, naming it (never read as "all defaults": that would turn arbiter mode off)."""
    value = config.get(name, {})
    if not isinstance(value, Mapping):
        raise SettingsError(f"[{name}] must be a table of settings, not {value!r}")
    return value


_KINDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def _read(cls: type[_S], config: Mapping[str, Any], name: str) -> _S:
    """The dataclass ``cls`` from section ``name``: each field read as its default's type
    (absent keys keep the default); a value of the wrong kind is refused, naming the key."""
    section = _section(config, name)
    defaults = cls()
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        default = getattr(defaults, f.name)
        raw = section.get(f.name, default)
        try:
            values[f.name] = type(default)(raw)
        except (TypeError, ValueError):
            raise SettingsError(
                f"'{name}.{f.name}' must be {_KINDS[type(default)]}, not {raw!r}"
            ) from None
    return cls(**values)


def mqtt_settings(config: Mapping[str, Any]) -> MqttSettings:
    settings = _read(MqttSettings, config, "mqtt")
    prefix = settings.topic_prefix.strip("/") or MqttSettings.topic_prefix
    return replace(settings, topic_prefix=prefix)


def arbiter_settings(config: Mapping[str, Any]) -> ArbiterSettings:
    return _read(ArbiterSettings, config, "arbiter")


def table_number(config: Mapping[str, Any]) -> int:
    return int(_section(config, "table").get("number", 1))


__all__ = ["ArbiterSettings", "ClubKeyError", "MqttSettings", "arbiter_settings", "mqtt_settings"]
