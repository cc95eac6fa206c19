"""The sensor hub: a Raspberry Pi Pico under the table that reports inputs over USB.

``HubLink`` reads it and calls back with ``HubEvent``s and link status changes; the
firmware and the wire protocol live in firmware/ (see firmware/PROTOCOL.md).
"""

from companion.hub.link import HubLink
from companion.hub.session import DOWN, UP, WARNING, HostSession, HubEvent, LinkStats

__all__ = ["DOWN", "UP", "WARNING", "HostSession", "HubEvent", "HubLink", "LinkStats"]
