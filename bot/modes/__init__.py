"""Every way to play, one package each, and what several of them share.

A mode's package (one per way to play, listed in `registry.MODES`) holds its own floors:
`rules` (the pure state machine on the engine core), `record` (how the store keeps its
columns), `actions` (what each player action does: one store call, the solver when a move
needs it; no Discord), `board` (how its boards look, and its custom_id routes) and `inputs`
(its cog: its command, buttons, selects, modal route and timers). A shared feature (`common`,
`hints`, `review`) has the same shape; `common/inputs.py` is the /mastermind group itself.

A new mode is a new package here and one line in `registry.MODES` (and its migration, if it
needs columns); no other mode changes.
"""
