"""The fake checks command localisations as Discord does, and carries each side's language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_fake import FakeDiscord
from tests.discord_fake.rules import LOCALES, check_commands

pytest_plugins = ["tests.discord_fake.fixtures"]


def command(**extra: Any) -> dict[str, Any]:
    option = {"type": 4, "name": "pegs", "description": "Pegs"}
    other = {"type": 4, "name": "colours", "description": "Colours"}
    return {
        "type": 1,
        "name": "play",
        "description": "Start a game",
        "options": [{**option, **extra.pop("option", {})}, other],
        **extra,
    }


EMPTY_PL = {"name_localizations": {"pl": ""}}


def problems(body: dict[str, Any]) -> list[str]:
    return [str(p) for p in check_commands([body])]


def test_good_localisations_pass() -> None:
    body = command(
        name_localizations={"pl": "graj", "de": "spielen"},
        description_localizations={"pl": "Nowa gra"},
        option={"name_localizations": {"pl": "pionki"}},
    )
    assert problems(body) == []


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (command(name_localizations={"polish": "graj"}), "'polish' is not a locale"),
        (command(name_localizations={"pl": "Graj"}), "not a valid lowercase name"),
        (command(name_localizations={"pl": "zagraj teraz"}), "not a valid lowercase name"),
        (command(name_localizations={"pl": "g" * 33}), "bad length"),
        (command(description_localizations={"pl": "x" * 101}), "bad length"),
        (command(description_localizations={"en": "Play"}), "'en' is not a locale"),
        (command(option={"name_localizations": {"pl": "colours"}}), "two options show"),
        (command(option={"choices": [{"name": "K", "value": "k", **EMPTY_PL}]}), "bad length"),
    ],
)
def test_bad_localisations_are_refused(body: dict[str, Any], fragment: str) -> None:
    assert any(fragment in p for p in problems(body)), problems(body)


def test_the_locales_are_discords() -> None:
    assert {"pl", "en-US", "en-GB", "pt-BR", "es-419", "zh-TW"} <= LOCALES
    assert "en" not in LOCALES and "pl-PL" not in LOCALES


async def test_locales_must_be_discords(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="not a Discord locale"):
        fake_discord.set_user_locale("alice", "polish")
    with pytest.raises(ValueError, match="not a Discord locale"):
        await fake_discord.set_guild_locale("pl-PL")
    await fake_discord.set_guild_locale("pl")
    assert fake_discord.world.guild_payload()["preferred_locale"] == "pl"
