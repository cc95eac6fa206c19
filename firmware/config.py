"""Settings of the sensor hub: which Pico GPIO serves which input, and the link's timing.

Edit this file to rewire the hub; nothing else in the firmware names a pin. Numbers are
the Pico's GPIO numbers (GPn), not the physical pin numbers; hardware/hub/README.md has
both. Input indexes (the bit order of the hub's bitmaps and the ``index`` byte of an EVENT
frame) are fixed by PROTOCOL.md, so this file may change a pin but not an order.
"""

# Inputs 0-10, each a switch or button between the GPIO and GND (internal pull-up).
# Order: tilt.r1 tilt.r2 tilt.r3 tilt.b1 tilt.b2 tilt.b3
#        ring.red ring.black timer15.red timer15.black menu
DIRECT_PINS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)

# 4x4 keypad (inputs 11-26 = 11 + 4 * row + column, keys "123A456B789C*0#D").
# Rows are driven open-drain, columns read with the internal pull-up.
KEYPAD_ROWS = (16, 17, 18, 19)
KEYPAD_COLS = (20, 21, 22, 26)

# Index of the menu button: held down at power-up, the firmware does not start, so the
# REPL stays free for mpremote.
MENU_INDEX = 10

# Debounce: a change is reported once the input has been steady this long (microseconds).
# Ball tilt switches rattle longer than tactile buttons.
SETTLE_TILT_US = 10000
SETTLE_BUTTON_US = 5000
SETTLE_KEY_US = 10000

# Link timing (microseconds).
HEARTBEAT_US = 1000000
# Unacknowledged EVENT frames are sent again after this long without progress.
RESEND_US = 200000
# At most this many frames resent per pass of the main loop, so a long backlog after a
# reconnection does not stall the input scan.
RESEND_BURST = 8
# EVENT frames kept until the host acknowledges them. When full, the oldest is dropped;
# the host sees the hole through the heartbeat's "oldest" field and reports lost events.
RESEND_CAPACITY = 256

FIRMWARE_VERSION = "0.1.0"
