"""asyncio.run for tests that drive the app with protocol clients (bench/st_client.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures


def run(coro):
    """asyncio.run in a thread of its own: the browser tests' session-scoped Playwright (sync API) keeps an
    event loop running in the main thread for the rest of the session, and asyncio.run refuses to start
    another there ("cannot be called from a running event loop")."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
