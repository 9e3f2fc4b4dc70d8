"""The walk of ``somebody_in``: who is inside, read step by step from signs and openings.

The home's signs (motion, an inner contact's complete use) and openings (doors, windows,
locks, covers), with the trackers leaving, are walked in time order. The walk knows the
last sign of somebody inside, whether somebody went out since (a way out opened from
inside, the trackers leaving) and whether a sign after showed that somebody stayed in.
``somebody_in`` builds the steps and asks the walk; the rules of the walk are here.

**The last one going out.** A door without a lock of its own (a street door, a shop
shutter's door, a chawl's door) is no ``way_out``: opened from inside it reads as a sign
of somebody in, as a window opened from inside does. But a door's use is somebody
*passing* it, maybe the last one going out: when nothing inside moves after it, it shows
nobody inside beyond ``INSIDE_REACH``, as a sign long after the trackers left does
(``late``). A motion spell under way as the door opened, ending after it, is the
sensor's hold running out (whoever moved may be the one who went): no sign. Somebody who
stays in moves again, and with that sign the door is behind them.

**Somebody who stays.** The phones report their leaving minutes after the door: the
trackers leaving within ``PASSAGE`` of a way out opened from inside, with motion beginning
elsewhere since (not a hold running out), is that passage, not a second one. Motion
beginning past ``PASSAGE`` after the trackers left,
with nobody come in from outside before it, shows somebody stays in this spell (a son
with carers who relieve each other): motion by the door just after one of them opened
it is as likely whoever stays as whoever went, and ``somebody_in.stayed_in`` reads this
spell as lived in while the trackers are away.

**What keeps no person's hours.** A motion sensor that moves at nearly every hour on most
days whoever is home (``UntrackedLife.round_the_clock``: a cat in the hall and kitchen
day and night, not yet known as a pet's) shows somebody inside only to open a door within
``HOURLESS_REACH`` after it (as long as anybody about inside shows again: ``STAY_SHOWS``; a
night carer seen every few minutes opens the door to the next); its motion half an hour
before is no person who opened it (the cat, the hour before a stranger comes in). Only
until the home showed motion while every tracker was away on an earlier day: from then its
away normal (``lived_while_away``) tells a pet's sensor from a phoneless resident's, whose
round-the-clock day (a mother at home, a cat beside her) keeps still spells longer than that.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

# A sign of somebody inside this soon before an opening: they opened it.
INSIDE_REACH = timedelta(hours=1)
# Whether anybody stayed in as the others left shows within this long.
STAY_SHOWS = timedelta(minutes=15)
# Openings this close to one from inside are the same passage (the door, then the gate).
PASSAGE = timedelta(minutes=5)
# A sign of a sensor that keeps no person's hours this soon before an opening: somebody
# about inside, who shows within ``STAY_SHOWS`` (a night carer moving between the hall and
# the patient's room before the handover at the door); earlier, maybe the pet's round.
HOURLESS_REACH = STAY_SHOWS


@dataclass
class Walk:
    """Where the chain of signs and openings stands."""

    last_sign: datetime | None = None  # None: nobody known inside (before any sign, or
    # since an opening from outside: whoever came in shows by their next sign)
    out_at: datetime | None = None  # somebody went out (or the trackers left), unfollowed
    out_area: str | None = None  # where they went out (None: anywhere)
    late: bool = False  # a sign long after the trackers left or somebody went out
    by_contact: bool = False  # the last sign is an inner contact's use (no motion since)
    by_door: bool = False  # the last sign is a door opened from inside (maybe going out)
    out_blind: bool = False  # went out when only a contact showed anybody (maybe them)
    lived: bool = False  # the home is lived in while the trackers are away (learned)
    movers: frozenset[str] = frozenset()  # sensors that moved while the trackers were away
    unseen_until: datetime | None = None  # Home Assistant was down until then
    passed_out: datetime | None = None  # the last way out opened from inside (kept after
    # a sign showed somebody stayed in: the phones of those who went report it later)
    left_at: datetime | None = None  # the trackers left (this away spell began)
    stayed: bool = False  # somebody showed inside since, past ``PASSAGE`` after the
    # trackers left, no entry from outside before: somebody stays in this spell
    entered: bool = False  # somebody came in from outside since the trackers left
    last_onset: datetime | None = None  # the last motion beginning (not a hold running
    # out, not an inner contact's use)
    hourless: bool = False  # the last sign is a sensor's that keeps no person's hours

    def from_inside(self, when: datetime, forced: bool = False) -> bool:
        if forced and self.by_contact:
            return False  # a door whose lock stayed locked: a cupboard used is no key
        unseen = self.unseen_until
        if self.last_sign is not None and unseen is not None and self.last_sign < unseen:
            return False  # nobody seen inside since the power came back
        if self.out_at is not None:
            return not self.out_blind and when - self.out_at <= PASSAGE
        reach = HOURLESS_REACH if self.hourless else INSIDE_REACH
        return self.last_sign is not None and when - self.last_sign <= reach

    def sign(
        self,
        when: datetime,
        area: str | None = None,
        contact: bool = False,
        ends: bool = False,
        hourless: bool = False,
    ) -> None:
        if ends and self.by_door and self.out_at is None:
            return  # a spell under way as the door opened, its hold running out: no new sign
        if self.out_at is not None:
            near = self.out_area is None or area is None or area == self.out_area
            if when - self.out_at <= PASSAGE and near and not self.stayed:
                # whoever went out, on their way (where somebody stays in this spell, as
                # likely whoever stays, seeing them out or letting the next one in)
                return
            # Somebody stayed in, in a home lived in while the trackers are away; else (or
            # long after) it is not known who moves now. (Whether motion after a long
            # quiet is whoever stayed in is ``stayed_in``'s, by ``movers``: kept "inside
            # now" for hours, a still grandmother was judged as fallen.)
            self.late |= not self.lived or when - self.out_at > INSIDE_REACH
            self.out_at, self.out_blind = None, False
        self.last_sign, self.by_contact, self.by_door = when, contact, False
        self.hourless = hourless and not contact
        if ends or contact:
            # A hold running out may be after whoever moved has gone, and an inner door
            # shut may be the last one out shutting it behind them: no stay shown.
            return
        self.last_onset = when
        if self.left_at is not None and not self.entered and when - self.left_at > PASSAGE:
            self.stayed = True

    def unseen(self, when: datetime) -> None:
        """Nothing was watched until ``when`` (a power cut): a door used since then, before
        anybody inside shows again, may be whoever came in unseen; who was inside before
        it still moves about inside (``stayed_in``)."""
        self.unseen_until = when

    def went_out(self, when: datetime, shut: datetime | None = None) -> None:
        """Somebody left (the trackers, a way out opened from inside): whether anybody
        stayed in shows only by a sign after. But the trackers leaving within ``PASSAGE``
        of a way out opened from inside, after a sign since that passage showed somebody
        stayed in, are the phones of those who went out by it reporting late (a phone
        reports its leaving minutes after the door): nobody else went out. ``shut``: when
        a door last shut before (motion before it may be the last one on their way out)."""
        self.left_at, self.stayed, self.entered = when, False, False
        passed = self.passed_out
        if (
            passed is not None
            and self.out_at is None
            and self.last_onset is not None
            and passed < self.last_onset < when
            and (shut is None or shut < self.last_onset)
            and when - passed <= PASSAGE
        ):
            return
        if self.last_sign is not None:
            self.out_at, self.out_area = when, None
            # Only a cupboard used before: maybe by whoever left. Nobody is known inside,
            # and a door opened just after is no part of their passage out.
            self.out_blind = self.by_contact
            if self.by_contact:
                self.last_sign = None

    def opening(
        self, when: datetime, leaves: bool, area: str | None, forced: bool, door: bool = False
    ) -> None:
        """An opening: from inside (a way out: somebody going out; a window, the fridge:
        somebody in; a ``door`` without a lock: somebody in, or the last one going out),
        else an entry from outside."""
        if self.from_inside(when, forced):
            if leaves:
                self.out_at, self.out_area = when, area
                self.passed_out = when
            elif self.out_at is None:
                self.last_sign = when  # a window or the fridge opened: somebody is in
                self.by_door, self.hourless = door, False
            return
        self.last_sign = self.out_at = self.passed_out = None  # an entry from outside
        self.out_blind = self.stayed = False
        self.entered = True
        self.late = self.by_contact = self.by_door = self.hourless = False

    def inside_at(self, now: datetime) -> datetime | None:
        """The last sign of somebody inside at ``now``, if they are still in: they showed
        within ``INSIDE_REACH``, or earlier by a sign that no door or departure followed
        (a night's sleep); not after somebody went out without a sign that anybody stayed,
        nor when the last sign came long after the trackers left (a sensor's fault, a pet
        not learned) or was a door passed with nothing moving since (the last one out)."""
        last = self.last_sign
        if last is None or self.out_at is not None:
            return None
        if now - last <= INSIDE_REACH or not (self.late or self.by_door):
            return last
        return None
