"""The preview tells what live told in a home with onboarding's owner (no trackers).

Walk 10: the live monitor told a break-in while Alice was out; the 1-day preview told
nothing. Onboarding's ``person.owner`` has no device trackers and reads ``unknown`` for
good: live leaves such a person out of who is home (``can_be_located``), but the preview
replays states with only the attributes the detectors read, without ``device_trackers``,
so the owner counted as somebody whose whereabouts are unknown, and "nobody home" never
held in the preview.
"""

from __future__ import annotations

from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from . import history_home
from .history_home import ALICE, DOOR, preview_as
from .recorder_home import (  # noqa: F401 (fixtures, found by name)
    auto_enable_custom_integrations,
    quiet_sqlalchemy,
    recorder_config,
)
from .test_history_replay import _live_home, _told

OWNER = "person.owner"


@pytest.fixture
def persistent_database() -> bool:
    """As the history replay tests."""
    return True


async def test_the_preview_tells_the_entry_while_away_with_an_untracked_owner(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_admin_user: MockUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    owner: dict[str, Any] = {"friendly_name": "Owner", "device_trackers": []}
    monkeypatch.setitem(history_home.ATTRIBUTES, OWNER, owner)
    monkeypatch.setitem(history_home.INITIAL, OWNER, "unknown")
    alice = {"friendly_name": "Alice", "device_trackers": ["device_tracker.alice_phone"]}
    monkeypatch.setitem(history_home.ATTRIBUTES, ALICE, alice)
    entry, seen, _ = await _live_home(hass, freezer)
    live_told = _told(seen.alarms)
    assert any(DOOR in evidence for _, _, evidence in live_told), live_told

    response = await preview_as(hass, hass_admin_user.id, entry.entry_id)
    assert response is not None
    told = [(t["rule"], tuple(sorted(t["evidence"]))) for t in response["told"]]
    assert told == [(rule, evidence) for _, rule, evidence in live_told]
