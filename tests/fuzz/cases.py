"""The four families of fuzzed inputs, each drawn from a seeded `random.Random`: slash options
(within what Discord lets a client send), custom_ids of buttons and selects and modals (forged),
select values (forged) and modal text (within Discord's lengths, and beyond).

Every input is one the bot must refuse, in the scene's state: a slash command runs where it
cannot (a game already running there, an impossible variant, a daily already played), a code is
text that is no code, and the fuzzing players own nothing a forged id could move. An input that
might be valid by chance is drawn again (`_refused`, `_may_store`).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine.codes import CodeError, CodeSpace
from bot.engine.errors import GameError
from bot.engine.game import Variant
from bot.engine.search import MAX_CODES
from tests.discord_fake import FakeDiscord, FakeMessage, InteractionHandle
from tests.fuzz import values
from tests.fuzz.fields import BUTTON, MODAL, SELECT, Command, RouteField
from tests.fuzz.probe import Case
from tests.fuzz.scene import ACTORS, CHANNELS, MEMBERS, RACER, Scene

BUSY = ("general", "games", "solving", "racing")
"""Channels with a game running: a new game there is refused."""
PLAYABLE = {"general": "play", "games": "long"}
"""Channels whose play game anyone may guess in: only text that is no code is sent there."""
DM = "dm"
MAX_TEXT = 4000
"""The longest text input value Discord takes at all."""


@dataclass
class World:
    """What the generators draw from: the fake, the scene, and the bot's own fields."""

    fake: FakeDiscord
    scene: Scene
    routes: list[RouteField]
    commands: list[Command]
    spaces: dict[str, CodeSpace]
    """The code space of each scene game by role."""

    def near(self, name: str) -> list[int]:
        """Numbers worth trying in a custom_id field called `name`."""
        if name == "game":
            ids = self.scene.game_ids()
            return [*ids, max(ids) + 1, max(ids) + 1000]
        if name == "nonce":
            return [i.id for i in self.fake.interactions[-3:]]
        return [0, 1, 2, 3, 9, 10, 99, 999_999]

    def any_space_reads(self, text: str) -> bool:
        """`text` is a code in some game of the scene."""
        for space in self.spaces.values():
            try:
                space.parse(text)
                return True
            except CodeError:
                continue
        return False


def where(fake: FakeDiscord, channel: str, user: str) -> Any:
    return fake.dm_channel(user) if channel == DM else channel


# --- slash options ----------------------------------------------------------------------------


def slash_case(rng: random.Random, world: World) -> Case:
    """A slash command with options Discord would pass, sent where the bot must refuse it."""
    fuzzable = [c for c in world.commands if c.options]
    command = rng.choice(fuzzable)
    name = command.path[-1]
    for _ in range(1000):
        channel = rng.choice((*CHANNELS, DM))
        actor = rng.choice(ACTORS)
        options = {
            o["name"]: option_value(rng, o)
            for o in command.options
            if o.get("required") or rng.random() < 0.6
        }
        public_ok = name == "stats" or (name == "leaderboard" and channel != DM)
        if _refused(name, options, channel, world):
            break
    else:
        raise RuntimeError(f"no refused input for /{' '.join(command.path)}")
    path = command.path

    async def send(fake: FakeDiscord) -> InteractionHandle:
        return await fake.slash(where(fake, channel, actor), actor, *path, options=options)

    what = f"/{' '.join(path)} {options!r} by {actor} in {channel}"
    return Case("slash options", what, send, public_ok=public_ok)


def option_value(rng: random.Random, option: dict[str, Any]) -> Any:
    """A value of the option's type that Discord would pass: within its choices, range and
    length, and adversarial inside those."""
    choices = option.get("choices")
    if choices:
        return rng.choice(choices)["value"]
    kind = option["type"]
    if kind == 5:
        return rng.random() < 0.5
    if kind == 6:
        return rng.choice((*MEMBERS, "mod", "owner"))
    if kind in (4, 10):
        low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        return rng.choice((low, high, low + 1, high - 1, rng.randint(low, high)))
    low, high = option.get("min_length", 0), option.get("max_length", 6000)
    return values.text(rng, low, high)


def _refused(name: str, options: dict[str, Any], channel: str, world: World) -> bool:
    """The bot must refuse `/<name> options` in `channel` (else the draw is made again)."""
    if name in ("play", "solve", "race"):
        if channel in BUSY:
            return True  # a game is already running there
        return not _playable(options, name == "solve")
    if name == "guess":
        role = PLAYABLE.get(channel)
        return role is None or not _reads(world.spaces[role], str(options.get("code")))
    if name == "simulate":
        space = CodeSpace(options.get("pegs", 4), options.get("colours", 6))
        return space.size > MAX_CODES
    return True  # daily (already played today), stats, leaderboard, anything new


