"""The one URL redactor: no password survives, everything else of the URL does."""

import pytest

from bot.redact import redact


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:hunter2@127.0.0.1:5432/x", "postgresql://bot:***@127.0.0.1:5432/x"),
        ("postgres://bot:p@ss/w:rd@db/m", "postgres://bot:***@db/m"),
        ("mysql://u:pw@h/db", "mysql://u:***@h/db"),
        ("postgresql://[::1]:5432/m", "postgresql://[::1]:5432/m"),
        ("postgresql://bot@db/m", "postgresql://bot@db/m"),
        (
            "postgresql://db/m?user=bot&password=pw&ssl=1",
            "postgresql://db/m?user=bot&password=***&ssl=1",
        ),
        ("postgresql://bot:pw@[::1]:5432/m", "postgresql://bot:***@[::1]:5432/m"),
        ("mastermind.db", "mastermind.db"),
    ],
)
def test_the_password_is_hidden_and_the_rest_kept(url: str, shown: str) -> None:
    assert redact(url) == shown
