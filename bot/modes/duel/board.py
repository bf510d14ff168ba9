"""The duel's board and its custom_id routes: both sides' guesses with their pegs, whose turn it
is, and both secrets once it is over (never before); the private picker and modal that set the
player's secret and make their guesses; the duel's refusals in words."""

from __future__ import annotations

import re

import discord

from bot.charts.style import OKABE_ITO
from bot.engine.codes import CodeSpace
from bot.engine.errors import BadChoice, InvalidVariant
from bot.engine.game import Move, Status, Variant
from bot.interactions.context import RulesSection
from bot.modes.common import board as common_board
from bot.modes.duel.actions import EASY, OPPONENTS, Setup, Tally
from bot.modes.duel.rules import BadSecret, DuelGame, NotADuel, NotYourTurn, Turn
from bot.modes.hints import board as hints_board
from bot.modes.review.board import finished_view
from bot.ui import components, embeds, text, words
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.code_errors import code_problem
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages, later
from bot.ui.ids import ID, NUMBER, Route
from bot.ui.text import mention

SETUP = 6
"""The widest setup number a custom_id carries (`setup_number`)."""
_RADICES = (("pegs", 9), ("colours", 11), ("repeats", 2), ("guesses", 21), ("opponent", 10))
"""A setup as one mixed-radix number, hard mode its last digit (binary): every value below its
radix, so a setup of any allowed variant fits in SETUP digits."""

SECRET_PEG = Route("duel-secret-peg", (("setup", SETUP), ("peg", 1)))
SECRET_SEND = Route("duel-secret", (("setup", SETUP),))
SECRET_MODAL = Route("duel-secret-code", (("setup", SETUP), ("nonce", ID)))
GUESS = Route("duel-guess", (("game", ID), ("version", ID)))
GUESS_PEG = Route("duel-peg", (("game", ID), ("version", ID), ("peg", 1)))
GUESS_SEND = Route("duel-send", (("game", ID), ("version", ID)))
GUESS_MODAL = Route("duel-code", (("game", ID), ("version", ID), ("nonce", ID)))
MODALS = re.compile(
    rf"mm:duel-secret-code:(?P<setup>{NUMBER}):(?P<nonce>{NUMBER})"
    rf"|mm:duel-code:(?P<game>{NUMBER}):(?P<version>{NUMBER}):(?P<nonce2>{NUMBER})"
)
"""The duel's two modals: the secret's (`setup`, `nonce`) and a guess's (`game`, `version`,
`nonce2`); each nonce is the id of the click that opened it, so one modal makes one move."""

# --- the setup, carried by the secret's picker ---------------------------------------------


def setup_number(setup: Setup) -> int:
    """`setup` as the number its picker's custom_ids carry."""
    v = setup.variant
    values = {
        "pegs": v.pegs,
        "colours": v.colours,
        "repeats": int(v.duplicates),
        "guesses": v.max_guesses,
        "opponent": OPPONENTS.index(setup.strategy),
    }
    number = 0
    for name, radix in _RADICES:
        number = number * radix + values[name]
    return number * 2 + int(setup.hard)


def setup_of(number: int) -> Setup:
    """The setup a custom_id's number names; BadChoice for one no picker of ours carries."""
    number, hard = divmod(number, 2)
    values: dict[str, int] = {}
    for name, radix in reversed(_RADICES):
        number, values[name] = divmod(number, radix)
    if number or values["opponent"] >= len(OPPONENTS):
        raise BadChoice()
    try:
        variant = Variant(
            pegs=values["pegs"],
            colours=values["colours"],
            duplicates=bool(values["repeats"]),
            max_guesses=values["guesses"],
        )
    except InvalidVariant:
        raise BadChoice() from None
    return Setup(variant, OPPONENTS[values["opponent"]], hard=bool(hard))


# --- the private pickers -------------------------------------------------------------------


