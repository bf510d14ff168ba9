"""Discord's payload limits that discord.py leaves to the server.

Each check returns a list of `Problem`s (empty when the payload is fine). The server turns them
into a Discord-style 400 "Invalid Form Body" for the bot and a recorded violation for the test.
Limits are from Discord's API documentation (messages, embeds, components, modals, commands).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
COMPONENTS_V2 = 1 << 15

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
MAX_ATTACHMENTS = 10
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
"""A server without boosts (the `attachment_size_limit` the fake's interactions carry)."""
MAX_ATTACHMENT_DESCRIPTION = 1024

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
V2_TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
"""Discord's locales: the only keys name_localizations and description_localizations take, and
the values of an interaction's `locale` and `guild_locale`."""


@dataclass(frozen=True)
class Problem:
    """One broken rule: a short rule name, the payload field, and what is wrong."""

    rule: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule} at {self.path or '<body>'}: {self.message}"


def _too_long(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) > limit


def check_message(
    payload: dict[str, Any], *, previous: dict[str, Any] | None = None
) -> list[Problem]:
    """A message create or edit; `previous` is the stored message an edit applies to."""
    problems: list[Problem] = []
    merged = dict(previous or {})
    merged.update({k: v for k, v in payload.items() if k in _MESSAGE_FIELDS})
    flags = int(merged.get("flags") or 0)
    content = merged.get("content") or ""
    if not isinstance(content, str):
        problems.append(Problem("content-type", "content", "must be a string"))
        content = str(content)
    if len(content) > MAX_CONTENT:
        problems.append(
            Problem(
                "content-length",
                "content",
                f"Must be {MAX_CONTENT} or fewer in length (got {len(content)}).",
            )
        )
    embeds = merged.get("embeds") or []
    problems.extend(check_embeds(embeds))
    components = merged.get("components") or []
    v2 = bool(flags & COMPONENTS_V2)
    problems.extend(check_components(components, v2=v2))
    if v2 and (content or embeds):
        problems.append(
            Problem(
                "components-v2",
                "content",
                "content and embeds cannot be used with the IS_COMPONENTS_V2 flag",
            )
        )
    if previous is not None and previous.get("flags", 0) & COMPONENTS_V2 and not v2:
        problems.append(
            Problem("components-v2", "flags", "the IS_COMPONENTS_V2 flag cannot be removed")
        )
    has_body = any(
        merged.get(key)
        for key in ("content", "embeds", "components", "attachments", "sticker_ids", "poll")
    )
    if not has_body:
        problems.append(Problem("empty-message", "", "Cannot send an empty message"))
    return problems


def attachment_descriptions(payload: Any) -> dict[Any, str | None]:
    """The alt text the payload gives each new file, by the file's index (`files[<index>]`)."""
    entries = payload.get("attachments") if isinstance(payload, dict) else None
    return {
        entry.get("id"): entry.get("description")
        for entry in entries or []
        if isinstance(entry, dict)
    }


def check_uploads(payload: Any, files: list[dict[str, Any]]) -> list[Problem]:
    """Uploaded files: at most 10, each within the size limit, each description (alt text)
    within 1024 characters."""
    problems: list[Problem] = []
    if len(files) > MAX_ATTACHMENTS:
        problems.append(Problem("attachments", "attachments", f"at most {MAX_ATTACHMENTS} files"))
    for file in files:
        if file["size"] > MAX_ATTACHMENT_BYTES:
            problems.append(
                Problem(
                    "attachment-size",
                    f"files[{file.get('index')}]",
                    f"Request entity too large: {file['size']} bytes over {MAX_ATTACHMENT_BYTES}",
                )
            )
    for index, description in attachment_descriptions(payload).items():
        if _too_long(description, MAX_ATTACHMENT_DESCRIPTION):
            problems.append(
                Problem(
                    "attachment-description",
                    f"attachments.{index}.description",
                    f"Must be {MAX_ATTACHMENT_DESCRIPTION} or fewer in length.",
                )
            )
    return problems


_MESSAGE_FIELDS = frozenset(
    {"content", "embeds", "components", "attachments", "flags", "sticker_ids", "poll"}
)


