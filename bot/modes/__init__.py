"""FLOOR 3, the game modes: what each player action does, as plain async functions.

One module per mode (`play`, `solve`), plus `common` for what every mode shares (where a game
is, who may end it, giving up). An action takes the store, the solver pool and an `Actor` (who
acts, where), applies one pure engine transition in one store transaction, and returns values:
nothing here knows Discord, formats text or draws a board. Failures are typed errors
(`bot.engine.errors`) that the layers above turn into words.

A new mode is a new module here, an engine state machine for its kind, and one entry in the
cogs' table of kinds (`bot.cogs.kinds`); no existing mode changes.
"""
