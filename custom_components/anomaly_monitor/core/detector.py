"""The detector protocol every detection strategy implements."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .models import ContextWindow, Verdict


@runtime_checkable
class Detector(Protocol):
    """Judges a context window. Implementations must not block: I/O is awaited."""

    name: str

    async def async_analyze(self, window: ContextWindow) -> Verdict:
        """Return a verdict for ``window``; never raise on bad input data."""
