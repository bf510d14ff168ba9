# mastermind-bot as a container image; docs/hosting.md, "Docker", says how to run it.
#   docker build -t mastermind-bot .
#   docker run -d --env-file .env -v mastermind-data:/data mastermind-bot
FROM python:3.11-slim-bookworm

# The user the bot runs as. A host that mounts its volume owned by root (Fly.io) needs 0 here:
# fly.toml [build.args] BOT_UID = "0" (docs/hosting.md).
ARG BOT_UID=10001

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NUMBA_CACHE_DIR=/opt/mastermind-bot/cache \
    DATABASE_PATH=/data/mastermind.db

# The same steps CI runs outside a container: install the bot, compile the solver into
# NUMBA_CACHE_DIR (so a start on the same kind of CPU loads it in about a second), make /data.
COPY . /src
RUN sh /src/contrib/image-steps.sh /src "$NUMBA_CACHE_DIR" /data \
    && if [ "$BOT_UID" != 0 ]; then \
        groupadd --system --gid "$BOT_UID" bot \
        && useradd --system --uid "$BOT_UID" --gid bot --no-create-home --home-dir /data bot \
        && chown -R bot:bot "$NUMBA_CACHE_DIR" /data; \
    fi \
    && rm -rf /src

USER ${BOT_UID}
WORKDIR /data
VOLUME ["/data"]
STOPSIGNAL SIGTERM
# Healthy while the bot is connected to Discord: it touches the file every 30 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health", "--file", "/tmp/mastermind-bot.health"]
CMD ["python", "-m", "bot", "run", "--health-file", "/tmp/mastermind-bot.health"]
