"""Tantrix Strategy: a pure rules engine."""
