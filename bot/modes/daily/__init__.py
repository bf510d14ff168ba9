"""Daily: one code a UTC day for everybody, each player cracking it once on a private board."""
