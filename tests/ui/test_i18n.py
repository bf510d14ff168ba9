"""The catalogues: complete in every shipped language, in step with the code, and nothing the
bot says bypasses them."""

from __future__ import annotations

import ast
import gettext
import pickle
import re
import string
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from discord import app_commands

from bot.engine import game as rules
from bot.engine.codes import CodeError, CodeSpace
from bot.engine.errors import (
    AlreadyPlayed,
    BadChoice,
    GameAlreadyActive,
    GameError,
    ImpossibleAnswer,
    NoActiveGame,
    NotHere,
    NotYourGame,
    OwnerReason,
    StaleGame,
    WrongGameKind,
)
from bot.engine.game import Variant
from bot.engine.search import TooLarge, check_size
from bot.modes import registry
from bot.modes.duel import rules as duel_rules
from bot.modes.hints.actions import NoHints
from bot.modes.play import rules as play_rules
from bot.modes.race import rules as race_rules
from bot.modes.race.actions import RaceNeedsServer
from bot.modes.review.actions import ReviewNeedsPlay, ReviewNotYet
from bot.modes.solve import rules as solve_rules
from bot.solver_pool import SolverUnavailable, Unavailable
from bot.store import AlreadyApplied, StoreBusy, UnreadableGame
from bot.ui import errors, text, words
from bot.ui.i18n import ENGLISH, LANGUAGES, Messages, messages
from bot.ui.i18n.catalogue import LOCALES
from bot.ui.i18n.translator import CatalogueTranslator

BOT = Path(__file__).resolve().parents[2] / "bot"
TEMPLATE = LOCALES / "messages.pot"
TRANSLATED = [language for language in LANGUAGES if language != "en"]
PL = messages("pl")

Key = tuple[str | None, str]


