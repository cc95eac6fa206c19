"""Tests of the hardware files: pin map, diagram, keypad overlay, systemd unit, install guide."""
