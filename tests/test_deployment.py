"""The files that deploy the bot (#23): requirements.txt in step with pyproject.toml, the
Procfile, the systemd unit, the container image and its compose file, and the health check the
image runs, through the real process. No container engine runs here: .ci/image-steps runs the
image's build steps outside one, and hadolint lints the Dockerfile."""

from __future__ import annotations

import asyncio
import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from bot import health
from bot.runner import EXIT_TOKEN_REFUSED
from tests.discord_fake import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


def _lines(name: str) -> list[str]:
    """A file's lines that are not blank or comments."""
    text = (ROOT / name).read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def _pins() -> dict[str, str]:
    pins = (line.split("==") for line in _lines("constraints.txt"))
    return {name.lower().replace("_", "-"): version for name, version in pins}


def test_requirements_install_the_bot_at_the_tested_versions() -> None:
    """Buildpacks install requirements.txt: the project itself under constraints.txt, so its
    dependencies are pyproject's, each at the version CI tests."""
    assert _lines("requirements.txt") == ["-c constraints.txt", "."]
    pins = _pins()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for declared in project["dependencies"]:
        requirement = Requirement(declared)
        name = requirement.name.lower()
        assert name in pins, f"{name} has no pin in constraints.txt"
        assert requirement.specifier.contains(pins[name]), (declared, pins[name])
    assert (ROOT / ".python-version").read_text().strip() == "3.11"  # the buildpacks' Python


def test_the_procfile_runs_one_worker() -> None:
    assert _lines("Procfile") == ["worker: python -m bot"]


def _unit() -> configparser.RawConfigParser:
    unit = configparser.RawConfigParser(strict=False, delimiters=("=",))
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "contrib" / "mastermind-bot.service")
    return unit


def test_the_systemd_unit_writes_only_its_folders_and_stops_retrying_what_cannot_work() -> None:
    text = (ROOT / "contrib" / "mastermind-bot.service").read_text()
    service = _unit()["Service"]
    assert service["User"] == "mastermind" and service["Type"] == "exec"
    prevent = service["RestartPreventExitStatus"].split()
    assert "2" in prevent and str(EXIT_TOKEN_REFUSED) in prevent  # a bad setting, a bad token
    environment = dict(re.findall(r"^Environment=(\w+)=(\S+)$", text, re.MULTILINE))
    state, cache = service["StateDirectory"], service["CacheDirectory"]
    assert environment["DATABASE_PATH"].startswith(f"/var/lib/{state}/")
    assert environment["CACHE_DIR"] == f"/var/cache/{cache}"  # numba never writes elsewhere
    assert service["ProtectSystem"] == "strict" and service["KillMode"] == "mixed"


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_accepts_the_unit() -> None:
    result = subprocess.run(
        ["systemd-analyze", "verify", str(ROOT / "contrib" / "mastermind-bot.service")],
        capture_output=True,
        text=True,
    )
    complaints = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and "/opt/mastermind-bot/.venv/bin/python" not in line  # not installed
    ]
    assert complaints == []


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_scores_the_unit_below_3_exposed() -> None:
    """`systemd-analyze security` rates what the service may do; 8.5 ("EXPOSED") before #31."""
    unit = ROOT / "contrib" / "mastermind-bot.service"
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--root=/", str(unit)],
        capture_output=True,
        text=True,
    )
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    assert score, result.stdout + result.stderr
    assert float(score[1]) < 3.0, result.stdout


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def test_the_image_is_slim_unprivileged_compiled_and_keeps_its_data_on_a_volume() -> None:
    text = _dockerfile()
    assert re.search(r"^FROM python:3\.11-slim", text, re.MULTILINE)
    assert re.findall(r"^USER (\S+)", text, re.MULTILINE) == ["${BOT_UID}"]
    assert re.search(r"^ARG BOT_UID=10001$", text, re.MULTILINE)  # not root, unless asked
    cache = re.search(r"NUMBA_CACHE_DIR=(\S+)", text)
    assert cache
    # The build runs the script CI runs, compiling into the cache path the bot reads.
    assert 'sh /src/contrib/image-steps.sh /src "$NUMBA_CACHE_DIR" /data' in text
    assert 'chown -R bot:bot "$NUMBA_CACHE_DIR" /data;' in text
    assert 'VOLUME ["/data"]' in text and "DATABASE_PATH=/data/" in text
    assert re.search(r"^WORKDIR /data$", text, re.MULTILINE)  # a relative DATABASE_PATH too


