"""Motion sensors that watch the outside: no sign of somebody inside the home.

A camera over the yard or the driveway, a PIR in the garden, a beam along the fence: each
sees whoever is about the grounds, the street or the gate (a neighbour, a delivery, a
boy coming over the back wall), not somebody inside. Read as a sign of somebody inside
(``somebody_in``), the yard camera seeing a thief a minute before he slid a window's
louvres out made his window "opened from inside", hours after the whole household had
gone out by the door together; and a garden camera's motion while the trackers are out
made a home "lived in while the trackers are away".

Read from the sensor's area, the place a homeowner names (never its id or friendly
name): whole words, as ``role_words`` reads names, in English, German, Dutch, French and
Spanish. A hint only: an area named otherwise is judged as before. Only places that are
outside the house wherever they are: a patio, a courtyard, a terrace or a balcony may be
the heart of the home (a colonial house round its patio where the grandmother sits all
day; a flat's balcony is reached only from inside) and stay signs as before.
"""

from __future__ import annotations

from functools import lru_cache

from .home import HomeView
from .role_words import says

OUTDOOR_AREA_WORDS = (
    "yard", "front yard", "back yard", "backyard", "garden", "front garden", "back garden",
    "driveway", "drive", "carport", "porch", "lawn", "street", "outside", "outdoor",
    "outdoors", "gate",  # en
    "garten", "vorgarten", "einfahrt", "auffahrt", "straße", "draußen",  # de
    "tuin", "voortuin", "achtertuin", "oprit", "straat", "buiten",  # nl
    "jardin", "allée", "rue", "extérieur",  # fr
    "jardín", "calle", "exterior", "entrada de autos",  # es
)  # fmt: skip


@lru_cache(maxsize=1024)
def outdoor_area(area: str) -> bool:
    """An area named as a place outside the house (a yard, a garden, the driveway)."""
    return says(area, OUTDOOR_AREA_WORDS)


def watches_outside(home: HomeView, entity_id: str) -> bool:
    """A sensor in an area outside the house: what it sees is no sign of anybody inside."""
    area = home.area(entity_id)
    return area is not None and outdoor_area(area)
