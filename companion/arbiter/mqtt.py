"""The one place that builds paho-mqtt clients from :class:`MqttSettings`.

paho-mqtt (2.x, ``CallbackAPIVersion.VERSION2``) is imported here only, and only when a client
is made, so a table with MQTT off never needs it.
"""

from __future__ import annotations

from typing import Any

from companion.arbiter.settings import MqttSettings


class MqttMissing(RuntimeError):
    """paho-mqtt is not installed."""


def paho() -> Any:
    try:
        import paho.mqtt.client as client
    except ImportError:
        raise MqttMissing(
            "MQTT needs paho-mqtt: pip install 'paho-mqtt>=2.1,<3'"
        ) from None
    return client


def make_client(settings: MqttSettings, client_id: str, *, clean_session: bool = True) -> Any:
    """A configured client (credentials, TLS), not connected yet."""
    mqtt = paho()
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        client.tls_set(
            ca_certs=settings.ca_file or None,
            certfile=settings.cert_file or None,
            keyfile=settings.key_file or None,
        )
    client.max_inflight_messages_set(200)
    return client


def success(reason_code: Any) -> bool:
    """Whether a paho reason code (an int-like ReasonCode) says success."""
    failure = getattr(reason_code, "is_failure", None)
    if isinstance(failure, bool):
        return not failure
    return int(reason_code) == 0
