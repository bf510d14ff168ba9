# mastermind-bot as a container image; docs/hosting.md, "Docker", says how to run it.
#   docker build -t mastermind-bot .
#   docker run -d --env-file .env -v mastermind-data:/data mastermind-bot
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    NUMBA_CACHE_DIR=/opt/mastermind-bot/cache \
    DATABASE_PATH=/data/mastermind.db

# The same steps CI runs outside a container: install the bot, compile the solver into
# NUMBA_CACHE_DIR (so a start on the same kind of CPU loads it in about a second), make /data.
COPY . /src
RUN sh /src/contrib/image-steps.sh /src "$NUMBA_CACHE_DIR" /data \
    && groupadd --system --gid 10001 bot \
    && useradd --system --uid 10001 --gid bot --no-create-home --home-dir /data bot \
    && chown -R bot:bot "$NUMBA_CACHE_DIR" /data \
    && rm -rf /src

USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
STOPSIGNAL SIGTERM
# Healthy while the bot is connected to Discord: it touches the file every 30 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health", "--file", "/tmp/mastermind-bot.health"]
CMD ["python", "-m", "bot", "run", "--health-file", "/tmp/mastermind-bot.health"]
