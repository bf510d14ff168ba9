"""A database outage on demand: a TCP proxy in front of the real PostgreSQL server.

Processes that connect through it (`url`) lose the database when the test cuts the link: every
connection through it is dropped, and new ones are accepted and dropped at once, as when a
network or a server goes away. `restore()` lets connections through again."""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit


class Outage:
    """`async with Outage(url) as outage:` then `outage.url`, `outage.cut()`, `outage.restore()`."""

    def __init__(self, url: str) -> None:
        self.target = urlsplit(url)
        self.up = True
        self._links: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None
        self.url = url

    async def __aenter__(self) -> Outage:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        netloc = self.target.netloc.rsplit("@", 1)
        where = f"127.0.0.1:{port}"
        self.url = urlunsplit(
            self.target._replace(netloc=f"{netloc[0]}@{where}" if len(netloc) == 2 else where)
        )
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def cut(self) -> None:
        """The database is gone: drop every connection, accept none."""
        self.up = False
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()

    def restore(self) -> None:
        self.up = True

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        host, port = self.target.hostname or "127.0.0.1", self.target.port or 5432
        try:
            up_reader, up_writer = await asyncio.open_connection(host, port)
        except OSError:
            writer.transport.abort()
            return
        self._links |= {writer, up_writer}
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        self._links -= {writer, up_writer}


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    sink.transport.abort()
