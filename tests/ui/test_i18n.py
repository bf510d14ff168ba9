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

from bot.engine import errors as engine_errors_module
from bot.engine import game as rules
from bot.engine.codes import CodeSpace
from bot.engine.errors import (
    BadChoice,
    GameAlreadyActive,
    GameError,
    NotHere,
    NotYourGame,
    OwnerReason,
)
from bot.engine.game import GameKind, Variant
from bot.engine.search import TooLarge, check_size
from bot.modes.play import rules as play_rules
from bot.modes.race import rules as race_rules
from bot.modes.race.actions import RaceNeedsServer
from bot.modes.review.actions import ReviewNotYet
from bot.modes.solve import rules as solve_rules
from bot.solver_pool import (
    ONE_PER_PLAYER,
    RESTARTED,
    REVIEWING,
    SHUTTING_DOWN,
    TOO_MANY,
    SolverUnavailable,
)
from bot.store import AlreadyApplied, StoreBusy
from bot.ui import errors, text, words
from bot.ui.i18n import ENGLISH, LANGUAGES, messages
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


def engine_errors() -> Iterator[BaseException]:
    """One of each kind the floors below raise, with the parser's problems, wrapped or not."""
    space = CodeSpace(4, 6)
    for bad in ("", "x" * 101, "112", "RGBX", "red magenta", "1127", "teal red red red"):
        yield _raised(lambda bad=bad: space.parse(bad))
    yield _raised(lambda: CodeSpace(4, 6, duplicates=False).parse("RGGB"))
    yield _raised(lambda: space.validate((1, 2, 3)))
    yield _raised(lambda: space.validate((1, 2, 3, 9)))
    yield _raised(lambda: space.code_at(-1))
    for black, white in [(-1, 0), (5, 0), (3, 1)]:
        yield _raised(lambda black=black, white=white: space.check_answer(black, white))
    for pegs, colours, duplicates in [(9, 6, True), (4, 11, True), (5, 4, False)]:
        yield _raised(lambda p=pegs, c=colours, d=duplicates: CodeSpace(p, c, d))
        yield _raised(lambda p=pegs, c=colours, d=duplicates: Variant(p, c, d))
    play = play_rules.new_play_game(
        guild_id=1, channel_id=2, starter_id=3, secret=(0, 1, 2, 3), solo=True
    )
    solve = solve_rules.new_solve_game(
        guild_id=1, channel_id=2, starter_id=3, first_guess=(0, 0, 1, 1)
    )
    yield _raised(lambda: play_rules.guess(play, 3, "red red magenta"))
    yield _raised(lambda: play_rules.guess(play, 4, "1122"))
    yield _raised(lambda: play_rules.guess(solve, 3, "1122"))
    yield _raised(lambda: solve_rules.answer(play, 3, 1, 1, None))
    yield _raised(lambda: solve_rules.undo(play, 3))
    yield _raised(lambda: solve_rules.undo(solve, 3))
    yield _raised(lambda: solve_rules.answer(solve, 3, 3, 1, None))
    yield _raised(lambda: solve_rules.answer(solve, 4, 1, 1, None))
    over, _ = rules.give_up(play, 3)
    yield _raised(lambda: play_rules.guess(over, 3, "1122"))
    for cls in (
        GameError,
        engine_errors_module.StaleGame,
        solve_rules.NoGuessToAnswer,
        engine_errors_module.NoActiveGame,
    ):
        yield cls()
    yield from (NotHere(), BadChoice(), StoreBusy(), AlreadyApplied(1, 2))
    yield from (
        SolverUnavailable(m)
        for m in (ONE_PER_PLAYER, TOO_MANY, RESTARTED, SHUTTING_DOWN, REVIEWING)
    )
    yield _raised(lambda: play_rules.hint(solve, 3))
    yield ReviewNotYet()
    yield engine_errors_module.WrongGameKind("Reviews are for games where you crack my code.")
    yield GameAlreadyActive(1, GameKind.PLAY)
    yield GameAlreadyActive(1, GameKind.SOLVE)
    yield engine_errors_module.DailyAlreadyPlayed(7)
    yield from (
        cls()
        for cls in (
            race_rules.NotInRace,
            race_rules.AlreadyJoined,
            race_rules.RaceFull,
            race_rules.RaceNotStarted,
            race_rules.RaceStarted,
            race_rules.RaceFinished,
        )
    )
    yield RaceNeedsServer()
    yield _raised(lambda: check_size(CodeSpace(8, 10)))
    yield engine_errors_module.WrongGameKind("That belongs to a race; this game is not one.")
    yield from (NotYourGame(5, reason=reason) for reason in OwnerReason)
    yield errors.Unpicked([1, 3])


ENGINE_ERRORS = list(engine_errors())


@pytest.mark.parametrize("error", ENGINE_ERRORS, ids=lambda e: f"{type(e).__name__}:{e}"[:60])
def test_english_replies_repeat_the_engines_own_words(error: BaseException) -> None:
    """The English catalogue path says exactly what the engine says (or, where the UI words a
    refusal itself, a sentence of its own)."""
    said = errors.friendly(error, ENGLISH)
    own_words = (
        GameAlreadyActive,
        engine_errors_module.NoActiveGame,
        NotYourGame,
        errors.Unpicked,
    )
    if not isinstance(error, own_words):
        assert said == str(error)
    polish = errors.friendly(error, PL)
    assert polish != said
    assert not english_words(polish), polish


def test_a_variant_too_large_is_refused_with_its_numbers_in_every_language() -> None:
    error = _raised(lambda: check_size(CodeSpace(8, 10)))
    assert isinstance(error, TooLarge)
    crossed = pickle.loads(pickle.dumps(error))  # as it comes back from a solver worker
    assert (crossed.pegs, crossed.colours, crossed.size) == (8, 10, 10**8)
    polish = errors.friendly(crossed, PL).replace("\xa0", " ")  # Polish groups with a space
    assert "100 000 000" in polish and "1 000 000" in polish and "8" in polish


def test_every_fixed_sentence_is_raised_below() -> None:
    assert {str(e) for e in ENGINE_ERRORS} >= errors.FIXED


def _subclasses(cls: type[GameError]) -> Iterator[type[GameError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_default_sentence_of_the_rules_is_translated() -> None:
    for cls in _subclasses(GameError):
        if (
            cls.default_message != GameError.default_message
            and cls is not engine_errors_module.NoActiveGame
        ):
            assert cls.default_message in errors.FIXED, cls


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
"""String literals in bot/ui and bot/cogs that read like prose but are not said to players."""


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


SPEAKERS = sorted([*(BOT / "ui").rglob("*.py"), *(BOT / "cogs").rglob("*.py")])


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
    # errors.py looks fixed sentences up by their English text (declared with N_), the
    # translator translates what discord.py hands it, mastermind.py's strategy choices carry
    # the titles that ui/words.py declares.
    dynamic_allowed = {"errors.py", "translator.py", "catalogue.py", "options.py"}
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
