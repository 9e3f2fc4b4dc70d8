"""A door opened to air out a hazard is its answer until the home is aired.

Blind set 17 (Ñuñoa): carbon monoxide in the logia at 07:05; Pablo shut the gas and opened
the patio door at 07:07, and acknowledged the CO at 07:12. The CO cleared at 07:19, the
door shut at 07:24, and "the patio door stayed open for 17 min (from 07:07)" was pushed:
the answer to the CO, told as news after the homeowner had answered it, because the door
last changed after the CO was over. Set 16 (Mandaluyong, Chengdu): the balcony door opened
a minute after the kitchen's smoke, the smoke marked a false alarm, the door shut 10-14 min
after the smoke cleared: "left open", pushed.

A door, window or switch opened within ``RESPONSE`` of a hazard's onset, and not opened
again since, is the hazard's answer while the hazard lasts and for ``AIRING`` after it
ended: a room aired out of smoke, gas or CO is shut within half an hour. One shut later,
or opened again after the household's answer (the same door opened long after), is news.

Blind set 22 (Kautokeino): the front door stood open from 21:28 as the cousins came and
went; the stove's smoke sounded at 21:40, acknowledged at 21:50, and "the front door has
been open for 25 min" was pushed at 21:54, the door held open against the smoke until
22:09. A door or window standing open as smoke, CO or gas sounds in its home, not shut
since, is held open to air it: the household's answer while the alarm lasts and for
``AIRING`` after it (not while nobody is home: nobody holds it open then). One still open
longer after the air cleared is news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from ..core.models import EntityState, Transition
from ..core.open_states import opened_at, stands_open

# How long after a hazard is over the door opened to air it out may stand open.
AIRING = timedelta(minutes=30)
# The hazards a household answers by opening the home to the air.
AIRED_HAZARDS = frozenset({"smoke", "carbon_monoxide", "gas"})


def aired_out(
    subject: EntityState,
    transitions: Sequence[Transition],
    answer: tuple[datetime, datetime],
    ended: datetime,
) -> bool:
    """``subject`` was last opened within ``answer`` (the span of the household's answer
    to a hazard) and last changed (shut) by ``AIRING`` after the hazard ``ended``."""
    changed = subject.last_changed
    own = [t for t in transitions if t.entity_id == subject.entity_id]
    opened = opened_at(own, subject.domain)
    if changed is None or not opened:
        return False
    return answer[0] <= opened[-1] <= answer[1] and changed <= ended + AIRING


def held_open_to_air(subject: EntityState, began: datetime, ended: datetime, now: datetime) -> bool:
    """``subject`` (an opening) stood open as a hazard that is aired out ``began``, not
    shut since, and ``now`` is within ``AIRING`` of the hazard's end (``ended``: now,
    while it lasts)."""
    changed = subject.last_changed
    return (
        stands_open(subject) and changed is not None and changed <= began and now <= ended + AIRING
    )


def aired_hazard(evidence: Iterable[str], entities: Mapping[str, EntityState]) -> bool:
    """A hazard shown by ``evidence`` that the household airs out (``AIRED_HAZARDS``)."""
    return any(
        (state := entities.get(e)) is not None and state.info.device_class in AIRED_HAZARDS
        for e in evidence
    )