def test_the_health_check_reads_the_file_the_bot_touches() -> None:
    text = _dockerfile()
    check = re.search(r'CMD \["python", "-m", "bot", "health", "--file", "([^"]+)"\]', text)
    run = re.search(r'^CMD \["python", "-m", "bot", "run", "--health-file", "([^"]+)"\]', text, 8)
    assert check and run and check[1] == run[1]
    assert "HEALTHCHECK" in text


@pytest.mark.skipif(not shutil.which("hadolint"), reason="hadolint not installed (test extra)")
def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    result = subprocess.run(
        ["hadolint", "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_image_leaves_secrets_and_databases_out() -> None:
    ignored = _lines(".dockerignore")
    for entry in (".env", "*.db*", ".venv", "venv", ".git", "build", ".hypothesis", ".cache"):
        assert entry in ignored


def test_compose_runs_the_bot_on_a_volume_with_an_optional_postgres() -> None:
    text = (ROOT / "compose.yaml").read_text()
    assert "env_file: .env" in text and "DATABASE_PATH: /data/mastermind.db" in text
    assert "- data:/data" in text
    postgres = text[text.index("\n  postgres:") :]
    assert 'profiles: ["postgres"]' in postgres and "image: postgres:" in postgres
    assert "postgresql://mastermind:mastermind@postgres:5432/mastermind" in text  # what to set
    bot = text[text.index("\n  bot:") : text.index("\n  backup:")]
    waits = "depends_on:\n      postgres:\n        condition: service_healthy"
    assert waits in bot and "required: false" in bot  # PostgreSQL's health, when it is there
    assert "healthcheck:" in postgres and "pg_isready" in postgres


def test_compose_and_systemd_back_up_daily_and_keep_seven() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    backup = compose[compose.index("\n  backup:") : compose.index("\n  postgres:")]
    assert "python -m bot backup --into /data/backups --keep 7; sleep 86400" in backup
    assert "- data:/data" in backup and "DATABASE_PATH: /data/mastermind.db" in backup
    service = (ROOT / "contrib" / "mastermind-bot-backup.service").read_text()
    assert "-m bot backup --into /var/lib/mastermind-bot/backups --keep 7" in service
    bot = (ROOT / "contrib" / "mastermind-bot.service").read_text()
    database = re.compile(r"^Environment=DATABASE_PATH=(\S+)$", re.MULTILINE)
    assert database.findall(service) == database.findall(bot)  # the bot's own database
    timer = (ROOT / "contrib" / "mastermind-bot-backup.timer").read_text()
    assert "OnCalendar=daily" in timer and "Persistent=true" in timer


def test_a_heartbeat_is_healthy_until_it_is_stale(tmp_path: Path) -> None:
    beat = tmp_path / "beat"
    assert health.check(beat)[0] == 1
    beat.touch()
    now = beat.stat().st_mtime
    assert health.check(beat, now + 10)[0] == 0
    assert health.check(beat, now + health.STALE_SECONDS + 1)[0] == 1


def _health(path: Path) -> int:
    command = [sys.executable, "-m", "bot", "health", "--file", str(path)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, timeout=60).returncode


async def test_the_running_bot_is_healthy_and_a_stopped_one_is_not(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    beat = tmp_path / "run" / "mastermind-bot.health"
    env = {"DATABASE_PATH": str(tmp_path / "m.db"), "DEV_GUILD_ID": "", "LOG_LEVEL": "INFO"}
    bot = await fake_discord.spawn_bot(env=env, args=["run", "--health-file", str(beat)])
    await bot.wait_ready(timeout=15.0)
    for _ in range(100):
        if beat.exists():
            break
        await asyncio.sleep(0.1)
    assert await asyncio.to_thread(_health, beat) == 0, bot.output
    assert await bot.stop(15.0) == 0
    assert not beat.exists()  # removed on a clean stop
    assert await asyncio.to_thread(_health, beat) == 1


async def test_a_health_file_that_cannot_be_written_is_said_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Not ignored in silence: else the container turns unhealthy with nothing in the log."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    beat = blocker / "mastermind-bot.health"
    env = {"DATABASE_PATH": str(tmp_path / "m.db"), "DEV_GUILD_ID": "", "LOG_LEVEL": "INFO"}
    bot = await fake_discord.spawn_bot(env=env, args=["run", "--health-file", str(beat)])
    await bot.wait_ready(timeout=15.0)
    for _ in range(100):
        if "cannot write the health file" in bot.output:
            break
        await asyncio.sleep(0.1)
    assert await bot.stop(15.0) == 0
    warnings = [line for line in bot.output.splitlines() if " WARNING " in line]
    assert len(warnings) == 1, bot.output
    assert f"cannot write the health file {beat} (" in warnings[0]


def test_constraints_pin_every_package_installed() -> None:
    """CI installs with `-c constraints.txt`: a package it does not pin (tzdata, which
    python-dateutil pulls in, before #31) is whatever the index has that day."""
    import importlib.metadata

    pins = _pins()
    installed = {
        (dist.metadata["Name"] or "").lower().replace("_", "-"): dist.version
        for dist in importlib.metadata.distributions()
    }
    tools = {"pip", "setuptools", "wheel", "mastermind-bot"}  # the venv's own, and this project
    unpinned = {name: v for name, v in installed.items() if name not in pins and name not in tools}
    assert unpinned == {}, "add to constraints.txt (docs/development.md says how to refresh it)"
    for name, version in installed.items():
        if name in pins:
            assert pins[name] == version, f"{name}: {version} installed, {pins[name]} pinned"


def _block_after(marker: str, text: str) -> str:
    """The first fenced shell block after `marker` in `text`."""
    start = text.index("```sh", text.index(marker)) + len("```sh")
    return text[start : text.index("```", start)]


@pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("runuser"), reason="needs root and runuser"
)
def test_the_systemd_update_runs_git_as_the_clones_owner() -> None:
    """The systemd layout's clone belongs to root: `git pull` as anyone else stops with
    "dubious ownership" (#31), so the documented update runs git and pip as root."""
    hosting = (ROOT / "docs" / "hosting.md").read_text()
    steps = _block_after("The systemd layout", hosting)
    assert "sudo git pull --ff-only" in steps and "sudo .venv/bin/pip install -e ." in steps
    assert "sudo systemctl start mastermind-bot-backup" in steps  # a backup first
    base = Path(tempfile.mkdtemp(prefix="opt-"))  # /tmp: a folder any user may enter, as /opt
    base.chmod(0o755)
    origin, clone = base / "origin", base / "mastermind-bot"
    try:
        subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True)
        commit = ["commit", "-q", "--allow-empty", "-m", "release"]
        identity = ["-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(["git", "-C", str(origin), *identity, *commit], check=True)
        subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
        pull = ["git", "-C", str(clone), "pull", "--ff-only"]
        as_other = subprocess.run(
            ["runuser", "-u", "nobody", "--", *pull], capture_output=True, text=True
        )
        assert "dubious ownership" in as_other.stderr
        as_owner = subprocess.run(pull, capture_output=True, text=True)
        assert as_owner.returncode == 0, as_owner.stderr
    finally:
        shutil.rmtree(base)