def _playable(options: dict[str, Any], solved: bool) -> bool:
    try:
        variant = Variant(
            options.get("pegs", 4),
            options.get("colours", 6),
            options.get("duplicates", True),
            options.get("guesses", 10),
        )
    except GameError:
        return False
    return not solved or variant.space.size <= MAX_CODES


def _reads(space: CodeSpace, text: str) -> bool:
    try:
        space.parse(text)
    except CodeError:
        return False
    return True


# --- custom_ids -------------------------------------------------------------------------------


def custom_id_case(rng: random.Random, world: World) -> Case:
    """A button, select or modal whose custom_id is forged: its numbers anything, or its shape
    broken (then discord.py drops a component unseen, and the case expects no answer)."""
    for _ in range(1000):
        route = rng.choice(world.routes)
        actor = rng.choice(ACTORS)
        numbers = [values.number(rng, world.near(name)) for name in route.fields]
        custom_id = route.custom_id(numbers)
        if rng.random() < 0.25:
            custom_id = mangled(rng, route, numbers)
        if not _may_store(world, custom_id, actor):
            break
    if route.kind == MODAL:
        code = junk(rng, world, 1, 100)
        return modal_submit("custom_ids", world, rng, actor, custom_id, {"code": code})
    picked = values.select_values(rng, ["0", "1"]) if route.kind == SELECT else None
    return component("custom_ids", world, rng, actor, route, custom_id, picked)


def mangled(rng: random.Random, route: RouteField, numbers: list[str]) -> str:
    """A custom_id of the route's prefix with its shape broken."""
    parts = ["mm", route.prefix, *numbers]
    shape = rng.randrange(6)
    if shape == 0 and numbers:
        index = rng.randrange(2, len(parts))
        parts[index] = values.mangled_number(rng)
    elif shape == 1:
        parts[1] = rng.choice((route.prefix.upper(), route.prefix + "x", route.prefix[:-1]))
        parts[1] = parts[1].replace("e", "е")  # a Cyrillic e, where it has one
    elif shape == 2 and numbers:
        parts.pop()
    elif shape == 3:
        parts.append(values.number(rng))
    elif shape == 4:
        return rng.choice((":", "::", ";", ": ", "/")).join(parts)
    else:
        return ":".join(parts) + "9" * (100 - len(":".join(parts)))
    return ":".join(parts)


def _may_store(world: World, custom_id: str, actor: str) -> bool:
    """A forged id that names a move the actor may make: a hint in an open play game."""
    parts = custom_id.split(":")
    if len(parts) != 3 or parts[:2] != ["mm", "hint"] or not parts[2].isdecimal():
        return False
    open_games = {world.scene.games["play"], world.scene.games["long"]}
    return int(parts[2]) in open_games


def junk(rng: random.Random, world: World, low: int, high: int) -> str:
    """Text that is no code in any game of the scene."""
    while True:
        text = values.text(rng, low, high)
        if not world.any_space_reads(text):
            return text


# --- select values ----------------------------------------------------------------------------


def select_case(rng: random.Random, world: World) -> Case:
    """A select of the bot's, on a message it drew, sending values it never offered (or, now
    and then, one it did: a peg's colour, which only redraws the clicker's private board)."""
    selects = [r for r in world.routes if r.kind == SELECT]
    route = rng.choice(selects)
    hosts = world.scene.hosts.get(route.prefix) or []
    drawn = [
        (host, s)
        for host in hosts
        for s in host.selects
        if str(s.get("custom_id", "")).split(":")[1] == route.prefix
    ]
    if drawn and rng.random() < 0.7:
        host, select = rng.choice(drawn)
        custom_id = select["custom_id"]
        offered = [o["value"] for o in select.get("options") or []]
        owner = host.visible_to.name if host.visible_to is not None else None
    else:
        numbers = [values.number(rng, world.near(name)) for name in route.fields]
        custom_id, offered, owner = route.custom_id(numbers), ["0", "1"], None
    actor = owner if owner in (*ACTORS, RACER) and rng.random() < 0.8 else rng.choice(ACTORS)
    picked = [rng.choice(offered)] if rng.random() < 0.2 else values.select_values(rng, offered)
    return component("select values", world, rng, actor, route, custom_id, picked)


# --- modal text -------------------------------------------------------------------------------

MODAL_TARGETS = {"code": ("long", "play"), "dcode": (f"daily:{RACER}",), "rcode": ("race",)}
"""The scene games each modal route guesses in, as a player who may guess there sends it."""
STAMPS = {"dcode": "dsend", "rcode": "rsend"}
"""The private board button that carries the stamp a modal of that route carries."""


