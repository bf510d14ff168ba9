"""What every mode shares: where a game is, who may end it, giving up, showing the board again,
statistics, leaderboards and simulations."""
