"""What every input shares, whatever its mode: the bot as inputs see it (`context.Host`),
private and committed replies, the base of every button and select (`items.Input`), the cog
each mode's inputs are (`cogs.ModeInputs`), boards kept in step with the store, private boards
and where the bot may speak.
"""
