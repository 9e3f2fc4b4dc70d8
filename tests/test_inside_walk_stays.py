"""The walk of ``somebody_in`` when somebody stays in as the others go (blind30 a: a
tetraplegic son and his carers, untracked, while the tracked family is at a wedding).

- The family goes out by the front door and the gate; the son's room moves two minutes
  later; the phones report their leaving a minute after that. The phones' leaving is the
  passage already seen, not a second going-out: whoever moved stays inside.
- Somebody seen inside long after the phones left stays in this spell: when one carer
  then lets the next in and goes, the motion by the door just after is theirs, and the
  next opening of that door is from inside.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from custom_components.anomaly_monitor.core.baselines.inside_walk import Walk

T0 = datetime(2026, 12, 26, 13, 0, tzinfo=UTC)


def _min(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def _family_goes_out(walk: Walk) -> None:
    walk.sign(_min(-20), "Hall")  # up and about before going
    walk.opening(_min(0), leaves=True, area="Hall", forced=False)  # the front door
    walk.opening(_min(1), leaves=True, area="Front yard", forced=False)  # the gate


def test_the_phones_leaving_after_somebody_stayed_is_no_second_going_out() -> None:
    walk = Walk()
    _family_goes_out(walk)
    walk.sign(_min(3), "Son room")  # somebody stayed in
    walk.went_out(_min(4), shut=_min(1.5))  # the phones report their leaving
    assert walk.out_at is None
    assert walk.last_sign == _min(3)
    # Without that sign between, the phones' leaving leaves nobody known inside.
    alone = Walk()
    _family_goes_out(alone)
    alone.went_out(_min(4))
    assert alone.out_at == _min(4)
    # Motion before the front door shut is maybe the last one on their way out, and a
    # hold running out or an inner door shut shows nobody staying (blind28: the bathroom
    # door shut by the last one out made an unlocked front door wait 40 min).
    last_out = Walk()
    _family_goes_out(last_out)
    last_out.sign(_min(1.5), "Kitchen")
    last_out.went_out(_min(4), shut=_min(2))
    assert last_out.out_at == _min(4)
    holds = Walk()
    _family_goes_out(holds)
    holds.sign(_min(3), "Kitchen", ends=True)
    holds.sign(_min(3), "Bathroom", contact=True)
    holds.went_out(_min(4), shut=_min(2))
    assert holds.out_at == _min(4)
    # Nor does a sign long before the phones leave (past ``PASSAGE``) excuse them.
    late = Walk()
    _family_goes_out(late)
    late.sign(_min(3), "Son room")
    late.went_out(_min(9))
    assert late.out_at == _min(9)


def test_somebody_who_stays_in_this_spell_sees_the_next_one_in() -> None:
    walk = Walk()
    _family_goes_out(walk)
    walk.went_out(_min(4))
    walk.sign(_min(30), "Son room")  # the carer, long after the phones left
    assert walk.stayed
    walk.opening(_min(80), leaves=True, area="Hall", forced=False)  # the next carer in
    walk.sign(_min(82), "Hall")  # by the door: whoever stays, not only whoever went
    assert walk.out_at is None
    assert walk.from_inside(_min(87))  # the day carer going out, 7 min on
    # Whoever moves after an entry from outside (nobody seen staying before it) is
    # whoever came in: no stay of this spell, and the next opening is from outside.
    entered = Walk()
    _family_goes_out(entered)
    entered.went_out(_min(4))
    entered.opening(_min(50), leaves=True, area="Hall", forced=False)  # from outside
    entered.sign(_min(52), "Hall")
    assert not entered.stayed
    assert not entered.from_inside(_min(120))
