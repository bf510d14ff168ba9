"""The Activity (#33): the game's graphical board inside Discord, served by the bot itself.

Opt-in (ACTIVITY_PORT): without it nothing here is imported. With it, one aiohttp server runs
in the bot's event loop (`service.ActivityServer`, started and closed by the bot). It signs a
player in with Discord (`discord_api`, `sessions`), serves the page (`bot/web/static/`), its
JSON API (`api`) and a WebSocket of live views (`live`). A move from the page is the mode's own
action (`bot.interactions.activity`, each mode's `web.py`) with an actor built from the
verified session, never from what the page says.
"""