def secret_picker(
    setup: Setup, chosen: list[int | None], *, t: Messages
) -> tuple[str, discord.ui.View]:
    """The private picker of the player's secret: a select per peg and Set secret."""
    space = setup.variant.space
    number = setup_number(setup)
    view = components.RenderedView()
    send = SECRET_SEND.id(number)
    components.add_picker(
        view, SECRET_PEG, number, space, chosen, send, t=t, submit=t.gettext("Set secret")
    )
    shown = "".join("❔" if c is None else space.palette[c].emoji for c in chosen)
    said = t.gettext(
        "🔒 Choose your secret code: I crack it while you crack mine, and nobody else sees it "
        "until the duel ends. Your secret: {shown}",
        shown=shown,
    )
    return said, view


def guess_picker(
    game: DuelGame, chosen: list[int | None], *, t: Messages
) -> tuple[str, discord.ui.View]:
    """The private picker of the player's next guess, for the turn it was opened on (a picker
    left from an earlier turn is refused)."""
    assert game.id is not None
    space = game.variant.space
    key = (game.id, game.version)
    view = components.RenderedView()
    components.add_picker(view, GUESS_PEG, key, space, chosen, GUESS_SEND.id(*key), t=t)
    return components.picker_text(space, chosen, t=t), view


def secret_modal(setup: Setup, nonce: int, *, t: Messages) -> discord.ui.Modal:
    """The secret typed, for codes too long for the picker."""
    return components.CodeModal(
        SECRET_MODAL.id(setup_number(setup), nonce),
        setup.variant.space,
        t=t,
        title=t.gettext("Set your secret"),
        label=t.gettext("Your secret code"),
    )


def guess_modal(game: DuelGame, nonce: int, *, t: Messages) -> discord.ui.Modal:
    """A guess typed, for codes too long for the picker."""
    assert game.id is not None
    custom_id = GUESS_MODAL.id(game.id, game.version, nonce)
    return components.CodeModal(custom_id, game.variant.space, t=t)


def uses_modal(space: CodeSpace) -> bool:
    """Codes too long for a select per peg are typed in a modal."""
    return space.pegs > components.PICKER_MAX_PEGS


# --- the board -----------------------------------------------------------------------------


def opponent(t: Messages, strategy: str) -> str:
    """The opponent as players know it: `easy`, or the strategy's title."""
    if strategy == EASY:
        return t.gettext("Easy (a random code still possible)")
    return words.strategy_title(t, strategy)


def _grid(space: CodeSpace, moves: tuple[Move, ...], *, t: Messages) -> str:
    rows = [
        text.guess_row(n, space, m.code, m.black, m.white)
        for n, m in enumerate(moves, start=1)
        if m.code is not None and m.black is not None and m.white is not None
    ]
    return "\n".join(rows) if rows else t.gettext("*No guesses yet.*")


def duel_board(game: DuelGame, *, t: Messages) -> discord.Embed:
    """Both sides' guesses and pegs, whose turn it is; both secrets only once it is over."""
    space = game.variant.space
    player = mention(game.starter_id)
    embed = discord.Embed(
        title=t.gettext(
            "Mastermind duel · {variant}", variant=embeds.variant_line(game.variant, t)
        ),
        colour=embeds.STATUS_COLOUR[game.status],
    )
    embed.description = t.gettext(
        "{player} against the bot ({opponent}): who cracks the other's code in fewer guesses?",
        player=player,
        opponent=opponent(t, game.strategy),
    )
    embed.add_field(
        name=t.gettext("Guesses at the bot's code"),
        value=_grid(space, game.player_moves, t=t),
        inline=False,
    )
    embed.add_field(
        name=t.gettext("The bot's guesses at the player's code"),
        value=_grid(space, game.bot_moves, t=t),
        inline=False,
    )
    embed.add_field(name=t.gettext("Colours"), value=text.legend(space, t=t), inline=False)
    if game.turn is Turn.PLAYER:
        embed.add_field(name=t.gettext("Turn"), value=t.gettext("{player} to guess", player=player))
        embed.add_field(name=t.gettext("Guesses left"), value=common_board.guesses_left(game, t=t))
        embed.set_footer(text=common_board.how_to_guess(game, t=t))
    else:
        embed.add_field(name=t.gettext("Result"), value=result(game, t), inline=False)
        if (ours := game.revealed_secret) is not None:
            embed.add_field(name=t.gettext("The bot's secret"), value=text.code_line(space, ours))
        if (theirs := game.revealed_theirs) is not None:
            embed.add_field(
                name=t.gettext("The player's secret"),
                value=f"{text.code_line(space, theirs)} {player}",
            )
        embed.set_footer(text=embeds.edition(game, t))
    return common_board.how_played(embed, game, t=t)


