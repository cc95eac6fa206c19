"""Tokami scoring: a pure engine."""
