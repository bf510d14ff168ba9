"""The parser's explanations (`CodeProblem` with its details) in the player's language: why a
code, an answer or a variant cannot be used, and the colours the game has."""

from __future__ import annotations

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


def code_problem(error: CodeError, t: Messages) -> str:
    """The parser's explanation (see `CodeProblem`) in the language `t`."""
    d = error.details
    problem = error.problem
    if problem is CodeProblem.PEGS_RANGE:
        return t.gettext(
            "A code has {min} to {max} pegs, not {pegs}.",
            min=MIN_PEGS,
            max=MAX_PEGS,
            pegs=d["pegs"],
        )
    if problem is CodeProblem.COLOURS_RANGE:
        return t.gettext(
            "A game has {min} to {max} colours, not {colours}.",
            min=MIN_COLOURS,
            max=MAX_COLOURS,
            colours=d["colours"],
        )
    if problem is CodeProblem.TOO_FEW_COLOURS:
        return t.ngettext(
            "Without repeated colours, {count} pegs need at least {count} colours "
            "(this game has {colours}).",
            "Without repeated colours, {count} pegs need at least {count} colours "
            "(this game has {colours}).",
            d["pegs"],
            colours=d["colours"],
        )
    if problem is CodeProblem.NO_SUCH_INDEX:
        return t.gettext(
            "There is no code number {index} in a space of {size}.",
            index=d["index"],
            size=d["size"],
        )
    if problem is CodeProblem.LENGTH:
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
    if problem is CodeProblem.COLOUR_NUMBER:
        return t.gettext("Colour number {number} is not in this game.", number=d["colour"] + 1)
    if problem is CodeProblem.REPEATS:
        repeated = d["repeated"]
        return t.ngettext(
            "Colours may not repeat in this game, and {names} does.",
            "Colours may not repeat in this game, and {names} does.",
            len(repeated),
            names=t.join(words.colour_name(t, c) for c in repeated),
        )
    if problem is CodeProblem.EMPTY:
        return t.ngettext(
            "Write a code of {count} colours, for example {example}.",
            "Write a code of {count} colours, for example {example}.",
            d["pegs"],
            example=d["example"],
        )
    if problem is CodeProblem.TOO_LONG:
        return t.ngettext(
            "That is {count} characters; a code here is {colours}, for example {example}.",
            "That is {count} characters; a code here is {colours}, for example {example}.",
            d["length"],
            colours=t.ngettext("{count} colour", "{count} colours", d["pegs"]),
            example=d["example"],
        )
    if problem in (CodeProblem.NOT_IN_GAME, CodeProblem.UNKNOWN_DIGIT, CodeProblem.UNKNOWN_COLOUR):
        return _unknown(error, t)
    if problem is CodeProblem.NEGATIVE_ANSWER:
        return t.gettext("Black and white pegs are counted from 0.")
    if problem is CodeProblem.TOO_MANY_PEGS:
        black, white = d["black"], d["white"]
        return t.gettext(
            "{black} and {white} is {total}, but a code has only {pegs}.",
            black=words.black(t, black),
            white=words.white(t, white),
            total=t.ngettext("{count} peg", "{count} pegs", black + white),
            pegs=d["pegs"],
        )
    if problem is CodeProblem.IMPOSSIBLE_ANSWER:
        return t.ngettext(
            "{black} and {white} cannot happen: if {count} pegs are right, the last one "
            "cannot be the right colour in the wrong place.",
            "{black} and {white} cannot happen: if {count} pegs are right, the last one "
            "cannot be the right colour in the wrong place.",
            d["black"],
            black=words.black(t, d["black"]),
            white=words.white(t, 1),
        )
    return t.gettext("That is not a code of this game.")


def _unknown(error: CodeError, t: Messages) -> str:
    """A word, digit or colour the game does not have, with the colours it does have."""
    d = error.details
    space = CodeSpace(MIN_PEGS, d["colours"])
    legend = t.gettext("Colours: {legend}.", legend=text.plain_legend(space, t=t))
    token = excerpt(d["token"])
    if error.problem is CodeProblem.NOT_IN_GAME:
        name = words.colour_name(t, d["colour"])
        said = t.gettext(
            "{colour} ({token}) is not in this game.",
            colour=name[:1].upper() + name[1:],
            token=token,
        )
    elif error.problem is CodeProblem.UNKNOWN_DIGIT:
        said = t.gettext(
            "{token} is not a colour here: use digits {digits}.",
            token=token,
            digits=space.digit_range(),
        )
    else:
        said = t.gettext("I don't know the colour {token}.", token=token)
    return f"{said} {legend}"
