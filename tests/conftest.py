"""Shared pytest configuration. Area-specific fixtures live in tests/<area>_fixtures.py."""
