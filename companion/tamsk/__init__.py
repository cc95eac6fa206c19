"""Tamsk (Project GIPF): a pure rules engine for levels 1-3."""
