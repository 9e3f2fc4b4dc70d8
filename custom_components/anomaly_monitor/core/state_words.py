"""What a device's state says in words, per domain and device class, as Home Assistant shows it.

A sentence about a device ("the Front Door is open", "the Kitchen Smoke Detector is
reporting smoke") claims a value on one *aspect* of it: whether it is open, locked, on,
running, detecting something, home, heating, armed. This module reads a device's state in
the same aspects, with the words Home Assistant's own state translations use for each
domain and binary-sensor device class (door/window/opening/garage_door: open/closed; lock:
locked/unlocked/jammed/open; smoke/gas/moisture/carbon_monoxide/motion/occupancy/...:
detected/clear; person and device_tracker: home/away; climate: its hvac_action), so
``state_claims.py`` can tell a claim that contradicts the device from one it cannot judge.

``None`` always means "this device says nothing about that aspect" (a light is neither
locked nor unlocked; an unknown or unavailable device says nothing at all): such a claim
is not judged.
"""

from __future__ import annotations

from .models import EntityState

# Aspects a claim is about, and their values.
OPENING = "opening"  # open | closed
LOCK = "lock"  # locked | unlocked | jammed
POWER = "power"  # on | off
RUNNING = "running"  # running | stopped
DETECTION = "detection"  # detected | clear
PRESENCE = "presence"  # home | away
HVAC = "hvac"  # heating | cooling | drying | fan | idle | off (the climate's hvac_action)
ALARM = "alarm"  # armed | disarmed | triggered

NO_STATE = frozenset({"unknown", "unavailable", "none", ""})

# Binary sensors whose "on" is something found (HA shows Detected / Clear, Wet / Dry, ...).
_DETECTING_CLASSES = frozenset(
    {
        "carbon_monoxide", "gas", "heat", "moisture", "motion", "moving", "occupancy",
        "presence", "problem", "safety", "smoke", "sound", "tamper", "vibration", "cold",
    }
)  # fmt: skip
_OPENING_CLASSES = frozenset({"door", "garage_door", "opening", "window"})
# Domains that are simply on or off.
_SWITCHED = frozenset(
    {"light", "switch", "fan", "input_boolean", "siren", "humidifier", "remote", "automation"}
)


def state_value(device: EntityState, aspect: str) -> str | None:
    """The device's value on ``aspect`` in claim words, or None when it says nothing about it."""
    state = device.state.strip().lower()
    if state in NO_STATE:
        return None
    reader = _READERS.get(aspect)
    return reader(device, state) if reader else None


def _binary(device: EntityState, state: str, on: str, off: str) -> str | None:
    return on if state == "on" else off if state == "off" else None


def _opening(device: EntityState, state: str) -> str | None:
    domain, device_class = device.domain, device.info.device_class or ""
    if domain == "binary_sensor" and device_class in _OPENING_CLASSES:
        return _binary(device, state, "open", "closed")
    if domain in ("cover", "valve"):
        return state if state in ("open", "closed") else None  # opening/closing: moving
    if domain == "lock":  # HA's lock "open" is unlatched; a locked lock is not open
        return "open" if state == "open" else "closed" if state == "locked" else None
    return None


def _lock(device: EntityState, state: str) -> str | None:
    if device.domain == "lock":
        if state in ("locked", "unlocked", "jammed"):
            return state
        return "unlocked" if state == "open" else None  # locking/unlocking: moving
    if device.domain == "binary_sensor" and device.info.device_class == "lock":
        return _binary(device, state, "unlocked", "locked")  # HA: on means unlocked
    return None


def _power(device: EntityState, state: str) -> str | None:
    domain = device.domain
    if domain in _SWITCHED or (
        domain == "binary_sensor" and (device.info.device_class or "") in ("", "power", "plug")
    ):
        return _binary(device, state, "on", "off")
    if domain in ("climate", "water_heater", "media_player", "vacuum"):
        if state == "off":
            return "off"
        return None if state in ("standby", "idle", "docked") else "on"
    return None


def _running(device: EntityState, state: str) -> str | None:
    if device.domain == "binary_sensor" and device.info.device_class in ("running", "moving"):
        return _binary(device, state, "running", "stopped")
    if device.domain in ("switch", "fan"):
        return _binary(device, state, "running", "stopped")
    if device.domain == "climate":
        action = str(device.attributes.get("hvac_action", "")).lower()
        if action in ("heating", "cooling", "drying", "fan", "preheating", "defrosting"):
            return "running"
        return "stopped" if action in ("idle", "off") or state == "off" else None
    return None


def _detection(device: EntityState, state: str) -> str | None:
    if state in ("detected", "clear"):  # integrations that write the words themselves
        return state
    if device.domain == "binary_sensor" and device.info.device_class in _DETECTING_CLASSES:
        return _binary(device, state, "detected", "clear")
    return None


def _presence(device: EntityState, state: str) -> str | None:
    if device.domain in ("person", "device_tracker"):
        return "home" if state == "home" else "away"  # not_home or another zone
    if device.domain == "binary_sensor" and device.info.device_class == "presence":
        return _binary(device, state, "home", "away")
    return None


def _hvac(device: EntityState, state: str) -> str | None:
    if device.domain != "climate":
        return None
    action = str(device.attributes.get("hvac_action", "")).strip().lower()
    if action and action not in NO_STATE:
        return {"preheating": "heating", "defrosting": "heating"}.get(action, action)
    return "off" if state == "off" else None  # a mode is not what it is doing


def _alarm(device: EntityState, state: str) -> str | None:
    if device.domain != "alarm_control_panel":
        return None
    if state.startswith("armed_"):
        return "armed"
    return state if state in ("disarmed", "triggered") else None  # pending, arming: moving


_READERS = {
    OPENING: _opening,
    LOCK: _lock,
    POWER: _power,
    RUNNING: _running,
    DETECTION: _detection,
    PRESENCE: _presence,
    HVAC: _hvac,
    ALARM: _alarm,
}

# Values that do not contradict each other although they differ: an alarm going off is
# armed; a jammed lock may be either; an hvac that is off is not heating but is idle.
_COMPATIBLE = frozenset(
    {
        ("armed", "triggered"),
        ("locked", "jammed"),
        ("unlocked", "jammed"),
        ("idle", "off"),
    }
)


def agrees(claimed: str, actual: str) -> bool:
    """Whether a claimed value fits the device's actual value on the same aspect."""
    return claimed == actual or (claimed, actual) in _COMPATIBLE


def implied(device: EntityState, aspect: str, claimed: str) -> bool | None:
    """A claim on an aspect the device lacks, judged through one it has; None: unsure.

    A door that is locked is closed (the live failure "the Front door contact and Front
    door lock are locked" for an open door); a device that is heating, cooling or running
    is on. Only the contradicting direction is sure: a closed door may be unlocked.
    """
    if aspect == LOCK and claimed == "locked" and state_value(device, OPENING) == "open":
        return False
    active = (aspect == HVAC and claimed in ("heating", "cooling")) or (
        aspect == RUNNING and claimed == "running"
    )
    if active and state_value(device, POWER) == "off":
        return False
    return None
