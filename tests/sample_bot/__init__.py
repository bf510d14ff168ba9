"""A small bot that exercises every interaction path the fake Discord supports.

It is the reference user of `tests/discord_fake`: tests drive it in-process and as a subprocess
(`python -m tests.discord_fake.launch <rest> <gateway> tests.sample_bot`).
"""

from tests.sample_bot.bot import CounterButton, SampleBot

__all__ = ["CounterButton", "SampleBot"]
