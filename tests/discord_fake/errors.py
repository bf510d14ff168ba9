"""The two shapes of error the fake answers with: Discord's REST errors and OAuth2's.

Discord's REST API answers `{"message", "code"}` (with `errors` for a form); its OAuth2 token
endpoint answers as RFC 6749 says, `{"error", "error_description"}`. A handler raises one and
the server writes it.
"""

from __future__ import annotations

from typing import Any


class HttpError(Exception):
    """A Discord-style error response: status, JSON error code and message."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body discord.py turns into HTTPException/NotFound/Forbidden."""
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


class OAuthError(HttpError):
    """An OAuth2 error (RFC 6749 section 5.2): `invalid_client` is 401, the others 400."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(401 if error == "invalid_client" else 400, 0, description)
        self.error = error

    def body(self) -> dict[str, Any]:
        """`{"error": ..., "error_description": ...}`, as Discord's /oauth2/token answers."""
        return {"error": self.error, "error_description": self.message}
