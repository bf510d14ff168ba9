"""Tests of the race mode's package."""
