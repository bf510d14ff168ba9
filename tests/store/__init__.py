"""Tests of bot/store: the interface suite runs on every implementation; test_sqlite_* on SQLite."""
