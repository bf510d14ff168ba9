"""Tests of the solve mode's package."""
