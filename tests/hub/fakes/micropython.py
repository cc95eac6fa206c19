"""Stand-in for MicroPython's ``micropython`` module: records the Ctrl-C character set.

Written in the MicroPython subset: the MicroPython unix port loads this same file.
"""

interrupt_chars = [3]


def kbd_intr(char):
    interrupt_chars.append(char)


def const(value):
    return value
