"""The duel: the player sets a secret, then they and the bot crack each other's codes in turns.

Each action is one store transaction. The bot's reply to a guess is worked out first, by the
solver in its workers, from the bot's own guesses and their pegs (never a secret), so a solver
that fails stores nothing; the player's guess and the bot's reply are then stored together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.actor import Actor
from bot.engine.codes import Code
from bot.engine.errors import BadChoice, NotYourGame, OwnerReason, StaleGame
from bot.engine.game import Status, Variant
from bot.engine.job_types import NoCodeLeft
from bot.engine.search import check_size
from bot.engine.strategies import STRATEGIES
from bot.modes.common.actions import (
    here,
    refuse_if_taken,
    running_here,
    start_with_board,
    started_by,
)
from bot.modes.duel import rules
from bot.modes.duel.record import LEADERS, RESULTS
from bot.modes.duel.rules import KIND, DuelGame, DuelOutcome
from bot.solver_pool import SolverPool
from bot.store import Applied, PlayerStats, Store

OPPONENTS = tuple(
    name
    for name in (
        "knuth",
        "random-consistent",
        "optimal",
        "expected-size",
        "entropy",
        "most-parts",
        "two-colour-random",
    )
    if name in STRATEGIES
)
"""The bot's strategies a duel may be played against, numbered for a setup's custom_id (append
only: a picker already shown names its opponent by this number)."""
EASY = "random-consistent"
"""The opponent players know as `easy`: a random code still possible."""


@dataclass(frozen=True)
class Setup:
    """What a duel is played with, chosen in `/mastermind duel` and carried by its secret's
    picker until the secret is set."""

    variant: Variant
    strategy: str
    hard: bool = False


async def check_start(store: Store, actor: Actor, setup: Setup) -> None:
    """Refuse a start before anything is shown: an unknown opponent, a variant too large for
    the solver, a channel that has a game."""
    if setup.strategy not in OPPONENTS:
        raise BadChoice()
    check_size(setup.variant.space)
    await refuse_if_taken(store, actor.channel_id)


def check_secret(setup: Setup, code: Code | str) -> Code:
    """The player's secret, refused (BadSecret) unless it fits the variant: before any board."""
    return rules.check_secret(setup.variant, code)


async def start(
    store: Store, actor: Actor, setup: Setup, theirs: Code | str, board_message_id: int
) -> DuelGame:
    """The duel on the player's secret `theirs`, with the bot's drawn, stored with its board
    (already posted)."""
    fresh = rules.new_duel_game(
        **started_by(actor),
        theirs=theirs,
        variant=setup.variant,
        strategy=setup.strategy,
        hard=setup.hard,
        reach=actor.reach,
    )
    return await start_with_board(store, actor, fresh, board_message_id)


async def mine(store: Store, game_id: int, actor: Actor, version: int | None = None) -> DuelGame:
    """The running duel here that the actor plays (before a picker opens or a guess is worked
    out), as shown on the board they clicked if `version` is given (else StaleGame)."""
    game = rules.as_duel(await running_here(store, game_id, actor))
    if actor.user_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    if version is not None and game.version != version:
        raise StaleGame()
    return game


def bot_history(game: DuelGame) -> list[tuple[list[int], int, int]]:
    """What the solver is told: the bot's guesses and the pegs each earned, as plain data."""
    return [(list(code), black, white) for code, (black, white) in game.bot_clues]


async def reply(solver: SolverPool, game: DuelGame) -> tuple[Code, bool]:
    """The bot's next guess from its own history, and whether the strategy's exact search chose
    it (False: the approximate one, within the move budget)."""
    variant = game.variant
    move = await solver.next_move(
        variant,
        game.strategy,
        bot_history(game),
        game.id or 0,
    )
    if isinstance(move, NoCodeLeft):  # pegs scored by the rules never contradict each other
        raise RuntimeError(f"duel {game.id}: the bot's answers left no code ({move.message})")
    return tuple(move.guess), move.exact


@dataclass(frozen=True)
class Round:
    """A stored round: the game after it, what each guess did, and where the board is."""

    applied: Applied[tuple[DuelOutcome, ...]]
    exact: bool

    @property
    def game(self) -> DuelGame:
        return rules.as_duel(self.applied.game)

    @property
    def outcomes(self) -> tuple[DuelOutcome, ...]:
        return self.applied.outcome


async def guess(
    store: Store,
    solver: SolverPool,
    game_id: int,
    actor: Actor,
    code: Code | str,
    version: int | None = None,
) -> Round:
    """The player's guess and the bot's reply, in one write transaction on the game as shown
    (`version`, if the input carries one) or as it stands; stored once per source."""
    game = await mine(store, game_id, actor, version)
    rules.check_guess(game, actor.user_id, code)  # the refusals, before the solver works
    answer, exact = await reply(solver, game)
    applied = await store.act(
        lambda g: rules.play_round(here(g, actor), actor.user_id, code, answer),
        game_id=game_id,
        expected_version=game.version,
        source=actor.source,
    )
    return Round(applied, exact)


@dataclass(frozen=True)
class Tally:
    """A player's duels against one opponent: won, lost (a duel given up or timed out counts
    as lost) and drawn, and their wins in a row: to date, and their best."""

    opponent: str
    won: int = 0
    lost: int = 0
    drawn: int = 0
    streak: int = 0
    best_streak: int = 0


def tally(results: Iterable[Mapping[str, Any]]) -> list[Tally]:
    """Each opponent's tally from a player's finished duels (oldest first), in the order the
    opponents are offered; opponents never played are left out."""
    tallies: dict[str, Tally] = {}
    for row in results:
        name = str(row["strategy"])
        now = tallies.get(name) or Tally(name)
        status = Status(row["status"])
        if status is Status.WON:
            streak = now.streak + 1
            now = replace(now, won=now.won + 1, streak=streak)
            now = replace(now, best_streak=max(now.best_streak, streak))
        elif status is Status.DRAW:
            now = replace(now, drawn=now.drawn + 1, streak=0)
        else:
            now = replace(now, lost=now.lost + 1, streak=0)
        tallies[name] = now
    order: dict[str, int] = {name: n for n, name in enumerate(OPPONENTS)}
    return sorted(tallies.values(), key=lambda t: (order.get(t.opponent, len(order)), t.opponent))


async def record(store: Store, guild_id: int | None, user_id: int) -> list[Tally]:
    """A player's duels per opponent, in a guild or everywhere (`guild_id` None)."""
    rows = await store.kind_rows(KIND, RESULTS, {"user": user_id, "guild": guild_id})
    return tally(rows)


async def leaders(store: Store, guild_id: int, opponent: str, limit: int = 10) -> list[PlayerStats]:
    """A guild's players by their duels against `opponent` alone: most wins, then the best
    game, then fewest duels."""
    params = {"guild": guild_id, "opponent": opponent, "limit": limit}
    rows = await store.kind_rows(KIND, LEADERS, params)
    return [PlayerStats(**row, kind=KIND) for row in rows]
