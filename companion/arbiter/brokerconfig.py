"""`companion arbiter broker-config DIR`: a locked mosquitto for the club, written in one go.

Why: an open broker lets anyone on the club's Wi-Fi publish a fake table, a forged result or
a flood of commands. This writes a mosquitto (2.x) setup in which

- no client is anonymous: every table, the arbiter's page and the arbiter's command line
  have a user and a random password (``passwd``, mosquitto's own ``$7$`` PBKDF2-SHA512 format,
  so ``mosquitto_passwd`` can edit it later);
- each user owns one client id, its user name (``use_username_as_clientid`` on every
  listener): MQTT lets a second connection with a client id take that session over (the first
  is disconnected, its last will goes out, a clean start wipes its stored session), so without
  this anyone with one table's password could kick another table off, or wipe the arbiter's
  stored session, by naming their client id;
- the ACL (``acl``) lets table N write only its own topics (events, state, status, result,
  reply) and read only what is addressed to it (cmd, resend); only the arbiter's page and
  command line may command;
- the club's network reaches the broker over TLS only, with a certificate signed by a club CA
  made here (``ca.crt`` goes to every table; ``ca.key`` stays with the club's admin); the plain
  listener is bound to 127.0.0.1, for the arbiter's laptop when the broker runs on it.

Each table's ``[mqtt]`` section (its user, password and the CA file) is written to
``tables/table-N.toml`` (mode 0600), ready to paste into that table's configuration.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import ipaddress
import os
import pwd
import secrets
import shutil
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from companion.arbiter import topics
from companion.files import PUBLIC, SECRET, atomic_write

#: The arbiter's page (`companion arbiter serve`): reads every table, commands them, and keeps
#: a stored session (its client id is this user name, so nobody else's connection can take it).
ARBITER_USER = "arbiter"
#: The arbiter's command line (`companion tournament pair --send`, the demo's rounds): sends
#: commands and reads the tables' answers; a user of its own, so its short connections never
#: take over the page's session.
SENDER_USER = "arbiter-send"
#: PBKDF2 rounds in the password file; mosquitto's own default is 101, far too few against an
#: offline search if the file leaks. The broker pays them once per connection.
PBKDF2_ROUNDS = 20_000
TABLE_WRITES = ("events", "state", "status", "result", "reply")
TABLE_READS = ("cmd", "resend")
CERT_DAYS = 3650


def table_user(n: int) -> str:
    return f"table-{n}"


def password_line(user: str, password: str, *, salt: bytes | None = None,
                  rounds: int = PBKDF2_ROUNDS) -> str:
    """One line of a mosquitto password file: ``user:$7$rounds$salt$hash`` (PBKDF2-SHA512)."""
    if ":" in user or "\n" in user:
        raise ValueError("a user name cannot contain ':' or a line break")
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, rounds)
    b64 = base64.b64encode
    return f"{user}:$7${rounds}${b64(salt).decode()}${b64(digest).decode()}"


def acl_text(prefix: str, tables: Sequence[int]) -> str:
    """The ACL: the arbiter's page reads every table and commands them, the arbiter's command
    line commands them and reads their answers; each table its own topics."""
    lines = [
        "# companion: who may publish (write) and subscribe (read) what.",
        f"user {ARBITER_USER}",
        f"topic read {topics.all_tables(prefix)}",
        *(f"topic write {prefix}/table/+/{kind}" for kind in ("cmd", "resend")),
        "",
        f"user {SENDER_USER}",
        f"topic write {prefix}/table/+/cmd",
        f"topic read {prefix}/table/+/reply",
        "",
    ]
    for n in tables:
        lines.append(f"user {table_user(n)}")
        lines += [f"topic write {topics.topic(prefix, n, k)}" for k in TABLE_WRITES]
        lines += [f"topic read {topics.topic(prefix, n, k)}" for k in TABLE_READS]
        lines.append("")
    return "\n".join(lines)


@dataclass
class BrokerSetup:
    """What :func:`write_broker_config` wrote (paths and the passwords it chose)."""

    folder: Path
    tls_port: int
    local_port: int
    passwords: dict[str, str] = field(default_factory=dict)

    @property
    def conf(self) -> Path:
        return self.folder / "mosquitto.conf"

    @property
    def ca_file(self) -> Path:
        return self.folder / "ca.crt"

    def table_config(self, n: int) -> Path:
        return self.folder / "tables" / f"{table_user(n)}.toml"


def _names(hosts: Sequence[str]) -> list[str]:
    out = ["localhost", *hosts]
    if not hosts:
        name = socket.gethostname()
        out += [name, f"{name}.local"]
    return list(dict.fromkeys(out))


def make_certificates(folder: Path, hosts: Sequence[str]) -> None:
    """A club CA (``ca.crt``/``ca.key``) and the broker's certificate for ``hosts``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    until = now + datetime.timedelta(days=CERT_DAYS)

    def pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
        return key.private_bytes(serialization.Encoding.PEM,
                                 serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "companion club CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(until)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                     key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, key_cert_sign=True, crl_sign=True,
                                     encipher_only=False, decipher_only=False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                       critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    names = _names(hosts)
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    alt.append(x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[-1])]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(until)
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                       critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    atomic_write(folder / "ca.key", pem_key(ca_key), mode=SECRET)
    atomic_write(folder / "ca.crt", ca.public_bytes(pem), mode=PUBLIC)
    atomic_write(folder / "server.key", pem_key(server_key), mode=SECRET)
    atomic_write(folder / "server.crt", server.public_bytes(pem), mode=PUBLIC)


