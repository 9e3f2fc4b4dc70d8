"""A door open with somebody staying beside it is in use, not "left open".

A sliding door open 35 min through a children's party, the back door open while the
family sits in the kitchen: the motion sensor of the door's own room read "somebody
here" for most of the time it stood open (``ATTENDED_SHARE``), and until minutes ago.
"Left open" is a door nobody is by: its clock runs from the later of its opening and the
last movement in its room (``unattended``). People passing through a hall now and then
(a PIR on for a minute at each pass) do not attend the front door: the share is small,
and it is judged as before. A door open much longer than any use (``ATTENDED_LIMIT``, an
hour of everyday use as ``long_stays.FLOOR``) is told however busy its room is: a pet
beside it does not keep a door closed. A door this home keeps open longer than that at
this hour (a balcony door open every summer evening: its learned limit is past the hour)
is in use while anybody moves in its room now and then: its clock runs from the last
movement there, whatever the share (a name-day party on the balcony, a hot night with
the door open for a draught), and it is told however busy at ``ATTENDED_FACTOR`` times
its limit. Past the hour, a room kept busy *and lit* with the household not known away
is people, not a pet (a paw lights no lamp): a reunion dinner by the open main door, a
party with the kitchen window open, are in use while the room keeps moving (``lit``),
and the door is told once nobody has moved there for its limit. A door whose room has
no motion sensor is judged as before, and so is one whose sensor does not see who uses
it (a camera over the street door: ``door_watchers``). Known by area, domain and device
class; no word of an id is read.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..home import HomeView, is_motion
from ..statistics.timeline import Interval, intervals

# An hour of everyday use; ``long_stays.FLOOR`` is this one (it asks ``lit_in_use`` here).
ATTENDED_LIMIT = timedelta(hours=1)
# Somebody was seen in the door's room for at least this share of the time it stood open.
ATTENDED_SHARE = 0.5
# A door whose learned limit is past ``ATTENDED_LIMIT``, attended, is told at this many
# times its limit.
ATTENDED_FACTOR = 2.0


def _seen_spans(
    home: HomeView, door: str, spell: Interval, blind: frozenset[str]
) -> list[tuple[datetime, datetime]]:
    """The spans within ``spell`` a motion sensor of the door's room read on (one that
    does not watch the door, ``blind``, not counted: ``door_watchers``)."""
    area = home.area(door)
    if area is None:
        return []
    seen: list[tuple[datetime, datetime]] = []
    for sensor in home.in_area(area):
        if not is_motion(sensor) or sensor.entity_id in blind:
            continue
        spans = intervals(home, sensor.entity_id)
        if not spans and sensor.state.lower() == "on":
            seen.append((spell.start, spell.end))  # on since before the window and still
        elif spans and spans[0].state.lower() == "off" and spans[0].start > spell.start:
            seen.append((spell.start, min(spans[0].start, spell.end)))  # on until then
        seen += [
            (max(i.start, spell.start), min(i.end, spell.end))
            for i in spans
            if i.state.lower() == "on" and i.start <= spell.end and i.end >= spell.start
        ]
    return sorted(seen)


def _covered(spans: list[tuple[datetime, datetime]]) -> timedelta:
    """How long the (sorted) spans cover together."""
    total, reached = timedelta(0), None
    for start, end in spans:
        begins = start if reached is None else max(start, reached)
        if end > begins:
            total += end - begins
        reached = end if reached is None else max(reached, end)
    return total


def unattended(
    home: HomeView, door: str, spell: Interval, blind: frozenset[str] = frozenset()
) -> timedelta:
    """How long the door has stood open with nobody staying in its room: the whole spell
    when somebody was there for less than ``ATTENDED_SHARE`` of it, else since the last
    movement there (``blind``: its room's sensors that do not watch it)."""
    spans = _seen_spans(home, door, spell, blind)
    if not spans or _covered(spans) < ATTENDED_SHARE * spell.duration:
        return spell.duration
    return spell.end - max(end for _, end in spans)


def left_open(
    home: HomeView,
    door: str,
    spell: Interval,
    limit: timedelta,
    blind: frozenset[str] = frozenset(),
) -> bool:
    """Whether the open ``spell`` is past ``limit`` with nobody by the door, or past
    ``ATTENDED_LIMIT`` (and ``limit``) however busy its room is, unless it is lit with
    the household not known away (then ``limit`` past the last movement there); for a door kept open
    longer than that here (``limit`` past it), ``limit`` past the last movement in its
    room, or ``ATTENDED_FACTOR`` times ``limit``."""
    if spell.duration <= limit:
        return False
    if limit >= ATTENDED_LIMIT:  # kept open for hours here: in use while its room lives
        last = max((end for _, end in _seen_spans(home, door, spell, blind)), default=spell.start)
        return spell.duration > ATTENDED_FACTOR * limit or spell.end - last > limit
    if spell.duration > ATTENDED_LIMIT and not _lit_with_people(home, door):
        return True  # busy, but perhaps only a pet by it: told past the hour
    return unattended(home, door, spell, blind) > limit


def lit_in_use(
    home: HomeView,
    door: str,
    spell: Interval,
    recent: timedelta,
    blind: frozenset[str] = frozenset(),
) -> bool:
    """Its room lit with the household not known away, and busy until less than
    ``recent`` ago: ``state_longer_than_usual`` (past the hour) waits as ``left_open``
    does (one door, one verdict)."""
    return _lit_with_people(home, door) and unattended(home, door, spell, blind) <= recent


def _lit_with_people(home: HomeView, door: str) -> bool:
    """A light of the door's room is on and the household is not known away."""
    area = home.area(door)
    if area is None or home.nobody_home:
        return False
    return any(s.domain == "light" and s.state.lower() == "on" for s in home.in_area(area))
