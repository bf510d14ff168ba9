"""mastermind-bot: a Discord bot that plays Mastermind in both directions."""

__version__ = "0.1.0"
