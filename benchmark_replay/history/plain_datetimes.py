"""Plain datetimes under freezegun, for the long replays.

freezegun makes every ``datetime`` HA or the monitor asks for (``now()``,
``fromtimestamp()``, and each sum or difference of those) a ``FakeDatetime``, whose
arithmetic runs in Python: over weeks of a home that was ~5-10 % of the replay's CPU.
While this is active the same calls return plain ``datetime`` objects of the same
moment, as they are in a live Home Assistant: only the class differs (``isinstance``
checks against the patched ``datetime`` still hold: freezegun's metaclass answers them
for every real ``datetime``), never the value.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import freezegun
from pytest_homeassistant_custom_component import patch_time


def _plain(moment: datetime) -> datetime:
    return moment


@contextmanager
def plain_datetimes() -> Iterator[None]:
    """freezegun's conversions to ``FakeDatetime`` give the plain value back meanwhile."""
    api = freezegun.api
    saved = (api.datetime_to_fakedatetime, patch_time.ha_datetime_to_fakedatetime)
    api.datetime_to_fakedatetime = _plain
    patch_time.ha_datetime_to_fakedatetime = _plain
    try:
        yield
    finally:
        api.datetime_to_fakedatetime, patch_time.ha_datetime_to_fakedatetime = saved
