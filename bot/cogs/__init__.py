"""FLOOR 5, every input: slash commands, buttons, selects, modals and the background passes.

Each handler reads the interaction, turns it into an `Actor` (who, where, which input), calls one
mode action (`bot.modes`), and hands the result to `bot.ui` to draw. The checks that an input
belongs where it claims run in the mode actions, on data read from the interaction here, never
on anything the client chose. `kinds` is the one table keyed by game kind (board, view,
actions); `boards` keeps every board in step with the store; `replies` answers once and
privately.

Where things go: a new slash command is a method of `mastermind.Mastermind` that calls a
handler in its mode's module here; a new button or select is a `DynamicItem` in that module
(listed in its `DYNAMIC_ITEMS`) with its look in `bot.ui.components` and its id in
`bot.ui.ids`.
"""

from bot.cogs import common, daily, hints, play, race, review, solve

DYNAMIC_ITEMS = (
    *play.DYNAMIC_ITEMS,
    *solve.DYNAMIC_ITEMS,
    *common.DYNAMIC_ITEMS,
    *daily.DYNAMIC_ITEMS,
    *hints.DYNAMIC_ITEMS,
    *review.DYNAMIC_ITEMS,
    *race.DYNAMIC_ITEMS,
)
"""Every button and select input, registered once at start."""
