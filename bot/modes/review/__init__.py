"""The post-game review, shared by the modes where players guess: each guess beside Knuth's."""
