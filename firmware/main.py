"""Entry point on the Pico: MicroPython runs main.py at power-up.

Hold the menu button while plugging the hub in to skip the firmware and keep the REPL
free (for mpremote). Otherwise Ctrl-C is switched off, because 0x03 is an ordinary byte
inside frames; ``python -m companion.hub repl PORT`` asks a running hub to hand the line
back to the REPL. Should the firmware ever crash, the hub resets itself after a second and
the host reports a restarted hub.
"""

import sys

import board
import config
import hub


def main():
    pico = board.Board(config)
    pico.sleep_ms(20)  # let the pull-ups settle before reading the menu button
    if pico.scan() & (1 << config.MENU_INDEX):
        print("companion hub: menu held at power-up, firmware not started")
        return
    pico.quiet_ctrl_c(True)
    try:
        hub.Hub(pico, config).run()
    except Exception as exc:  # any crash: report it, then start afresh
        sys.print_exception(exc)
        pico.sleep_ms(1000)
        pico.reset()
    finally:
        pico.quiet_ctrl_c(False)


main()
