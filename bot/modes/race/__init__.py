"""Race: everyone who joins cracks the same code on a private board; the channel watches."""
