"""A contact of device class ``opening`` (Aqara's default) beside a lock is its door.

Found on a real-HA walk: the lock and its ``opening`` contact in one hall were not one
entrance, so the door standing open while nobody was home, or for an hour, was not told
as an entrance's.
"""

from __future__ import annotations

from dataclasses import replace

from custom_components.anomaly_monitor.core.device_roles import Role, role_of
from custom_components.anomaly_monitor.core.models import EntityState
from custom_components.anomaly_monitor.core.rules.security import entry_unsecured_while_away

from .core_factories import entity, environment, home

AWAY = environment(persons_home=0)


def _hall(door_state: str = "off", *, lock_area: str | None = "Hall") -> list[EntityState]:
    return [
        entity("binary_sensor.0x54ef_contact", door_state, area="Hall", device_class="opening"),
        entity("lock.front", "locked", area=lock_area),
        entity("binary_sensor.0x54ef_occupancy", "off", area="Hall", device_class="motion"),
    ]


def test_an_opening_contact_beside_a_lock_is_an_entrance() -> None:
    view = home(_hall())
    guess = role_of(view, "binary_sensor.0x54ef_contact")
    assert guess is not None
    assert guess.role is Role.EXTERIOR_DOOR
    # Without a lock by it, an ``opening`` contact may be a cupboard or a fridge: no role.
    assert role_of(home(_hall(lock_area="Garage")), "binary_sensor.0x54ef_contact") is None


def test_the_opening_door_of_a_lock_open_while_away_is_told() -> None:
    (finding,) = entry_unsecured_while_away(home(_hall("on"), AWAY))
    assert finding.subject == "binary_sensor.0x54ef_contact"
    assert "lock.front" in finding.evidence


def test_a_contact_on_the_locks_own_device_is_its_door() -> None:
    """A Nuki's door sensor shares the lock's device, wherever the areas say."""
    contact, lock, motion = _hall("on", lock_area=None)
    lock = replace(lock, info=replace(lock.info, device="nuki"))
    contact = replace(contact, info=replace(contact.info, device="nuki", area=None))
    (finding,) = entry_unsecured_while_away(home([contact, lock, motion], AWAY))
    assert finding.subject == contact.entity_id


def test_of_two_opening_contacts_by_a_lock_neither_is_taken() -> None:
    """A cupboard and a door, both ``opening``, in the lock's hall: which is not known."""
    states = [
        *_hall(),
        entity("binary_sensor.0x99aa_contact", "off", area="Hall", device_class="opening"),
    ]
    assert role_of(home(states), "binary_sensor.0x54ef_contact") is None
