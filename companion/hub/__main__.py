"""Field tools for the sensor hub (``python -m companion.hub``): :data:`DESCRIPTION` says
what they do, and is what ``--help`` shows, in the players' language."""

from __future__ import annotations

import argparse
import sys
import threading
import time

from companion.hub import UP, HubEvent, HubLink
from companion.i18n import N_, _

#: What the field tools are for (their ``--help``).
DESCRIPTION = N_("""Field tools for the sensor hub, until ``companion`` grows subcommands for them.

    python -m companion.hub monitor /dev/ttyACM0   # print events and link changes
    python -m companion.hub repl /dev/ttyACM0      # hand the hub back to its REPL

``repl`` is the step before ``mpremote`` can reach a hub that is running the firmware:
the firmware switches Ctrl-C off, so mpremote's usual interrupt does not work.
""")


def monitor(port: str) -> int:
    def on_event(event: HubEvent) -> None:
        print(f"{event.t:14.6f}  seq {event.seq:<6} {event.kind:<6} {event.name:<14} {event.value}")

    def on_link(status: str, detail: str) -> None:
        print(f"link {status}: {detail}", file=sys.stderr)

    with HubLink(port, on_event=on_event, on_link=on_link):
        try:
            while True:
                time.sleep(1)
        except KeyboardInterrupt:
            return 0


def repl(port: str, timeout: float = 5.0) -> int:
    up = threading.Event()

    def on_link(status: str, detail: str) -> None:
        if status == UP:
            up.set()

    with HubLink(port, on_link=on_link) as link:
        if not up.wait(timeout):
            print(f"no hub answered on {port} within {timeout:g} s", file=sys.stderr)
            return 1
        link.request_repl()
        time.sleep(0.3)
    print(f"the hub on {port} is at its REPL: mpremote can connect now")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.hub", description=_(DESCRIPTION))
    parser.add_argument("command", choices=("monitor", "repl"))
    parser.add_argument("port", help=_("serial device of the hub, e.g. /dev/ttyACM0"))
    args = parser.parse_args(argv)
    if args.command == "monitor":
        return monitor(args.port)
    return repl(args.port)


if __name__ == "__main__":
    from companion import i18n

    i18n.use()  # the environment's language (``companion hub`` has chosen it already)
    i18n.argparse_speaks()
    sys.exit(main())