def modal_case(rng: random.Random, world: World) -> Case:
    """A code modal sent as a player who may guess: its text no code, within Discord's lengths
    or (forged) beyond them, its field missing or doubled."""
    route = rng.choice([r for r in world.routes if r.kind == MODAL])
    role = rng.choice(MODAL_TARGETS.get(route.prefix, ("play",)))
    game = world.scene.games[role]
    actor = RACER if route.prefix in STAMPS else rng.choice((*ACTORS, RACER))
    stamp = _stamp(world, STAMPS.get(route.prefix), actor)
    custom_id = route.custom_id([str(game), str(stamp)][: len(route.fields)])
    fields = modal_fields(rng, world)
    return modal_submit("modal text", world, rng, actor, custom_id, fields)


def modal_fields(rng: random.Random, world: World) -> dict[str, str]:
    shape = rng.randrange(8)
    if shape == 0:
        return {}
    if shape == 1:
        return {"code": ""}
    if shape == 2:
        return {"code": junk(rng, world, 101, MAX_TEXT)}
    if shape == 3:
        return {rng.choice(("Code", "code ", "kod", "")): junk(rng, world, 1, 100)}
    return {"code": junk(rng, world, 1, 100)}


def _stamp(world: World, button: str | None, actor: str) -> int:
    """The stamp on `actor`'s private board's `button` (its version, or guesses made)."""
    for host in world.scene.hosts.get(button or "", []):
        if host.visible_to is not None and host.visible_to.name == actor:
            for b in host.buttons:
                if str(b.get("custom_id", "")).startswith(f"mm:{button}:"):
                    return int(b["custom_id"].split(":")[3])
    return 0


# --- sending ----------------------------------------------------------------------------------


def _host(world: World, rng: random.Random, prefix: str, actor: str) -> FakeMessage:
    """A message the bot drew this route on, that `actor` sees; else `actor`'s own picker."""
    seen = [
        m
        for m in world.scene.hosts.get(prefix, [])
        if m.visible_to is None or m.visible_to.name == actor
    ]
    if seen:
        return rng.choice(seen)
    own = world.scene.hosts["send"]
    return next(m for m in own if m.visible_to is not None and m.visible_to.name == actor)


def _channel(rng: random.Random, host: FakeMessage) -> str:
    """Mostly the host's channel; now and then, as only a forger could, another or a DM."""
    if rng.random() < 0.8:
        return host.channel.name
    return rng.choice((*CHANNELS, DM))


def component(
    family: str,
    world: World,
    rng: random.Random,
    actor: str,
    route: RouteField,
    custom_id: str,
    picked: list[str] | None,
) -> Case:
    """A click or a choice on a copy of a message the bot drew, carrying `custom_id`."""
    host = _host(world, rng, route.prefix, actor)
    channel = _channel(rng, host)
    kind = route.kind if rng.random() < 0.9 else (BUTTON if route.kind == SELECT else SELECT)
    forged = dict(
        host.payload(), components=[{"type": 1, "components": [_item(kind, custom_id, picked)]}]
    )

    send = _forging(
        channel,
        actor,
        host,
        type=3,
        custom_id=custom_id,
        component_type=kind,
        values=picked if kind == SELECT else None,
        payload={"message": forged},
    )
    verb = "select" if kind == SELECT else "click"
    what = f"{verb} {custom_id!r} {picked or ''} by {actor} in {channel} on message {host.id}"
    return Case(family, what, send)


def _forging(
    channel: str, actor: str, host: FakeMessage, **forge: Any
) -> Callable[[FakeDiscord], Awaitable[InteractionHandle]]:
    """Send a forged interaction on a copy of `host`, at once (see `forge_interaction`)."""

    async def send(fake: FakeDiscord) -> InteractionHandle:
        where_ = where(fake, channel, actor)
        return await fake.forge_interaction(where_, actor, message=host, settle=False, **forge)

    return send


def _item(kind: int, custom_id: str, picked: list[str] | None) -> dict[str, Any]:
    if kind == BUTTON:
        return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    offered = sorted(set(picked or []) | {"0"})
    options = [{"label": v[:100] or "-", "value": v[:100] or "-"} for v in offered]
    return {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}


def modal_submit(
    family: str,
    world: World,
    rng: random.Random,
    actor: str,
    custom_id: str,
    fields: dict[str, str],
) -> Case:
    """A modal submission with `custom_id` and text `fields`, from the board it was opened on."""
    prefix = custom_id.split(":")[1] if custom_id.count(":") else ""
    button = STAMPS.get(prefix, "guess")
    host = _host(world, rng, button, actor)
    channel = _channel(rng, host)

    send = _forging(channel, actor, host, type=5, custom_id=custom_id, fields=fields)
    shown = {k: (v if len(v) < 60 else f"{v[:40]!r}...({len(v)} chars)") for k, v in fields.items()}
    what = f"modal {custom_id!r} {shown!r} by {actor} in {channel}"
    return Case(family, what, send)


FAMILIES: dict[str, Callable[[random.Random, World], Case]] = {
    "slash options": slash_case,
    "custom_ids": custom_id_case,
    "select values": select_case,
    "modal text": modal_case,
}
