"""Play: the bot hides a code and the channel (or its starter alone) cracks it on a shared board."""
