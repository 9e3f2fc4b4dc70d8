"""A person at home who may have fallen is one incident, whichever sign told it first.

The bathroom light on for hours in the night with nobody moving in the bathroom
(``light_on_long_at_night``, about the light) and no movement anywhere for far longer
than usual (``no_movement_while_home``, about the home; ``still_in_room_far_longer``, by
the room somebody was last seen in) are rules with their own subjects, and one person on
the floor: told apart, the phone rang twice for one fall. Their findings are
one incident (``core.incidents.incident_key``), told once; the second joins the first.
"""

from __future__ import annotations

from .models import HOME_SUBJECT

# The stillness of the whole home: nobody moving anywhere, no room of its own.
WHOLE_HOME_STILLNESS = "no_movement_while_home"
# Rules that say somebody at home has not moved for too long: they may have fallen.
STILLNESS_RULES = frozenset(
    {WHOLE_HOME_STILLNESS, "light_on_long_at_night", "still_in_room_far_longer"}
)
STILLNESS_INCIDENT = f"{HOME_SUBJECT}:stillness"


def is_stillness(rule: str) -> bool:
    """A rule whose finding means a person at home may be lying still."""
    return rule in STILLNESS_RULES
