"""Scripts that print measured figures of the engine (run them; they are not timed tests)."""