def check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    """Per-field embed limits and the 6000-character total across all embeds of a message."""
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(Problem("embed-count", "embeds", f"at most {MAX_EMBEDS} embeds"))
    total = 0
    for index, embed in enumerate(embeds):
        where = f"embeds.{index}"
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            value = embed.get(key) or ""
            total += len(value)
            if len(value) > limit:
                problems.append(
                    Problem("embed-limit", f"{where}.{key}", f"at most {limit} characters")
                )
        footer = (embed.get("footer") or {}).get("text") or ""
        total += len(footer)
        if len(footer) > 2048:
            problems.append(Problem("embed-limit", f"{where}.footer.text", "at most 2048"))
        author = (embed.get("author") or {}).get("name") or ""
        total += len(author)
        if len(author) > 256:
            problems.append(Problem("embed-limit", f"{where}.author.name", "at most 256"))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(Problem("embed-limit", f"{where}.fields", "at most 25 fields"))
        for f_index, fld in enumerate(fields):
            name, value = fld.get("name") or "", fld.get("value") or ""
            total += len(name) + len(value)
            if not name or not value:
                problems.append(
                    Problem(
                        "embed-limit",
                        f"{where}.fields.{f_index}",
                        "field name and value are required",
                    )
                )
            if len(name) > 256:
                problems.append(
                    Problem("embed-limit", f"{where}.fields.{f_index}.name", "at most 256")
                )
            if len(value) > 1024:
                problems.append(
                    Problem("embed-limit", f"{where}.fields.{f_index}.value", "at most 1024")
                )
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                "embed-limit",
                "embeds",
                f"embeds hold {total} characters; at most {MAX_EMBED_TOTAL} in total",
            )
        )
    return problems


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, including rows, containers, sections and labels."""
    for component in components:
        yield component
        children = list(component.get("components") or [])
        if component.get("component"):
            children.append(component["component"])
        if component.get("accessory"):
            children.append(component["accessory"])
        yield from walk_components(children)


def check_components(components: list[dict[str, Any]], *, v2: bool = False) -> list[Problem]:
    """Message components: 5 rows of 5 buttons or 1 select (classic), 40 in all (v2)."""
    problems: list[Problem] = []
    if not isinstance(components, list):
        return [Problem("components", "components", "must be a list")]
    if v2:
        count = sum(1 for _ in walk_components(components))
        if count > MAX_V2_COMPONENTS:
            problems.append(
                Problem("component-count", "components", f"at most {MAX_V2_COMPONENTS} in all")
            )
        for index, component in enumerate(components):
            if component.get("type") not in V2_TOP_LEVEL:
                problems.append(
                    Problem(
                        "component-type",
                        f"components.{index}",
                        f"type {component.get('type')} is not allowed at the top level",
                    )
                )
        rows = [c for c in walk_components(components) if c.get("type") == 1]
    else:
        if len(components) > MAX_ROWS:
            problems.append(
                Problem(
                    "component-rows",
                    "components",
                    f"at most {MAX_ROWS} action rows (got {len(components)})",
                )
            )
        rows = []
        for index, component in enumerate(components):
            if component.get("type") != 1:
                problems.append(
                    Problem(
                        "component-type",
                        f"components.{index}",
                        "top-level components must be action rows (type 1) "
                        "without the IS_COMPONENTS_V2 flag",
                    )
                )
            else:
                rows.append(component)
    for r_index, row in enumerate(rows):
        children = row.get("components") or []
        where = f"components.{r_index}"
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        buttons = [c for c in children if c.get("type") == 2]
        if not children:
            problems.append(Problem("component-rows", where, "an action row cannot be empty"))
        if selects and (len(children) > 1):
            problems.append(
                Problem("component-rows", where, "a row with a select holds only that select")
            )
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            problems.append(
                Problem(
                    "component-rows",
                    where,
                    f"at most {MAX_BUTTONS_PER_ROW} buttons per row (got {len(buttons)})",
                )
            )
        for child in children:
            if child.get("type") not in SELECT_TYPES and child.get("type") != 2:
                problems.append(
                    Problem(
                        "component-type",
                        where,
                        f"type {child.get('type')} cannot be in a message action row",
                    )
                )
    seen: set[str] = set()
    for component in walk_components(components):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if _too_long(custom_id, MAX_CUSTOM_ID):
                problems.append(
                    Problem(
                        "custom-id-length",
                        "custom_id",
                        f"{custom_id[:30]!r}... has {len(custom_id)} characters; at most 100",
                    )
                )
            if custom_id in seen:
                problems.append(
                    Problem("custom-id-duplicate", "custom_id", f"{custom_id!r} is used twice")
                )
            seen.add(custom_id)
        if kind == 2:
            problems.extend(_check_button(component))
        elif kind in SELECT_TYPES:
            problems.extend(_check_select(component))
    return problems


def _check_button(button: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    style = button.get("style")
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            problems.append(Problem("button", "url", "link buttons need a url and no custom_id"))
    elif style == 6:
        if not button.get("sku_id"):
            problems.append(Problem("button", "sku_id", "premium buttons need a sku_id"))
    elif not button.get("custom_id"):
        problems.append(Problem("button", "custom_id", "non-link buttons need a custom_id"))
    if style != 6 and not button.get("label") and not button.get("emoji"):
        problems.append(Problem("button", "label", "a button needs a label or an emoji"))
    if _too_long(button.get("label"), 80):
        problems.append(Problem("button", "label", "at most 80 characters"))
    return problems


def _check_select(select: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    if not select.get("custom_id"):
        problems.append(Problem("select", "custom_id", "a select needs a custom_id"))
    if _too_long(select.get("placeholder"), 150):
        problems.append(Problem("select", "placeholder", "at most 150 characters"))
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        problems.append(Problem("select", "min_values", f"bad min/max values {low}/{high}"))
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append(Problem("select", "options", "a select needs 1 to 25 options"))
        if high > len(options) and options:
            problems.append(Problem("select", "max_values", "more than there are options"))
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append(Problem("select", "options", "option values must be unique"))
        for index, option in enumerate(options):
            for key, limit in (("label", 100), ("value", 100), ("description", 100)):
                if _too_long(option.get(key), limit):
                    problems.append(
                        Problem("select", f"options.{index}.{key}", f"at most {limit} characters")
                    )
            if not option.get("label") or not option.get("value"):
                problems.append(
                    Problem("select", f"options.{index}", "an option needs a label and a value")
                )
    return problems


def check_modal(data: dict[str, Any]) -> list[Problem]:
    """A modal (interaction response type 9): title, 1-5 top-level parts, text input limits."""
    problems: list[Problem] = []
    custom_id = data.get("custom_id") or ""
    if not custom_id:
        problems.append(Problem("modal", "custom_id", "a modal needs a custom_id"))
    if len(custom_id) > MAX_CUSTOM_ID:
        problems.append(Problem("custom-id-length", "custom_id", "at most 100 characters"))
    title = data.get("title") or ""
    if not title or len(title) > 45:
        problems.append(Problem("modal", "title", "a modal title has 1 to 45 characters"))
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(Problem("modal", "components", "a modal has 1 to 5 components"))
    seen: set[str] = set()
    for index, top in enumerate(components):
        where = f"components.{index}"
        kind = top.get("type")
        if kind == 1:
            inner = top.get("components") or []
            if len(inner) != 1 or inner[0].get("type") != 4:
                problems.append(
                    Problem("modal", where, "an action row in a modal holds one text input")
                )
            for child in inner:
                problems.extend(_check_text_input(child, where, needs_label=True))
        elif kind == 18:
            label = top.get("label") or ""
            if not label or len(label) > 45:
                problems.append(Problem("modal", f"{where}.label", "1 to 45 characters"))
            if _too_long(top.get("description"), 100):
                problems.append(Problem("modal", f"{where}.description", "at most 100"))
            child = top.get("component") or {}
            if child.get("type") == 4:
                problems.extend(_check_text_input(child, where, needs_label=False))
            elif child.get("type") in SELECT_TYPES:
                problems.extend(_check_select(child))
            elif child.get("type") not in (19, 21, 22, 23):
                problems.append(
                    Problem("modal", where, f"type {child.get('type')} cannot be in a label")
                )
        elif kind != 10:
            problems.append(Problem("modal", where, f"type {kind} cannot be in a modal"))
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if len(custom_id) > MAX_CUSTOM_ID:
            problems.append(Problem("custom-id-length", "custom_id", f"{custom_id[:30]!r}..."))
        if custom_id in seen:
            problems.append(Problem("custom-id-duplicate", "custom_id", f"{custom_id!r} twice"))
        seen.add(custom_id)
    return problems


def _check_text_input(item: dict[str, Any], where: str, *, needs_label: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not item.get("custom_id"):
        problems.append(Problem("text-input", where, "a text input needs a custom_id"))
    if item.get("style") not in (1, 2):
        problems.append(Problem("text-input", where, "style must be 1 (short) or 2 (paragraph)"))
    label = item.get("label")
    if needs_label and not label:
        problems.append(Problem("text-input", where, "a text input in a row needs a label"))
    if _too_long(label, 45):
        problems.append(Problem("text-input", f"{where}.label", "at most 45 characters"))
    if _too_long(item.get("placeholder"), 100):
        problems.append(Problem("text-input", f"{where}.placeholder", "at most 100"))
    if _too_long(item.get("value"), 4000):
        problems.append(Problem("text-input", f"{where}.value", "at most 4000"))
    low, high = item.get("min_length", 0), item.get("max_length", 4000)
    if not (0 <= low <= 4000 and 1 <= high <= 4000 and low <= high):
        problems.append(Problem("text-input", where, f"bad min/max length {low}/{high}"))
    return problems


def check_commands(commands: list[dict[str, Any]]) -> list[Problem]:
    """A bulk overwrite of application commands: names, descriptions, options, counts."""
    problems: list[Problem] = []
    if not isinstance(commands, list):
        return [Problem("command", "", "the body must be a list of commands")]
    chat = [c for c in commands if c.get("type", 1) == 1]
    if len(chat) > 100:
        problems.append(Problem("command-count", "", "at most 100 slash commands"))
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", 1)
        name = command.get("name") or ""
        key = (kind, name)
        if key in seen:
            problems.append(Problem("command", f"{index}.name", f"duplicate command {name!r}"))
        seen.add(key)
        problems.extend(_check_localizations(command, f"{index}", named=kind == 1))
        if kind == 1:
            problems.extend(_check_named(command, f"{index}"))
            problems.extend(_check_options(command.get("options") or [], f"{index}.options", 0))
        elif not 1 <= len(name) <= 32:
            problems.append(Problem("command", f"{index}.name", "1 to 32 characters"))
    return problems


def _check_named(item: dict[str, Any], where: str) -> list[Problem]:
    problems: list[Problem] = []
    name = item.get("name") or ""
    if not _COMMAND_NAME.match(name) or name != name.lower():
        problems.append(
            Problem("command", f"{where}.name", f"{name!r} is not a valid lowercase name")
        )
    description = item.get("description") or ""
    if not 1 <= len(description) <= 100:
        problems.append(Problem("command", f"{where}.description", "1 to 100 characters"))
    return problems


def _check_localizations(item: dict[str, Any], where: str, *, named: bool) -> list[Problem]:
    """name_localizations and description_localizations: Discord locales only, each name
    valid as a name (lower case, 1-32 letters, digits, - _ ') and each description 1-100."""
    problems: list[Problem] = []
    for field in ("name_localizations", "description_localizations"):
        table = item.get(field)
        if table is None:
            continue
        if not isinstance(table, dict):
            problems.append(Problem("localization", f"{where}.{field}", "must be an object"))
            continue
        for locale, value in table.items():
            here = f"{where}.{field}.{locale}"
            if locale not in LOCALES:
                problems.append(Problem("localization", here, f"{locale!r} is not a locale"))
            elif not isinstance(value, str) or not 1 <= len(value) <= (
                32 if field == "name_localizations" else 100
            ):
                problems.append(Problem("localization", here, f"bad length: {value!r}"))
            elif field == "name_localizations" and named and not _valid_name(value):
                problems.append(
                    Problem("localization", here, f"{value!r} is not a valid lowercase name")
                )
    return problems


def _valid_name(name: str) -> bool:
    return bool(_COMMAND_NAME.match(name)) and name == name.lower()


def _localized_names(item: dict[str, Any]) -> dict[str, str]:
    """The name each locale shows (the default name where it has no localization)."""
    default = item.get("name") or ""
    table = item.get("name_localizations") or {}
    return {locale: str(table.get(locale) or default) for locale in LOCALES}


def _check_choices(choices: list[dict[str, Any]], where: str) -> list[Problem]:
    problems: list[Problem] = []
    for index, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(Problem("command", f"{where}.{index}.name", "1 to 100 characters"))
        table = choice.get("name_localizations") or {}
        for locale, value in table.items():
            here = f"{where}.{index}.name_localizations.{locale}"
            if locale not in LOCALES:
                problems.append(Problem("localization", here, f"{locale!r} is not a locale"))
            elif not isinstance(value, str) or not 1 <= len(value) <= 100:
                problems.append(Problem("localization", here, f"bad length: {value!r}"))
    return problems


def _check_options(options: list[dict[str, Any]], where: str, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > 25:
        problems.append(Problem("command", where, "at most 25 options"))
    optional_seen = False
    names: set[str] = set()
    shown: set[tuple[str, str]] = set()  # (locale, name) as each locale shows the options
    for index, option in enumerate(options):
        here = f"{where}.{index}"
        problems.extend(_check_named(option, here))
        problems.extend(_check_localizations(option, here, named=True))
        if option.get("name") in names:
            problems.append(Problem("command", here, f"duplicate option {option.get('name')!r}"))
        names.add(option.get("name") or "")
        for locale, name in _localized_names(option).items():
            if (locale, name) in shown:
                problems.append(
                    Problem("localization", here, f"two options show as {name!r} in {locale}")
                )
            shown.add((locale, name))
        kind = option.get("type")
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                problems.append(Problem("command", here, "subcommands nested too deeply"))
            problems.extend(
                _check_options(option.get("options") or [], f"{here}.options", depth + 1)
            )
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(
                    Problem("command", here, "required options must come before optional ones")
                )
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(Problem("command", f"{here}.choices", "at most 25 choices"))
        problems.extend(_check_choices(choices, f"{here}.choices"))
        if choices and option.get("autocomplete"):
            problems.append(Problem("command", here, "choices and autocomplete exclude each other"))
    return problems
