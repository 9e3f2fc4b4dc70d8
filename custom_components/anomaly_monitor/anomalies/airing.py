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
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from ..core.models import EntityState, Transition
from ..core.open_states import opened_at

# How long after a hazard is over the door opened to air it out may stand open.
AIRING = timedelta(minutes=30)


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
