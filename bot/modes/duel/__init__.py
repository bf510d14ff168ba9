"""Duel: the player and the bot each hide a code and crack the other's in turns."""