def result(game: DuelGame, t: Messages) -> str:
    """How the duel ended, in one line."""
    player = mention(game.starter_id)
    mine, bots = len(game.player_moves), len(game.bot_moves)
    if game.status is Status.WON:
        return t.ngettext(
            "🏆 {player} wins: cracked the bot's code in {count} guess.",
            "🏆 {player} wins: cracked the bot's code in {count} guesses.",
            mine,
            player=player,
        )
    if game.status is Status.DRAW:
        return t.ngettext(
            "🤝 A draw: both codes cracked in {count} guess.",
            "🤝 A draw: both codes cracked in {count} guesses.",
            mine,
        )
    if game.status is Status.LOST:
        if game.bot_moves and game.bot_moves[-1].black == game.variant.pegs:
            return t.ngettext(
                "🤖 The bot wins: it cracked {player}'s code in {count} guess.",
                "🤖 The bot wins: it cracked {player}'s code in {count} guesses.",
                bots,
                player=player,
            )
        return t.gettext("🤖 The bot wins: {player} ran out of guesses.", player=player)
    if game.ended_by is None:
        return t.gettext("⌛ Timed out: nobody played for too long.")
    return t.gettext("🏳️ {player} gave the duel up.", player=mention(game.ended_by))


def duel_view(game: DuelGame, *, t: Messages) -> discord.ui.View | None:
    """Guess, Hint and Give up while the duel runs; the Review once it is over."""
    if game.id is None:
        return None
    if game.is_over:
        return finished_view(game.id, t=t)
    view = components.RenderedView()
    view.add_item(
        components.button(
            GUESS.id(game.id, game.version),
            t.pgettext("button", "Guess"),
            emoji="🎯",
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(hints_board.hint_button(game.id, t=t))
    view.add_item(common_board.give_up_button(game.id, t=t))
    return view


def draw(game: DuelGame, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """The duel's board as stored (`note`: the round's line above it)."""
    return Drawn(note, duel_board(game, t=t), duel_view(game, t=t))


def round_line(game: DuelGame, t: Messages) -> str:
    """The public line of a round: the player's guess and the bot's reply, with their pegs."""
    space = game.variant.space
    lines = []
    mine = game.player_moves[-1] if game.player_moves else None
    if mine is not None and mine.code is not None:
        lines.append(
            t.gettext(
                "{player} guessed {code} → {pegs}",
                player=mention(game.starter_id),
                code=text.code_line(space, mine.code),
                pegs=text.pegs(mine.black or 0, mine.white or 0),
            )
        )
    theirs = game.bot_moves[-1] if len(game.bot_moves) == len(game.player_moves) else None
    if theirs is not None and theirs.code is not None:
        lines.append(
            t.gettext(
                "🤖 The bot guessed {code} → {pegs}",
                code=text.code_line(space, theirs.code),
                pegs=text.pegs(theirs.black or 0, theirs.white or 0),
            )
        )
    if game.is_over:
        lines.append(f"**{result(game, t)}**")
    return "\n".join(lines)


CONFIRM = later.gettext("Give the duel up and reveal both secrets?")
"""The private question before giving a duel up."""


def ended(game: DuelGame, by: int, t: Messages) -> str:
    """The public line once the player gave the duel up: both secrets, revealed."""
    space = game.variant.space
    ours, theirs = game.revealed_secret, game.revealed_theirs
    hidden = t.gettext("hidden")
    return t.gettext(
        "🏳️ {player} gave the duel up. The bot's secret was {ours}; theirs was {theirs}.",
        player=mention(by),
        ours=text.code_line(space, ours) if ours else hidden,
        theirs=text.code_line(space, theirs) if theirs else hidden,
    )


CHART = ChartLook(later.pgettext("chart", "duel"), OKABE_ITO["vermillion"])
"""The duels a player won, in a chart: their name and their colour."""


def rules_title(t: Messages) -> str:
    """The heading of the duel's section of `/mastermind rules`."""
    return t.gettext("You and the bot, code against code")


def rules_text(t: Messages) -> str:
    """The duel's section of `/mastermind rules`."""
    return t.gettext(
        "`/mastermind duel`: set your own secret privately, then take turns: you guess the "
        "bot's code, the bot guesses yours, and each guess earns its pegs. Fewer guesses wins, "
        "the same count is a draw, and running out of guesses loses. Option `opponent`: "
        "`easy`, `knuth` (default), `optimal` and every other strategy."
    )


RULES = RulesSection(rules_title, rules_text)
"""The duel's section of `/mastermind rules`."""


def starting(t: Messages) -> str:
    """The public placeholder that becomes the board once the duel is stored."""
    return t.gettext("⚔️ A duel is starting…")


def approximate_note(t: Messages) -> str:
    """Under a round whose bot guess came from the approximate search (the exact one would
    have overrun the move budget on so large a variant)."""
    return "≈ " + t.gettext(
        "The bot's guess was approximate: the exact search would take too long."
    )


def record_fields(tallies: list[Tally], *, t: Messages) -> list[Field]:
    """A player's duels, a line per opponent: won, lost, drawn and their wins in a row."""
    if not tallies:
        return []
    lines = []
    for each in tallies:
        line = t.gettext(
            "**{opponent}**: {won} won · {lost} lost · {drawn} drawn",
            opponent=opponent(t, each.opponent),
            won=t.number(each.won),
            lost=t.number(each.lost),
            drawn=t.number(each.drawn),
        )
        if each.best_streak:
            streak = t.ngettext("🔥 {count} win in a row", "🔥 {count} wins in a row", each.streak)
            best = t.gettext("best {count}", count=t.number(each.best_streak))
            line += f" · {streak} ({best})"
        lines.append(line)
    return [Field(t.gettext("Duels against the bot"), "\n".join(lines), inline=False)]


def leaderboard(strategy: str) -> common_board.Leaderboard:
    """The server's most duel wins against one opponent."""
    return common_board.Leaderboard(
        lambda t: t.gettext("Duel leaderboard: {opponent}", opponent=opponent(t, strategy)),
        lambda t: t.gettext(
            "No duel against {opponent} has ended yet. Start one with `/mastermind duel`!",
            opponent=opponent(t, strategy),
        ),
    )


def _bad_secret(error: BadSecret, t: Messages) -> str:
    why = (
        code_problem(error.reason, t)
        if error.reason is not None
        else t.ngettext(
            "Write a code of {count} colour.", "Write a code of {count} colours.", error.pegs or 0
        )
    )
    return t.gettext("That secret does not fit this duel: {why}", why=why)


ERRORS: ErrorWords = {
    NotYourTurn: lambda _, t: t.gettext("Wait for the bot's guess: it is not your turn."),
    NotADuel: lambda _, t: t.gettext("That belongs to a duel; this game is played otherwise."),
    BadSecret: _bad_secret,
}
"""The duel's refusals in words."""
