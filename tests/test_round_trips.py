"""Issue #20's bound on the real bot, counted (not timed) by `benchmarks/round_trips.py`: a play
guess, typed or picked, is one write transaction and at most one read on the interaction's path,
and every player move is exactly one write transaction."""

from benchmarks.round_trips import PICKER_SUBMIT, PLAY_GUESS, Cost, measure

MOVES = (
    PLAY_GUESS,
    PICKER_SUBMIT,
    "play: Hint",
    "play: Give up confirm",
    "solve: answer button",
    "daily: Submit",
    "race: Start",
    "race: Submit",
)


def described(costs: list[Cost]) -> str:
    return "; ".join(" ".join(cost.path) for cost in costs)


async def test_a_play_guess_is_one_write_and_at_most_one_read() -> None:
    costs, violations = await measure(repeat=1)
    assert violations == []
    for label in (PLAY_GUESS, PICKER_SUBMIT):
        runs = costs[label]
        assert runs, label
        for cost in runs:
            assert cost.path_writes == 1 and cost.path_reads <= 1, (label, described(runs))
    for label in MOVES:
        runs = costs[label]
        assert runs and all(cost.path_writes == 1 for cost in runs), (label, described(runs))
