"""A contact's first uses read as used from inside, before ``used_from_inside`` has learned.

``used_from_inside`` waits for three days of use (``MIN_DAYS``) and a dozen openings: in a
home set up this morning, the kitchen cupboard opened at noon by a grandmother who carries
no phone, with the one tracked resident out, was told as an entry into the empty home.
How it was used since it was first watched already says what it is:

- in bursts: several looks within ``TOGETHER`` of each other, of itself or of another
  contact of its area (``PER_BURST`` openings a burst or more, on average, counting the
  one under way as a burst of its own: a back door opened to let the dog out and again to
  let it in is a pair, not a burst);
- every stay short (``SHORT``: a look into the cupboard, the fridge);
- never opened within ``WAY_REACH`` of a tracked arrival or departure (the way anybody
  came or went is an entrance).

At least ``MIN_OPENS`` openings. Not stored: after a restart, the first uses are counted
again (until then, the contact is judged as before).
"""

from __future__ import annotations

MIN_OPENS = 3
PER_BURST = 2.5
# More contacts than this are not read cold (judged as before).
MAX_CONTACTS = 300

_OPENS, _STARTS, _LONG, _NEAR = range(4)


class FirstUses:
    """Per contact: [openings, bursts begun, stays not short, openings near a presence
    change], since it was first watched in this run."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = {}

    def opened(self, entity_id: str, begins_a_burst: bool) -> None:
        """``entity_id`` opened: alone, or within a burst already under way."""
        counts = self.counts.get(entity_id)
        if counts is None:
            if len(self.counts) >= MAX_CONTACTS:
                return
            counts = self.counts[entity_id] = [0, 0, 0, 0]
        counts[_OPENS] += 1
        counts[_STARTS] += begins_a_burst

    def closed(self, entity_id: str, short: bool) -> None:
        """A stay of ``entity_id`` ended, short or not."""
        if not short and (counts := self.counts.get(entity_id)) is not None:
            counts[_LONG] += 1

    def near_presence(self, entity_id: str) -> None:
        """An opening of ``entity_id`` came within reach of an arrival or a departure."""
        if (counts := self.counts.get(entity_id)) is not None:
            counts[_NEAR] += 1

    def read_inside(self, entity_id: str) -> bool:
        """Whether its uses so far were looks in bursts from inside, never a way."""
        counts = self.counts.get(entity_id)
        if counts is None or counts[_OPENS] < MIN_OPENS:
            return False
        return (
            counts[_LONG] == 0
            and counts[_NEAR] == 0
            and counts[_OPENS] >= PER_BURST * counts[_STARTS]
        )
