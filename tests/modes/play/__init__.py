"""Tests of the play mode's package."""
