"""Which tracked persons the household profile names as children.

HA has no attribute for a person's age. Parents say it where they describe the household,
as they say a dog lives here (``pets``): "Lina (13, hat ein Handy)", "Inès (16 ans)",
"Jordan 15, high school", "Minh (15 tuổi)". A person whose name is followed, after at
most a bracket or a comma, by a number under ``ADULT`` is a child of the household. A time
of day or a range of hours next to a name ("Karim 4h45", "Tarik 7:40", "Graeme 9-1") is no
age, nor is a number over 17 ("Boris (20)", "Graeme (57)"). A name the profile does not
give (a person named in another script there) is read as an adult: nothing is assumed.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
import re

ADULT = 18
# Longest name and profile read: the profile is free text the homeowner typed.
_MAX_NAME = 60
_MAX_PROFILE = 20_000
# After the name: spaces, an opening bracket (also the full-width one) or a comma, then
# one or two digits that do not go on as a time ("7:40", "4h45", "16.30"), a range of hours
# ("9-1") or a longer number.
_AGE_AFTER = r"\s*[(（,:]?\s*(\d{1,2})(?![\d:.,\-–]\d)(?!\s*(?:h\d|h\b|uhr\b|am\b|pm\b))"


@lru_cache(maxsize=32)
def _named_ages(profile: str, names: tuple[str, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    text = profile[:_MAX_PROFILE]
    for name in names:
        if not name or len(name) > _MAX_NAME:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w){_AGE_AFTER}", re.IGNORECASE)
        ages = [age for match in pattern.finditer(text) if (age := int(match.group(1))) < ADULT]
        if ages:
            found[name] = min(ages)
    return found


def minor_ages(profile: str, names: Iterable[str]) -> dict[str, int]:
    """The age the profile gives each of ``names`` it names as a child (under ``ADULT``)."""
    if not profile:
        return {}
    return dict(_named_ages(profile, tuple(sorted({name.strip() for name in names}))))


def minors_named(profile: str, names: Iterable[str]) -> frozenset[str]:
    """The ``names`` the profile gives an age under ``ADULT`` right after."""
    return frozenset(minor_ages(profile, names))
