"""Whether the household has pets, from the profile the homeowner wrote.

Dogs and cats set off ordinary motion sensors all day while the family is out; in HA
there is no attribute for "a pet lives here" (nor for pet-immune sensors), so the
profile is where a homeowner says it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .home import OPENING_DEVICE_CLASSES, HomeView
from .pet_words import NO_PET, PET_WORD


def has_pets(profile: str) -> bool:
    """The profile says a dog, a cat or another pet lives in the home."""
    return len(PET_WORD.findall(profile)) > len(NO_PET.findall(profile))


# A person's sign (a light switched on, a door opened) this close before motion began, or
# any time after, is the person moving: they switch the light on as they walk in. Motion
# earlier in the spell than that, with pets, is the pet's (the owner coming home later
# opens the door after the dog has moved all afternoon).
SIGN_REACH = timedelta(minutes=5)

# What a pet does not do: switch a light on, open a door or window, unlock, start media,
# move a cover.
HUMAN_STATES = {
    "light": frozenset({"on"}),
    "lock": frozenset({"unlocked", "unlocking", "open", "opening"}),
    "media_player": frozenset({"on", "playing"}),
    "cover": frozenset({"open", "opening"}),
}


def human_signs(home: HomeView, start: datetime, end: datetime) -> list[str]:
    """Entities that did something only a person does between ``start`` and ``end``."""
    return [entity_id for entity_id, _ in _first_signs(home, start, end)]


def first_human_sign(home: HomeView, start: datetime, end: datetime) -> datetime | None:
    """When something only a person does first happened between ``start`` and ``end``."""
    return min((when for _, when in _first_signs(home, start, end)), default=None)


def _first_signs(home: HomeView, start: datetime, end: datetime) -> list[tuple[str, datetime]]:
    """Each entity that did something only a person does in the span, and when it first did."""
    found: list[tuple[str, datetime]] = []
    for entity_id, transitions in home.history.items():
        domain = home.domain(entity_id)
        if domain == "binary_sensor":
            if home.device_class(entity_id) not in OPENING_DEVICE_CLASSES:
                continue
            wanted: frozenset[str] = frozenset({"on"})
        elif (wanted := HUMAN_STATES.get(domain, frozenset())) == frozenset():
            continue
        previous: str | None = None
        for transition in transitions:
            state = transition.state.lower()
            if start <= transition.when <= end and state in wanted and previous != state:
                found.append((entity_id, transition.when))
                break
            previous = state
    return found
