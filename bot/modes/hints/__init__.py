"""Hints, shared by the modes where players guess: how many codes are left, then one to try."""
