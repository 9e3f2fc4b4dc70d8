"""What a climate entity's state (not its attributes) says its unit is doing."""

from __future__ import annotations

from collections.abc import Mapping


def action_from_state(state: str) -> str:
    """What a climate state says the unit is doing: heating, cooling or other."""
    text = state.lower()
    if "(" in text:  # "heat (heating)": the action in brackets
        text = text.partition("(")[2]
    if "heating" in text or text.strip() == "heat":
        return "heating"
    if "cooling" in text or text.strip() == "cool":
        return "cooling"
    return "other"


def action_of(attributes: Mapping[str, object], state: str) -> str:
    """What the unit is doing: its ``hvac_action`` when it reports one, otherwise what its
    mode says. An IR-controlled split unit (Tuya IR, SmartIR, Broadlink) or a plain
    thermostat never reports an action: set to cool, it is meant to be cooling, and a room
    climbing under it is the cooling failing (set 13's child's room, 26 -> 31 C while HA
    still read ``cool``)."""
    action = attributes.get("hvac_action")
    if action is not None:
        return str(action).lower()
    return action_from_state(state)
