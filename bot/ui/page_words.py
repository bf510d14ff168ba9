"""The Activity page's own labels, in the player's language, from the bot's catalogues.

The page (bot/web/static) has no words of its own: it asks `GET /api/strings` for this table
once it knows the player's locale, so English and Polish come from the same gettext catalogue as
every board. A label with a placeholder comes back with the placeholder unfilled ("{count}"),
for the page to fill in; the game's own texts (a refusal, a contradiction) come with the View
or the error, already in words.
"""

from __future__ import annotations

from bot.ui.i18n import Messages
from bot.ui.words import colour_name


def page_words(t: Messages) -> dict[str, str]:
    """Every label the page shows, by the key the page looks it up by."""
    words = {
        "title": t.gettext("Mastermind"),
        "signing_in": t.gettext("Connecting to Discord…"),
        "loading": t.gettext("Loading the board…"),
        "no_game": t.gettext(
            "No game in this channel yet. Start one with /mastermind play, then come back."
        ),
        "here_now": t.gettext("Here now"),
        "guesses_left": t.gettext("Guesses left: {count}", count="{count}"),
        "clue": t.gettext("{black} black, {white} white", black="{black}", white="{white}"),
        "peg": t.gettext("peg {position}: {colour}", position="{position}", colour="{colour}"),
        "empty_peg": t.gettext("peg {position}: empty", position="{position}"),
        "guess_by": t.gettext("guessed by {name}", name="{name}"),
        "your_guess": t.gettext("Your guess"),
        "palette": t.gettext("Colours"),
        "delete": t.gettext("Delete the last peg"),
        "clear": t.gettext("Clear"),
        "keys_help": t.gettext(
            "Keys: 1–9 and 0 pick a colour, Backspace deletes, Enter guesses, Esc closes."
        ),
        "action.guess": t.gettext("Guess"),
        "action.hint": t.gettext("Hint"),
        "action.giveup": t.gettext("Give up"),
        "action.join": t.gettext("Join"),
        "action.start": t.gettext("Start"),
        "action.undo": t.gettext("Undo the last answer"),
        "action.answer": t.gettext("Answer"),
        "action.review": t.gettext("Review"),
        "review_chart": t.gettext("Each guess beside Knuth's, as a chart"),
        "giveup_confirm": t.gettext("Give up this game? The secret is shown to everyone."),
        "cancel": t.gettext("Cancel"),
        "close": t.gettext("Close"),
        "bot_guess": t.gettext("The bot guesses"),
        "black_pegs": t.gettext("Black pegs (right colour, right place)"),
        "white_pegs": t.gettext("White pegs (right colour, wrong place)"),
        "contradiction": t.gettext(
            "Your answers contradict each other: {reason}", reason="{reason}"
        ),
        "status.won": t.gettext("Cracked!"),
        "status.lost": t.gettext("Out of guesses."),
        "status.ended": t.gettext("The game is over."),
        "secret": t.gettext("The secret was"),
        "progress": t.gettext("How the others are doing"),
        "progress_row": t.gettext("{name} — guesses: {count}", name="{name}", count="{count}"),
        "progress_done": t.gettext("{name}: done", name="{name}"),
        "private_board": t.gettext("Only you see your board; the others see your progress."),
        "lobby": t.gettext("Waiting for players to join."),
        "not_on_activity": t.gettext("This game is played in the channel only, not on this board."),
        "standings": t.gettext("Standings"),
        "time_left": t.gettext("Time left: {time}", time="{time}"),
        "hard": t.gettext("Hard mode: every guess must fit every clue so far."),
        "reconnecting": t.gettext("Connection lost, reconnecting…"),
        "error": t.gettext("Something went wrong. Try again."),
        "signin_failed": t.gettext("Could not sign in: {reason}", reason="{reason}"),
    }
    for colour in range(10):
        words[f"colour.{colour + 1}"] = colour_name(t, colour)
    return words
