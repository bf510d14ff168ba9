"""mastermind-bot: a Discord bot that plays Mastermind in both directions."""
