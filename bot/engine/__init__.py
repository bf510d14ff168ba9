"""Pure Mastermind logic: codes, scoring, strategies, solver, games, simulator. No I/O."""
