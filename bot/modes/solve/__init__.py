"""Solve: the player thinks of a code and the bot cracks it, answered with peg buttons."""
