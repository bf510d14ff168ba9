"""The parser's explanations (`CodeProblem` with its details) in the player's language: why a
code, an answer or a variant cannot be used, and the colours the game has.

One sentence per problem, in a table (`_SAID`): each reads the error's details (`d`) and says
them in the language `t`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.engine.codes import (
    MAX_COLOURS,
    MAX_PEGS,
    MIN_COLOURS,
    MIN_PEGS,
    CodeError,
    CodeProblem,
    CodeSpace,
    excerpt,
)
from bot.ui import text, words
from bot.ui.i18n import Messages

Details = Mapping[str, Any]
Say = Callable[[Details, Messages], str]


def code_problem(error: CodeError, t: Messages) -> str:
    """The parser's explanation (see `CodeProblem`) in the language `t`."""
    said = _SAID.get(error.problem)
    return t.gettext("That is not a code of this game.") if said is None else said(error.details, t)


def _length(d: Details, t: Messages) -> str:
    pegs = t.ngettext("{count} peg", "{count} pegs", d["pegs"])
    if d.get("text") is None:
        return t.gettext(
            "A code here has {pegs}; that one has {count}.", pegs=pegs, count=d["count"]
        )
    return t.gettext(
        "A code here has {pegs}; {text} has {count}. Example: {example}.",
        pegs=pegs,
        text=excerpt(d["text"]),
        count=d["count"],
        example=d["example"],
    )


def _repeats(d: Details, t: Messages) -> str:
    repeated = d["repeated"]
    return t.ngettext(
        "Colours may not repeat in this game, and {names} does.",
        "Colours may not repeat in this game, and {names} does.",
        len(repeated),
        names=t.join(words.colour_name(t, c) for c in repeated),
    )


def _too_long(d: Details, t: Messages) -> str:
    return t.ngettext(
        "That is {count} characters; a code here is {colours}, for example {example}.",
        "That is {count} characters; a code here is {colours}, for example {example}.",
        d["length"],
        colours=t.ngettext("{count} colour", "{count} colours", d["pegs"]),
        example=d["example"],
    )


def _too_many_pegs(d: Details, t: Messages) -> str:
    black, white = d["black"], d["white"]
    return t.gettext(
        "{black} and {white} is {total}, but a code has only {pegs}.",
        black=words.black(t, black),
        white=words.white(t, white),
        total=t.ngettext("{count} peg", "{count} pegs", black + white),
        pegs=d["pegs"],
    )


def _impossible_answer(d: Details, t: Messages) -> str:
    return t.ngettext(
        "{black} and {white} cannot happen: if {count} pegs are right, the last one "
        "cannot be the right colour in the wrong place.",
        "{black} and {white} cannot happen: if {count} pegs are right, the last one "
        "cannot be the right colour in the wrong place.",
        d["black"],
        black=words.black(t, d["black"]),
        white=words.white(t, 1),
    )


# A word, digit or colour the game does not have: the sentence, then the colours it does have.


def _with_legend(d: Details, t: Messages, said: str) -> str:
    space = CodeSpace(MIN_PEGS, d["colours"])
    legend = t.gettext("Colours: {legend}.", legend=text.plain_legend(space, t=t))
    return f"{said} {legend}"


def _not_in_game(d: Details, t: Messages) -> str:
    name = words.colour_name(t, d["colour"])
    said = t.gettext(
        "{colour} ({token}) is not in this game.",
        colour=name[:1].upper() + name[1:],
        token=excerpt(d["token"]),
    )
    return _with_legend(d, t, said)


def _unknown_digit(d: Details, t: Messages) -> str:
    said = t.gettext(
        "{token} is not a colour here: use digits {digits}.",
        token=excerpt(d["token"]),
        digits=CodeSpace(MIN_PEGS, d["colours"]).digit_range(),
    )
    return _with_legend(d, t, said)


def _unknown_colour(d: Details, t: Messages) -> str:
    said = t.gettext("I don't know the colour {token}.", token=excerpt(d["token"]))
    return _with_legend(d, t, said)


_SAID: dict[CodeProblem, Say] = {
    CodeProblem.PEGS_RANGE: lambda d, t: t.gettext(
        "A code has {min} to {max} pegs, not {pegs}.", min=MIN_PEGS, max=MAX_PEGS, pegs=d["pegs"]
    ),
    CodeProblem.COLOURS_RANGE: lambda d, t: t.gettext(
        "A game has {min} to {max} colours, not {colours}.",
        min=MIN_COLOURS,
        max=MAX_COLOURS,
        colours=d["colours"],
    ),
    CodeProblem.TOO_FEW_COLOURS: lambda d, t: t.ngettext(
        "Without repeated colours, {count} pegs need at least {count} colours "
        "(this game has {colours}).",
        "Without repeated colours, {count} pegs need at least {count} colours "
        "(this game has {colours}).",
        d["pegs"],
        colours=d["colours"],
    ),
    CodeProblem.NO_SUCH_INDEX: lambda d, t: t.gettext(
        "There is no code number {index} in a space of {size}.", index=d["index"], size=d["size"]
    ),
    CodeProblem.LENGTH: _length,
    CodeProblem.COLOUR_NUMBER: lambda d, t: t.gettext(
        "Colour number {number} is not in this game.", number=d["colour"] + 1
    ),
    CodeProblem.REPEATS: _repeats,
    CodeProblem.EMPTY: lambda d, t: t.ngettext(
        "Write a code of {count} colours, for example {example}.",
        "Write a code of {count} colours, for example {example}.",
        d["pegs"],
        example=d["example"],
    ),
    CodeProblem.TOO_LONG: _too_long,
    CodeProblem.NOT_IN_GAME: _not_in_game,
    CodeProblem.UNKNOWN_DIGIT: _unknown_digit,
    CodeProblem.UNKNOWN_COLOUR: _unknown_colour,
    CodeProblem.NEGATIVE_ANSWER: lambda d, t: t.gettext("Black and white pegs are counted from 0."),
    CodeProblem.TOO_MANY_PEGS: _too_many_pegs,
    CodeProblem.IMPOSSIBLE_ANSWER: _impossible_answer,
}
"""What the player is told for each problem; any other: "That is not a code of this game."."""