def write_broker_config(
    folder: str | Path,
    tables: Sequence[int],
    *,
    hosts: Sequence[str] = (),
    tls_port: int = 8883,
    local_port: int = 1883,
    prefix: str = "companion",
    broker_host: str = "",
    run_as: str = "mosquitto",
) -> BrokerSetup:
    """Write the whole setup into ``folder``; refuses a folder that already has one (its
    passwords and CA are in use at the tables)."""
    folder = Path(folder).resolve()
    if (folder / "mosquitto.conf").exists():
        raise FileExistsError(f"{folder / 'mosquitto.conf'} already exists; the club's "
                              "tables use its CA and passwords (choose another folder)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data").mkdir(exist_ok=True)
    setup = BrokerSetup(folder, tls_port, local_port)
    for user in [ARBITER_USER, SENDER_USER, *(table_user(n) for n in tables)]:
        setup.passwords[user] = secrets.token_urlsafe(18)
    make_certificates(folder, hosts)
    atomic_write(folder / "passwd",
                 "".join(password_line(u, p) + "\n" for u, p in setup.passwords.items()),
                 mode=SECRET)
    atomic_write(folder / "acl", acl_text(prefix, tables), mode=SECRET)
    conf = f"""\
# companion: the club's broker (written by `companion arbiter broker-config`).
# Run: mosquitto -c {setup.conf}
user {run_as}
per_listener_settings false
allow_anonymous false
password_file {folder / 'passwd'}
acl_file {folder / 'acl'}
persistence true
persistence_location {folder / 'data'}/
max_queued_messages 10000
max_packet_size 262144

# Every listener: a client's id is its user name, so a connection with another user's
# password can never take over (disconnect, or wipe the stored session of) a table or the
# arbiter's page by naming its client id.

# The arbiter's laptop (when the broker runs on it): plain MQTT, this machine only.
listener {local_port} 127.0.0.1
use_username_as_clientid true

# The club's network: TLS only, with the club CA's certificate.
listener {tls_port}
use_username_as_clientid true
cafile {folder / 'ca.crt'}
certfile {folder / 'server.crt'}
keyfile {folder / 'server.key'}
tls_version tlsv1.2
"""
    atomic_write(setup.conf, conf, mode=PUBLIC)
    _hand_over(folder, run_as)
    host = broker_host or _names(hosts)[-1]
    for n in tables:
        user = table_user(n)
        atomic_write(setup.table_config(n), _mqtt_section(
            host, tls_port, user, setup.passwords[user], "/etc/companion/club-ca.crt",
            prefix), mode=SECRET)
    atomic_write(folder / "tables" / "arbiter.toml", _mqtt_section(
        "127.0.0.1", local_port, ARBITER_USER, setup.passwords[ARBITER_USER], "", prefix,
        tls=False, sender=(SENDER_USER, setup.passwords[SENDER_USER])), mode=SECRET)
    return setup


def _hand_over(folder: Path, user: str) -> None:
    """Written by root: give the broker's own secrets to the user mosquitto runs as (it drops
    root before reading them). The CA key stays root's."""
    if os.geteuid() != 0 or user == "root":
        return
    try:
        pwd.getpwnam(user)
    except KeyError:
        return
    for name in ("passwd", "acl", "server.key", "data"):
        shutil.chown(folder / name, user)


def _mqtt_section(host: str, port: int, user: str, password: str, ca_file: str, prefix: str,
                  *, tls: bool = True, sender: tuple[str, str] | None = None) -> str:
    text = (
        f"# companion: {user}'s [mqtt] section (copy the club's ca.crt to {ca_file or '-'})\n"
        "[mqtt]\nenabled = true\n"
        f'host = "{host}"\nport = {port}\n'
        f'username = "{user}"\npassword = "{password}"\n'
        f"tls = {'true' if tls else 'false'}\n"
        f'ca_file = "{ca_file}"\n'
        f'topic_prefix = "{prefix}"\n'
    )
    if sender is not None:
        text += (
            "# the arbiter's command line (tournament pair --send) connects as its own user,\n"
            "# so it never takes over the page's session\n"
            f'send_username = "{sender[0]}"\nsend_password = "{sender[1]}"\n'
        )
    return text
