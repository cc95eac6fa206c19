"""Tests of the Tantrix and Tokami table controllers, driven like players at the keypad."""
