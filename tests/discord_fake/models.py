"""What tests read back from the fake: messages, modals, interaction handles and violations.

These are live objects: the server mutates a `FakeMessage` in place on every edit or delete, so
holding one and re-reading its fields always shows the message's current state.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.discord_fake.activities import LAUNCH_ACTIVITY, FakeActivityInstance
from tests.discord_fake.rules import COMPONENTS_V2, EPHEMERAL, LOADING, walk_components
from tests.discord_fake.world import FakeChannel, FakeUser, iso_now

if TYPE_CHECKING:
    from tests.discord_fake.driver import FakeDiscord


class FakeDiscordError(AssertionError):
    """The bot did not do what the test waited for; the message says what happened instead."""


@dataclass(frozen=True)
class Violation:
    """A Discord rule the bot broke, or a request the fake could not serve."""

    rule: str
    detail: str
    method: str = ""
    path: str = ""

    def __str__(self) -> str:
        where = f" ({self.method} {self.path})" if self.method else ""
        return f"[{self.rule}] {self.detail}{where}"


@dataclass(frozen=True)
class RecordedRequest:
    """One REST request the bot made, with the status the fake answered."""

    method: str
    path: str
    status: int
    body: Any
    at: float

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass
class FakeMessage:
    """A message in a channel, as it currently stands after edits and deletes."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    deleted: bool = False
    edits: int = 0
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user: FakeUser | None = None
    interaction_type: int | None = None
    #: The installs that authorized the interaction that created it ({"0": guild} or
    #: {"1": user}); clicks on the message carry the same.
    integration_owners: dict[str, str] | None = None
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    #: Every version the message had, oldest first (the dict sent or the edit applied).
    history: list[dict[str, Any]] = field(default_factory=list)
    #: When each version of `history` was applied (unix seconds, wall clock).
    history_times: list[float] = field(default_factory=list)

    @property
    def channel_id(self) -> int:
        """The id of the channel the message is in."""
        return self.channel.id

    @property
    def ephemeral(self) -> bool:
        """Only the interaction's user sees it (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "thinking" message not yet resolved (flag 128)."""
        return bool(self.flags & LOADING)

    @property
    def components_v2(self) -> bool:
        """Sent with the IS_COMPONENTS_V2 flag (layout views)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def visible_to(self) -> FakeUser | None:
        """For an ephemeral message, the one user who sees it; None when everyone does."""
        return self.interaction_user if self.ephemeral else None

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, flattened (rows, containers and their children)."""
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """The buttons, in display order."""
        return [c for c in self.all_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        """The selects of any kind, in display order."""
        return [c for c in self.all_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def embed(self) -> dict[str, Any] | None:
        """The first embed, or None."""
        return self.embeds[0] if self.embeds else None

    @property
    def text(self) -> str:
        """Content, embed text and text displays joined, for `in` assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields") or []:
                parts += [fld.get("name") or "", fld.get("value") or ""]
            parts.append((embed.get("footer") or {}).get("text") or "")
            parts.append((embed.get("author") or {}).get("name") or "")
        parts += [c.get("content") or "" for c in self.all_components() if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def component(self, target: str) -> dict[str, Any]:
        """The button or select whose custom_id, label or placeholder is `target`."""
        interactive = [*self.buttons, *self.selects]
        for component in interactive:
            if component.get("custom_id") == target:
                return component
        matches = [c for c in interactive if target in (c.get("label"), c.get("placeholder"))]
        if len(matches) == 1:
            return matches[0]
        known = [c.get("label") or c.get("custom_id") for c in interactive]
        reason = "several components are" if matches else "no component is"
        raise KeyError(f"{reason} {target!r} in message {self.id}; it has {known}")

    def payload(self) -> dict[str, Any]:
        """The message object as Discord returns it (REST) or dispatches it (gateway)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 20 if self.interaction_type == 2 else 0,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.channel.guild_id is not None:
            data["guild_id"] = str(self.channel.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": self.integration_owners
                or {"0": str(self.channel.guild_id or 0)},
            }
        return data

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        state += " ephemeral" if self.ephemeral else ""
        state += " loading" if self.loading else ""
        return f"<FakeMessage {self.id} in #{self.channel.name}{state} text={self.text[:60]!r}>"


@dataclass
class FakeModal:
    """A modal the bot opened for a user, waiting to be submitted."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    opened_by: InteractionHandle
    submitted: bool = False

    @property
    def user(self) -> FakeUser:
        """The only user who sees the modal."""
        return self.opened_by.user

    def fields(self) -> list[dict[str, Any]]:
        """The inputs a user can fill in (text inputs and selects), in order."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 4, 5, 6, 7, 8)]


@dataclass
class InteractionHandle:
    """One interaction the driver dispatched; await its answer with `response()` or `modal()`."""

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    description: str
    payload: dict[str, Any]
    dispatched_at: float  # fake clock, for Discord's time rules
    dispatched_perf: float  # perf_counter, for latency
    message: FakeMessage | None = None  # the message a component sat on
    answered_at: float | None = None
    answer_perf: float | None = None
    answer_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    opened_modal: FakeModal | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    late: bool = False
    deadline_reported: bool = False
    opened_from_message: FakeMessage | None = None  # a modal's component message, for submits
    #: A forged interaction (`forge_interaction`); with `expect_answer` False, no answer within
    #: the deadline is fine (discord.py drops component interactions it cannot match).
    forged: bool = False
    expect_answer: bool = True
    #: The instance a LAUNCH_ACTIVITY answer (type 12) launched or joined.
    activity_instance: FakeActivityInstance | None = None

    @property
    def answered(self) -> bool:
        """The bot sent the interaction callback (of any type)."""
        return self.answer_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to receiving the first answer."""
        if self.answer_perf is None:
            return None
        return self.answer_perf - self.dispatched_perf

    @property
    def messages(self) -> list[FakeMessage]:
        """The original response (if a message) and every followup, in order."""
        first = [self.original] if self.original is not None else []
        return first + [m for m in self.followups if m is not self.original]

    async def answer(self, timeout: float = 5.0) -> int:
        """Wait for the first answer and return its callback type (4 to 9, or 12)."""
        await self.fake.wait_for(
            lambda: self.answered, timeout, f"the first answer to {self.description}"
        )
        assert self.answer_type is not None
        return self.answer_type

    async def response(self, timeout: float = 5.0) -> FakeMessage:
        """The message the first answer produced: the new reply (4, 5) or the updated one (6, 7)."""
        kind = await self.answer(timeout)
        if kind == 9:
            raise FakeDiscordError(f"{self.description} was answered with a modal, not a message")
        if kind == 8:
            raise FakeDiscordError(f"{self.description} was answered with autocomplete choices")
        if self.original is None:
            raise FakeDiscordError(f"{self.description} was answered (type {kind}) without message")
        return self.original

    async def settled(self, timeout: float = 5.0) -> FakeMessage:
        """The original response once it is no longer a "thinking..." placeholder."""
        message = await self.response(timeout)
        await self.fake.wait_for(
            lambda: not message.loading or message.deleted,
            timeout,
            f"the deferred answer to {self.description} to be filled in",
        )
        return message

    async def followup(self, index: int = 0, timeout: float = 5.0) -> FakeMessage:
        """The `index`-th followup message (a followup that resolved a defer counts)."""
        await self.fake.wait_for(
            lambda: len(self.followups) > index,
            timeout,
            f"followup #{index} to {self.description}",
        )
        return self.followups[index]

    async def modal(self, timeout: float = 5.0) -> FakeModal:
        """The modal the bot answered with (type 9)."""
        kind = await self.answer(timeout)
        if kind != 9 or self.opened_modal is None:
            raise FakeDiscordError(f"{self.description} was answered with type {kind}, not a modal")
        return self.opened_modal

    async def launched(self, timeout: float = 5.0) -> FakeActivityInstance:
        """The Activity instance the answer (type 12, LAUNCH_ACTIVITY) opened for the user."""
        kind = await self.answer(timeout)
        if kind != LAUNCH_ACTIVITY or self.activity_instance is None:
            raise FakeDiscordError(
                f"{self.description} was answered with type {kind}, not LAUNCH_ACTIVITY"
            )
        return self.activity_instance

    async def choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The autocomplete choices the bot offered (type 8)."""
        kind = await self.answer(timeout)
        if kind != 8 or self.autocomplete_choices is None:
            raise FakeDiscordError(f"{self.description} was answered with type {kind}, not choices")
        return self.autocomplete_choices

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.id} {self.description} answer={self.answer_type}>"


class Waiter:
    """Wake everyone waiting on the fake's state whenever anything changes.

    Waiters also re-check every `poll` seconds, for predicates on state outside the fake (a
    list an in-process bot appends to, a subprocess that exits).
    """

    poll = 0.02

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        """Something changed: wake the waiters, who re-check their predicates."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float, on_timeout: Callable[[], str]
    ) -> None:
        """Return once `predicate()` is true; raise FakeDiscordError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FakeDiscordError(on_timeout())
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), min(remaining, self.poll))
            except TimeoutError:
                continue
