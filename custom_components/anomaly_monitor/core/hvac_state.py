"""What a climate entity's state (not its attributes) says its unit is doing."""

from __future__ import annotations


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