def catalogue(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def key(message: Message) -> Key:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return (message.context, msgid)


def entries(path: Path) -> dict[Key, Message]:
    return {key(m): m for m in catalogue(path) if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_polish_and_english_ship() -> None:
    assert LANGUAGES[0] == "en" and "pl" in LANGUAGES


def test_the_template_holds_every_message_the_code_has() -> None:
    """`pybabel extract` run now finds exactly what the committed template holds."""
    found = {
        (context, msgid if isinstance(msgid, str) else msgid[0])
        for _, _, msgid, _, context in extract_from_dir(
            BOT, method_map=[("**.py", "python")], options_map={"**.py": {}}
        )
    }
    assert found == set(entries(TEMPLATE)), "run the extract and update commands (README)"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    translated = entries(LOCALES / language / "LC_MESSAGES" / "messages.po")
    for message_key, source in entries(TEMPLATE).items():
        assert message_key in translated, f"{language}: {message_key} is not in the catalogue"
        target = translated[message_key]
        assert not target.fuzzy, f"{language}: {message_key} is marked fuzzy"
        forms = target.string if isinstance(target.string, tuple) else (target.string,)
        assert all(forms), f"{language}: {message_key} is not translated"
        ids = source.id if isinstance(source.id, tuple) else (source.id,)
        wanted = fields(ids[-1])
        assert all(fields(i) == wanted for i in ids), message_key
        for form in forms:
            assert fields(form) == wanted, f"{language}: {message_key}: {form!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_the_source_compiled(language: str) -> None:
    folder = LOCALES / language / "LC_MESSAGES"
    with (folder / "messages.mo").open("rb") as file:
        compiled = gettext.GNUTranslations(file)
    for (context, msgid), message in entries(folder / "messages.po").items():
        prefix = f"{context}\x04" if context else ""
        if isinstance(message.id, tuple):
            for n, form in enumerate(message.string):
                assert compiled._catalog[(prefix + msgid, n)] == form  # type: ignore[attr-defined]
        else:
            assert compiled._catalog[prefix + msgid] == message.string  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("count", "polish"),
    [
        (1, "1 próba"),
        (2, "2 próby"),
        (4, "4 próby"),
        (5, "5 prób"),
        (12, "12 prób"),
        (22, "22 próby"),
    ],
)
def test_polish_has_three_plural_forms(count: int, polish: str) -> None:
    assert words.guesses(PL, count) == polish
    assert words.guesses(ENGLISH, count) == f"{count} guess" + ("" if count == 1 else "es")


def test_numbers_are_written_the_local_way() -> None:
    assert (ENGLISH.number(1296), PL.number(1296)) == ("1,296", "1\xa0296")
    assert (ENGLISH.decimal(4.4761, 3), PL.decimal(4.4761, 3)) == ("4.476", "4,476")


def test_discord_locales_find_the_nearest_language() -> None:
    assert messages(discord.Locale.polish) is PL
    for locale in (discord.Locale.british_english, "en-US", "pt-BR", "xx", None):
        assert messages(locale) is ENGLISH


# --- errors -----------------------------------------------------------------------------------


def _raised(action: object) -> BaseException:
    try:
        action()  # type: ignore[operator]
    except Exception as error:
        return error
    raise AssertionError("nothing was raised")


COLOURS = "Colours: 🔴 R red, 🟢 G green, 🔵 B blue, 🟡 Y yellow, 🟠 O orange, 🟤 N brown."
NO_REPEATS = "Colours may not repeat in this game, and green does."
PEGS_RANGE = "A code has 2 to 8 pegs, not 9."
COLOURS_RANGE = "A game has 2 to 10 colours, not 11."
TOO_FEW = "Without repeated colours, 5 pegs need at least 5 colours (this game has 4)."
IMPOSSIBLE = (
    "3 black and 1 white cannot happen: if 3 pegs are right, the last one cannot be the right "
    "colour in the wrong place."
)


def engine_errors() -> Iterator[tuple[BaseException, str]]:
    """One of each kind the floors below raise, with the parser's problems, wrapped or not, and
    the reply an English player reads (the same words the bot said before errors had codes)."""
    space = CodeSpace(4, 6)
    for bad, english in [
        ("", "Write a code of 4 colours, for example RGBY."),
        ("x" * 101, "That is 101 characters; a code here is 4 colours, for example RGBY."),
        ("112", "A code here has 4 pegs; '112' has 3. Example: RGBY."),
        ("RGBX", f"I don't know the colour 'X'. {COLOURS}"),
        ("red magenta", f"I don't know the colour 'magenta'. {COLOURS}"),
        ("1127", f"'7' is not a colour here: use digits 1-6. {COLOURS}"),
        ("teal red red red", f"Teal ('teal') is not in this game. {COLOURS}"),
    ]:
        yield _raised(lambda bad=bad: space.parse(bad)), english
    yield _raised(lambda: CodeSpace(4, 6, duplicates=False).parse("RGGB")), NO_REPEATS
    yield _raised(lambda: space.validate((1, 2, 3))), "A code here has 4 pegs; that one has 3."
    yield _raised(lambda: space.validate((1, 2, 3, 9))), "Colour number 10 is not in this game."
    yield _raised(lambda: space.code_at(-1)), "There is no code number -1 in a space of 1296."
    for black, white, english in [
        (-1, 0, "Black and white pegs are counted from 0."),
        (5, 0, "5 black and 0 white is 5 pegs, but a code has only 4."),
        (3, 1, IMPOSSIBLE),
    ]:
        yield _raised(lambda black=black, white=white: space.check_answer(black, white)), english
    for pegs, colours, duplicates, english in [
        (9, 6, True, PEGS_RANGE),
        (4, 11, True, COLOURS_RANGE),
        (5, 4, False, TOO_FEW),
    ]:
        yield _raised(lambda p=pegs, c=colours, d=duplicates: CodeSpace(p, c, d)), english
        yield _raised(lambda p=pegs, c=colours, d=duplicates: Variant(p, c, d)), english
    yield _raised(lambda: Variant(max_guesses=0)), "A game allows 1 to 20 guesses, not 0."
    yield _raised(lambda: Variant(max_guesses=21)), "A game allows 1 to 20 guesses, not 21."
    play = play_rules.new_play_game(
        guild_id=1, channel_id=2, starter_id=3, secret=(0, 1, 2, 3), solo=True
    )
    solve = solve_rules.new_solve_game(
        guild_id=1, channel_id=2, starter_id=3, first_guess=(0, 0, 1, 1)
    )
    yield (
        _raised(lambda: play_rules.guess(play, 3, "red red magenta")),
        f"I don't know the colour 'magenta'. {COLOURS}",
    )
    yield _raised(lambda: play_rules.guess(play, 3, ("x", 1, 2, 3))), "Write a code of 4 colours."
    yield _raised(lambda: play_rules.guess(play, 4, "1122")), "This is <@3>'s solo game."
    yield (
        _raised(lambda: play_rules.guess(solve, 3, "1122")),
        "In this game I guess your code: answer my guesses instead.",
    )
    yield (
        _raised(lambda: solve_rules.answer(play, 3, 1, 1, None)),
        "In this game you guess my code: there is nothing to answer.",
    )
    yield (
        _raised(lambda: solve_rules.undo(play, 3)),
        "In this game you guess my code: there is nothing to undo.",
    )
    yield _raised(lambda: solve_rules.undo(solve, 3)), "There is no answer to take back yet."
    yield _raised(lambda: solve_rules.answer(solve, 3, 3, 1, None)), IMPOSSIBLE
    yield (
        _raised(lambda: solve_rules.answer(solve, 4, 1, 1, None)),
        "Only <@3> can answer: it is their secret code.",
    )
    yield (
        ImpossibleAnswer(None, 0, 1),  # against the guess answered (solve's actions)
        "No code can earn 0 black and 1 white against that guess.",
    )
    over, _ = rules.give_up(play, 3)
    yield _raised(lambda: play_rules.guess(over, 3, "1122")), "This game is over."
    hard = play_rules.new_play_game(
        guild_id=1, channel_id=2, starter_id=3, secret=(0, 1, 2, 3), hard=True
    )
    hard, _ = play_rules.guess(hard, 3, "1122")
    yield (
        _raised(lambda: play_rules.guess(hard, 3, "3456")),
        "🚫 Hard mode: guess 1 (🔴🔴🟢🟢 `RRGG` → ⚫⚪) rules out a code with none of R, G.\n"
        "In hard mode every guess must fit every answer so far.",
    )
    yield GameError(), "That is not allowed in this game."
    yield (
        StaleGame(),
        "The game changed while you were deciding: look at the latest board and try again.",
    )
    yield (
        solve_rules.NoGuessToAnswer(),
        "Your answers contradict each other, so I have no guess to ask about: undo your last "
        "answer and check it.",
    )
    yield (
        NoActiveGame(),
        "No game is running in this channel. Start one with `/mastermind play` (you crack my "
        "code) or `/mastermind solve` (I crack yours).",
    )
    yield NotHere(), "That belongs to a game in another channel, so I can't use it here."
    yield BadChoice(), "That choice isn't on the menu. Open a fresh one and pick again."
    yield (
        StoreBusy(),
        "The game database is busy right now, so that was not recorded. Please try again in a "
        "moment.",
    )
    yield AlreadyApplied(1, 2), "That was already counted: it is on the board once."
    yield (
        UnreadableGame(1, 2, 3, "game record format 2 is newer than this bot understands"),
        "This channel's game was saved by a newer version of the bot, and this version cannot "
        "read it. Its starter or a moderator can end it with /mastermind giveup.",
    )
    for reason, english in [
        (
            Unavailable.ONE_PER_PLAYER,
            "You already have a simulation running; its chart will be posted when it is done, "
            "then you can start another.",
        ),
        (
            Unavailable.TOO_MANY,
            "The simulator is busy with other players' simulations; please try again in a minute.",
        ),
        (Unavailable.RESTARTED, "The solver restarted; please try again."),
        (Unavailable.SHUTTING_DOWN, "The bot is shutting down; please try again in a minute."),
        (
            Unavailable.REVIEWING,
            "Your last review is still being worked out; it will be here in a moment.",
        ),
    ]:
        yield SolverUnavailable(reason), english
    yield (
        _raised(lambda: play_rules.hint(solve, 3)),
        "Hints are for games where you guess my code.",
    )
    yield (
        ReviewNotYet(),
        "The review opens when the game is over, so it can't give the secret away.",
    )
    yield ReviewNeedsPlay(), "Reviews are for games where you crack my code."
    yield NoHints(guessing=False), "Hints are for games where you guess my code."
    yield NoHints(guessing=True), "This game has no hints."
    duel = duel_rules.new_duel_game(guild_id=1, channel_id=2, starter_id=3, theirs="6655")
    waiting, _ = duel_rules.guess(duel, 3, "1111")
    yield (
        _raised(lambda: duel_rules.guess(waiting, 3, "1111")),
        "Wait for the bot's guess: it is not your turn.",
    )
    yield (
        _raised(lambda: duel_rules.guess(play, 3, "1111")),
        "That belongs to a duel; this game is played otherwise.",
    )
    yield (
        _raised(lambda: duel_rules.check_secret(Variant(), "1127")),
        f"That secret does not fit this duel: '7' is not a colour here: use digits 1-6. {COLOURS}",
    )
    yield (
        _raised(lambda: duel_rules.check_secret(Variant(), ("x", 1, 2, 3))),  # type: ignore[arg-type]
        "That secret does not fit this duel: Write a code of 4 colours.",
    )
    yield (
        GameAlreadyActive(1, "play"),
        "A guessing game is already running in this channel. `/mastermind board` shows it; "
        "`/mastermind giveup` ends it.",
    )
    yield (
        GameAlreadyActive(1, "solve"),
        "A solving game is already running in this channel. `/mastermind board` shows it; "
        "`/mastermind giveup` ends it.",
    )
    yield (
        AlreadyPlayed(7),
        "You have already played today's code; a new one comes at midnight UTC.",
    )
    for error, english in [
        (
            race_rules.NotInRace(),
            "You are not in this race; join the next one while its lobby is open.",
        ),
        (race_rules.AlreadyJoined(), "You are already in this race."),
        (race_rules.RaceFull(), "This race is full."),
        (
            race_rules.RaceNotStarted(),
            "The race has not started yet: wait for the starter or the clock.",
        ),
        (
            play_rules.NotOwnRoute(),
            "That belongs to a play game; this game is played on its own board.",
        ),
        (race_rules.RaceStarted(), "This race has already started; join the next one."),
        (
            race_rules.LobbyClosed(1_767_268_860),
            "This race's lobby closed at <t:1767268860:T>; join the next one.",
        ),
        (
            race_rules.TimeIsUp(1_767_269_460),
            "This race's time ran out at <t:1767269460:T>; that guess came too late.",
        ),
        (
            race_rules.RaceFinished(),
            "You have finished this race: watch its board for the others.",
        ),
        (RaceNeedsServer(), "Races are run in the channels of servers I have joined."),
    ]:
        yield error, english
    yield (
        _raised(lambda: race_rules.join(play, 3, 0)),
        "That belongs to a race; this game is not one.",
    )
    yield (
        _raised(
            lambda: race_rules.new_race_game(
                guild_id=1, channel_id=2, starter_id=3, opened_at=0, join_seconds=-1, time_limit=60
            )
        ),
        "A race needs a join window of 0 s or more and a time limit.",
    )
    yield (
        _raised(lambda: check_size(CodeSpace(8, 10))),
        "8 pegs x 10 colours has 100,000,000 codes; the solver handles up to 1,000,000. Use "
        "fewer pegs or colours.",
    )
    for reason, english in [
        (OwnerReason.SOLO, "This is <@5>'s solo game."),
        (OwnerReason.THEIR_CODE, "Only <@5> can answer: it is their secret code."),
        (OwnerReason.END, "Only <@5> or a moderator (Manage Messages) can end this game."),
        (OwnerReason.OWNER, "This is <@5>'s game."),
    ]:
        yield NotYourGame(5, reason=reason), english
    yield race_rules.NotTheStarter(5), "Only <@5> can start this race."
    yield errors.Unpicked([1, 3]), "Pick a colour for peg 1, 3 first."
    yield (
        errors.ServerOnly("end", 5),
        "Only <@5> can end this game: outside servers there are no moderators to end someone "
        "else's game.",
    )
    yield (
        errors.ServerOnly("leaderboard"),
        "Leaderboards belong to a server, and this is not one: use `/mastermind leaderboard` in "
        "a server. `/mastermind stats` shows your own record anywhere.",
    )


SAID = list(engine_errors())
ENGINE_ERRORS = [error for error, _ in SAID]


def reply(error: BaseException, t: Messages) -> str:
    """What the bot answers: the modes' words first (as the app hands them), then the shared."""
    return errors.friendly(error, t, registry.words_for)


@pytest.mark.parametrize(
    ("error", "english"), SAID, ids=[f"{n}-{type(e).__name__}" for n, (e, _) in enumerate(SAID)]
)
def test_every_error_has_its_own_words_in_english_and_polish(
    error: BaseException, english: str
) -> None:
    """The English reply is the sentence the table says, word for word; the Polish one says
    it in Polish (no English word left), and neither is the reply for a crash."""
    said = reply(error, ENGLISH)
    assert said == english
    assert said != errors.unexpected(ENGLISH)
    polish = reply(error, PL)
    assert polish != said and polish != errors.unexpected(PL)
    assert not english_words(polish), polish


def test_a_variant_too_large_is_refused_with_its_numbers_in_every_language() -> None:
    error = _raised(lambda: check_size(CodeSpace(8, 10)))
    assert isinstance(error, TooLarge)
    crossed = pickle.loads(pickle.dumps(error))  # as it comes back from a solver worker
    assert (crossed.pegs, crossed.colours, crossed.size) == (8, 10, 10**8)
    polish = errors.friendly(crossed, PL).replace("\xa0", " ")  # Polish groups with a space
    assert "100 000 000" in polish and "1 000 000" in polish and "8" in polish


def _subclasses(cls: type[GameError]) -> Iterator[type[GameError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


ABSTRACT = {WrongGameKind, race_rules.Closed}
"""Kinds only ever raised as a subclass (each mode's own refusal)."""


def test_every_error_of_the_rules_has_words_of_its_own() -> None:
    """Every GameError subclass of every mode is worded for itself (not by an ancestor's
    sentence), by the shared floors or by its mode's board, and the table above holds one of
    each, so its English and Polish are checked."""
    kinds = {*_subclasses(GameError), GameError} - ABSTRACT
    worded = set(errors.WORDS) | set(registry.ERRORS)
    assert kinds <= worded, kinds - worded
    assert kinds <= {type(error) for error in ENGINE_ERRORS}, kinds - set(map(type, ENGINE_ERRORS))
    assert not set(errors.WORDS) & set(registry.ERRORS), "a kind has words in two places"


PLAYER_ERRORS = {
    cls.__name__
    for cls in (
        *_subclasses(GameError),
        GameError,
        CodeError,
        TooLarge,
        StoreBusy,
        AlreadyApplied,
        UnreadableGame,
    )
} | {cls.__name__ for cls in (SolverUnavailable, *SolverUnavailable.__subclasses__())}
BELOW_THE_UI = sorted(
    [
        *(BOT / "engine").rglob("*.py"),
        BOT / "store" / "errors.py",
        BOT / "solver_pool.py",
        *(p for p in (BOT / "modes").rglob("*.py") if p.stem in {"rules", "actions", "record"}),
    ]
)


WORDS_IN_A_ROW = re.compile(r"[A-Za-z']+ [A-Za-z']+ [A-Za-z']+ [A-Za-z']+")
"""Four words in a row: a sentence, where a code and its data would do."""


@pytest.mark.parametrize("path", BELOW_THE_UI, ids=lambda p: str(p.relative_to(BOT)))
def test_no_error_a_player_meets_is_raised_with_words(path: Path) -> None:
    """Below the UI an error a player can meet gets its code and data, never a sentence."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and _call_name(node) in PLAYER_ERRORS:
            for arg in node.args:
                for part in ast.walk(arg):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        assert not WORDS_IN_A_ROW.search(part.value), f"{path.name}:{part.lineno}"


# --- nothing bypasses the catalogue -------------------------------------------------------------

LOOKUPS = {"gettext", "ngettext", "pgettext", "npgettext", "N_"}
PROSE = re.compile(r"[A-Za-z]{3,}.*\s|\s.*[A-Za-z]{3,}")
SINKS = {
    "send_message",
    "send",
    "edit_message",
    "edit_original_response",
    "edit",
    "Embed",
    "add_field",
    "set_footer",
    "set_author",
    "Button",
    "_button",
    "Select",
    "SelectOption",
    "TextInput",
    "Modal",
}
SINK_KEYWORDS = {"content", "title", "description", "name", "value", "text", "label", "placeholder"}
"""Calls and keywords that put a string in front of a player: even one word there is caught."""
ALLOWED = {
    "Mastermind · ",  # the game's name, in every language
}
"""String literals in SPEAKERS that read like prose but are not said to players."""


def _is_docstring(node: ast.AST, parent: ast.AST | None) -> bool:
    return (
        isinstance(parent, ast.Expr)
        and isinstance(node, ast.Constant)
        and isinstance(node.value, str)
    )


def _call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _is_log_or_internal(node: ast.Call) -> bool:
    """Log lines and exceptions nobody shows a player (their messages are for logs)."""
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id == "log"
    return _call_name(node) in {"TypeError", "ValueError", "RuntimeError", "__init__"}


def prose_outside_the_catalogue(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text())
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent

    def exempt(node: ast.AST) -> bool:
        current: ast.AST | None = node
        while current is not None:
            parent = parents.get(current)
            if isinstance(current, ast.Call) and (
                _call_name(current) in LOOKUPS or _is_log_or_internal(current)
            ):
                return True
            if isinstance(current, ast.Subscript | ast.Compare):
                return True  # dictionary keys, comparisons
            if _is_docstring(current, parent):
                return True
            current = parent
        return False

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in SINKS:
            shown = [*node.args, *(k.value for k in node.keywords if k.arg in SINK_KEYWORDS)]
            for arg in shown:
                parts = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
                for part in parts:
                    if (
                        isinstance(part, ast.Constant)
                        and isinstance(part.value, str)
                        and re.search(r"[A-Za-z]{2,}", part.value)
                        and not PROSE.search(part.value)  # found below anyway
                    ):
                        yield f"{path.name}:{part.lineno}: {part.value!r}"
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and PROSE.search(node.value)
            and node.value not in ALLOWED
            and not exempt(node)
        ):
            yield f"{path.name}:{node.lineno}: {node.value!r}"


SPEAKERS = sorted(
    [
        *(BOT / "ui").rglob("*.py"),
        *(BOT / "interactions").rglob("*.py"),
        *(p for p in (BOT / "modes").rglob("*.py") if p.stem not in {"rules", "actions", "record"}),
    ]
)
"""Where the words a player reads are written: the UI, the inputs and every mode's board."""


@pytest.mark.parametrize("path", SPEAKERS, ids=lambda p: str(p.relative_to(BOT)))
def test_no_user_facing_string_bypasses_the_catalogue(path: Path) -> None:
    found = list(prose_outside_the_catalogue(path))
    assert not found, "words a player reads must come from the catalogue:\n" + "\n".join(found)


def test_the_scan_would_catch_an_inline_reply(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "async def f(i, t):\n"
        "    await i.response.send_message(f'You guessed {i.id} twice')\n"
        "    await i.response.send_message(t.gettext('You guessed {n} twice', n=i.id))\n"
        "    log.info('a line for the log %s', i.id)\n"
    )
    found = list(prose_outside_the_catalogue(sample))
    assert found == ["sample.py:2: 'You guessed '", "sample.py:2: ' twice'"]


@pytest.mark.parametrize("path", sorted(BOT.rglob("*.py")), ids=lambda p: str(p.relative_to(BOT)))
def test_every_lookup_is_visible_to_the_extractor(path: Path) -> None:
    """`pybabel extract` reads literal first arguments only, and none inside an f-string."""
    # The translator translates what discord.py hands it; interactions/options.py's strategy
    # choices carry the titles that ui/words.py declares; ui/i18n/later.py says what a mode
    # declared with its literal markers (later.gettext, later.pgettext).
    dynamic_allowed = {"translator.py", "catalogue.py", "options.py", "later.py"}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    assert _call_name(inner) not in LOOKUPS, f"{path}:{inner.lineno}"
        if isinstance(node, ast.Call) and _call_name(node) in LOOKUPS and node.args:
            literal = all(
                isinstance(a, ast.Constant) and isinstance(a.value, str)
                for a in node.args[: 2 if _call_name(node).startswith(("p", "np")) else 1]
            )
            assert literal or path.name in dynamic_allowed, f"{path}:{node.lineno}"


# --- what Polish players read --------------------------------------------------------------------


def polish_words() -> set[str]:
    found: set[str] = set()
    for message in catalogue(LOCALES / "pl" / "LC_MESSAGES" / "messages.po"):
        for form in message.string if isinstance(message.string, tuple) else (message.string,):
            found.update(w.lower() for w in re.findall(r"[^\W\d_]+", form or ""))
    return found


ENGLISH_MARKERS = {
    w.lower()
    for message in catalogue(TEMPLATE)
    if message.id
    for msgid in (message.id if isinstance(message.id, tuple) else (message.id,))
    for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", msgid))
} - polish_words()
"""English words of the catalogue that no Polish message uses: seeing one means English."""


def english_words(shown: str) -> set[str]:
    """The English words in `shown`, leaving out what a player typed (quoted back)."""
    unquoted = re.sub(r"'[^']*'", "", shown)
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", unquoted)} & ENGLISH_MARKERS


def test_the_english_markers_catch_english() -> None:
    assert english_words("Colours: 🔴 R red") and not english_words("Kolory: 🔴 R czerwony")


def test_commands_named_in_polish_messages_are_the_polish_commands() -> None:
    names = {
        m.string
        for m in catalogue(LOCALES / "pl" / "LC_MESSAGES" / "messages.po")
        if m.context == "command"
    }
    for message in catalogue(LOCALES / "pl" / "LC_MESSAGES" / "messages.po"):
        for form in message.string if isinstance(message.string, tuple) else (message.string,):
            for used in re.findall(r"/mastermind ([^\s`]+)", form or ""):
                assert used in names, (used, form)


def test_legends_and_labels_name_colours_in_the_players_language() -> None:
    space = CodeSpace(4, 10)
    assert "🫒 **L** oliwkowy" in text.legend(space, t=PL)
    assert "🫒 **L** olive" in text.legend(space, t=ENGLISH)
    assert text.answer_label(0, 0, t=PL) == "brak" and text.answer_label(0, 0) == "none"


async def test_the_translator_localises_names_descriptions_and_choices() -> None:
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.other, data=None
    )

    async def say(string: app_commands.locale_str, locale: discord.Locale) -> str | None:
        return await translator.translate(string, locale, context)

    polish = discord.Locale.polish
    command = app_commands.locale_str("play", context="command")
    assert await say(command, polish) == "graj"
    assert await say(command, discord.Locale.american_english) is None
    assert await say(command, discord.Locale.german) is None  # not shipped: Discord's default
    knuth = app_commands.locale_str("Knuth minimax", context="strategy")
    assert await say(knuth, polish) == words.strategy_title(PL, "knuth") == "Minimaks Knutha"
    solo = app_commands.locale_str("solo", context="option")
    assert await say(solo, polish) is None  # the same word: no localisation needed
    assert await say(app_commands.locale_str("Play Mastermind"), polish) == "Zagraj w Mastermind"


def test_an_unknown_code_error_still_reads_in_polish() -> None:
    wrapped = _raised(lambda: play_rules.guess(_play_game(), 3, "magenta"))
    assert errors.friendly(wrapped, PL).startswith("Nie znam koloru 'magenta'. Kolory: 🔴 R")


def _play_game() -> play_rules.PlayGame:
    return play_rules.new_play_game(guild_id=1, channel_id=2, starter_id=3, secret=(0, 1, 2, 3))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_modes_rules_section_has_a_heading_and_a_text(language: str) -> None:
    """A section is its heading, a new line, its text: a translation that drops the heading
    leaves /mastermind rules an embed field without a name, which Discord refuses."""
    t = messages(language)
    for mode in registry.MODES:
        heading, _, body = mode.rules(t).partition("\n")
        assert heading.strip() and body.strip(), f"{language}: {mode.kind}'s rules section"
