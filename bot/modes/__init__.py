"""Every way to play, one package each, and what several of them share.

A mode's package (`play`, `solve`, `daily`, `race`) holds its own floors: `rules` (the pure
state machine on the engine core), `record` (how the store keeps its columns), `actions` (what
each player action does: one store call, the solver when a move needs it; no Discord), `board`
(how its boards look) and `inputs` (its cog: buttons, selects, modal routes and timers). A
shared feature (`common`, `hints`, `review`) has the same shape. `registry` lists the modes
once; `commands` is the /mastermind group, whose commands call each mode's inputs.

A new mode is a new package here and one line in `registry.MODES` (and its migration, if it
needs columns); no other mode changes.
"""
