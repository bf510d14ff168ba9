"""Charts end to end: the real bot draws in its chart worker, the fake Discord receives the PNG
as an attachment with alt text, and the embed shows it; no wins, a friendly line; CHARTS=off,
the answer as before charts."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.app import MastermindBot
from bot.charts import style
from bot.config import Settings
from tests.bot.helpers import secret_text
from tests.discord_fake import FakeDiscord
from tests.discord_fake.models import FakeMessage


async def win_a_game(fake: FakeDiscord, db_path: Path, player: str) -> None:
    await (await fake.slash("general", player, "mastermind", "play")).settled()
    guess = {"code": secret_text(db_path)}
    await (await fake.slash("general", player, "mastermind", "guess", options=guess)).response()


async def assert_png_with_alt_text(
    fake: FakeDiscord, message: FakeMessage, filename: str
) -> dict[str, object]:
    """The message gets its chart: one PNG attachment of the planned size and at most 200 KB,
    shown by its embed, with alt text; the attachment is returned."""
    await fake.wait_for(lambda: bool(message.attachments), timeout=15.0)
    (attachment,) = message.attachments
    assert attachment["filename"] == filename and attachment["description"]
    assert message.embed is not None
    assert message.embed["image"]["url"] == f"attachment://{filename}"
    png = fake.uploads[attachment["id"]]
    assert len(png) <= 200 * 1024
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.size == (style.WIDTH_PX, style.HEIGHT_PX)
    return attachment


async def stats_of(fake: FakeDiscord, player: str) -> FakeMessage:
    return await (await fake.slash("general", player, "mastermind", "stats")).response()


async def test_stats_arrive_with_a_png_chart_and_its_alt_text(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    await bot.charts.warm_up()
    await win_a_game(fake_discord, db_path, "alice")
    stats = await stats_of(fake_discord, "alice")
    assert "1 (100%)" in stats.text  # the words come first, as before charts
    attachment = await assert_png_with_alt_text(fake_discord, stats, "stats.png")
    assert attachment["description"] == (
        "Wins by number of guesses, 1 win (play 1): 1 in 1 guess; 0 in hard mode, 0 with hints; "
        "today's in 1 guess."
    )


async def test_the_review_arrives_with_its_chart_privately(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    await bot.charts.warm_up()
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    secret = secret_text(db_path)
    wrong = "1122" if secret != "1122" else "3456"
    for code in (wrong, secret):
        guess = {"code": code}
        await (
            await fake_discord.slash("general", "alice", "mastermind", "guess", options=guess)
        ).response()
    await fake_discord.wait_for(lambda: [b["label"] for b in board.buttons] == ["Review"])
    opened = await (await fake_discord.click(board, "Review", user="bob")).settled()
    assert opened.ephemeral and "Review of game" in opened.text
    attachment = await assert_png_with_alt_text(fake_discord, opened, "review.png")
    assert str(attachment["description"]).startswith(
        "Codes still possible from the start and after each guess: 1,296, "
    )


async def test_a_simulation_arrives_with_its_histogram(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    await bot.charts.warm_up()
    options = {"pegs": 3, "colours": 4}
    handle = await fake_discord.slash("general", "alice", "mastermind", "simulate", options=options)
    chart = await handle.settled()
    assert "every secret" in chart.text
    attachment = await assert_png_with_alt_text(fake_discord, chart, "simulation.png")
    assert str(attachment["description"]).startswith(
        "Secrets by guesses needed, Knuth minimax, 3 × 4: "
    )


async def test_a_player_without_a_win_gets_a_friendly_line_not_an_empty_chart(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    stats = await stats_of(fake_discord, "carol")
    assert "appears here after your first win" in stats.text
    assert stats.attachments == [] and bot.charts.pids == []  # nothing was drawn


async def test_with_charts_off_stats_are_as_before_charts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "off.db"
    settings = Settings(token=fake_discord.token, database_path=db_path, charts="OFF")
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings), timeout=30.0, commands=True
    ) as bot:
        await win_a_game(fake_discord, db_path, "alice")
        stats = await stats_of(fake_discord, "alice")
        await fake_discord.requests_written()
        assert "1 (100%)" in stats.text and "first win" not in stats.text
        assert stats.attachments == [] and "image" not in (stats.embed or {})
        assert bot.charts.pids == [] and not bot.charts.enabled
