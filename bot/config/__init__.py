"""Every setting the bot reads, declared once: `Settings` is the table (one field per variable),
and reading, validation, `--help`, the README rows and the redacted repr all come from it."""

from bot.config.rows import ConfigError, Setting
from bot.config.settings import SETTINGS, Settings, offline_settings

__all__ = ["SETTINGS", "ConfigError", "Setting", "Settings", "offline_settings"]
