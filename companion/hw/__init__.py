"""Hardware adapters: inputs, keypad, buzzer, display and the sensor hub.

Each adapter takes its backend in the constructor (a gpiozero pin factory, a luma device, a
serial port), so the same code runs on a Raspberry Pi, on gpiozero's ``MockFactory`` with luma's
``dummy`` device in tests, and in the terminal on a laptop.
"""
