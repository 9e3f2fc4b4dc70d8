"""The door a lock was unlocked for: the contact of its area opened right after (core)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.unlock_passages import UnlockPassages
from custom_components.anomaly_monitor.core.models import EntityInfo

T0 = datetime(2027, 1, 9, 21, 30, tzinfo=UTC)
LOCK = EntityInfo("lock.zw_lock_1", "Lock 1", area="Hol")
CONTACT = EntityInfo("binary_sensor.ds01_opening", "DS01", area="Hol", device_class="opening")
GATE = EntityInfo("binary_sensor.contact_2", "Contact 2", area="Hol", device_class="door")
WINDOW = EntityInfo("binary_sensor.contact_3", "Contact 3", area="Hol", device_class="window")
KITCHEN = EntityInfo("binary_sensor.contact_4", "Contact 4", area="Kitchen", device_class="door")
INFOS = {info.entity_id: info for info in (LOCK, CONTACT, GATE, WINDOW, KITCHEN)}


def test_the_first_door_of_its_area_opened_after_the_unlock_is_its_door() -> None:
    passages = UnlockPassages()
    passages.unlocked(LOCK.entity_id, T0)
    passages.opened(WINDOW, T0 + timedelta(seconds=20), INFOS)  # a window is not walked
    passages.opened(KITCHEN, T0 + timedelta(seconds=30), INFOS)  # another room's door
    passages.opened(CONTACT, T0 + timedelta(seconds=50), INFOS)
    passages.opened(GATE, T0 + timedelta(seconds=70), INFOS)  # after its door: not it
    assert passages.door_of(LOCK.entity_id, T0) == CONTACT.entity_id
    assert passages.door_of(LOCK.entity_id, T0 - timedelta(hours=3)) is None  # not this unlock


def test_a_door_opened_long_after_the_unlock_is_not_known_as_its_door() -> None:
    passages = UnlockPassages()
    passages.unlocked(LOCK.entity_id, T0)
    passages.opened(CONTACT, T0 + timedelta(minutes=5), INFOS)
    assert passages.door_of(LOCK.entity_id, T0) is None


def test_each_unlock_learns_its_own_door() -> None:
    passages = UnlockPassages()
    passages.unlocked(LOCK.entity_id, T0)
    passages.opened(CONTACT, T0 + timedelta(seconds=30), INFOS)
    later = T0 + timedelta(hours=2)
    passages.unlocked(LOCK.entity_id, later)
    assert passages.door_of(LOCK.entity_id, later) is None  # not opened yet since
    passages.opened(GATE, later + timedelta(seconds=30), INFOS)
    assert passages.door_of(LOCK.entity_id, later) == GATE.entity_id
