"""Tell the homeowner what an analysis changed, and what was open before a restart."""

from __future__ import annotations

from datetime import datetime

from ..redaction import Redactor
from .below_sensitivity import WITHDRAWN, below_sensitivity
from .incident_parts import former_incidents, orphans, root_of
from .surfaces import Announcer
from .tracker import AnomalyTracker, Changes

# Per open anomaly (its signature): the words it is shown with.
type Wording = dict[str, tuple[str, str]]


def wording(tracker: AnomalyTracker) -> Wording:
    """How the open anomalies read now (compared after an update: ``async_tell``)."""
    return {s: (a.reasoning, a.recommendation) for s, a in tracker.open.items()}


async def async_reword(announcer: Announcer, tracker: AnomalyTracker, before: Wording) -> None:
    """Show the open anomalies that read differently than ``before`` (an update)."""
    for signature, anomaly in tracker.open.items():
        now_worded = (anomaly.reasoning, anomaly.recommendation)
        if before.get(signature, now_worded) != now_worded:
            # The model's explanation; the advice once everybody has left; a joining detector.
            await announcer.async_reworded(anomaly)


async def async_shown_again(announcer: Announcer, changes: Changes) -> None:
    """The same situation again: shown, not told; one the homeowner acknowledged is
    shown nowhere, so it goes in the logbook."""
    for anomaly in changes.reopened:
        if anomaly.acknowledged:
            await announcer.async_logged(anomaly)
        else:
            await announcer.async_reworded(anomaly)
    for anomaly in changes.opened_again:
        if not anomaly.acknowledged:
            await announcer.async_logged_opened_again(anomaly)
    for anomaly, findings in changes.joined_acknowledged:
        await announcer.async_logged_joining(anomaly, findings)


async def async_tell(
    announcer: Announcer, tracker: AnomalyTracker, changes: Changes, before: Wording
) -> None:
    """Show what an update changed: new words, new anomalies, cleared and forgotten ones."""
    await async_reword(announcer, tracker, before)
    for signature, anomaly in tracker.open.items():
        now_worded = (anomaly.reasoning, anomaly.recommendation)
        # Not found now, not over yet (hysteresis): shown as found, said not found since,
        # the evidence as it reads now (``notice_text``; walk 50: a leak's notice read
        # "Wet" for 15 min under a dry sensor).
        if before.get(signature, now_worded) == now_worded and anomaly not in changes.opened:
            await announcer.async_refreshed(anomaly)  # its evidence's states as they are now
    for anomaly in changes.opened:
        await announcer.async_opened(anomaly)
    await async_shown_again(announcer, changes)
    # Parts of an incident over or answered stand alone: shown, still not pushed.
    former = former_incidents(tracker.open)
    for anomaly in orphans(tracker.open):
        await announcer.async_reworded(anomaly)
    ending = {a.signature for a in changes.cleared}
    for signature, over in list(tracker.ended.items()):
        if signature in ending:
            continue  # said over below
        if signature in former or root_of(over, tracker.open, tracker.ended) is None:
            # Shown over, awaiting an answer: without the parts now told on their own
            # (walk 38: the lock, told after "Nobody up yet" ended, kept as its "Then:"),
            # and its "Evidence, as it reads now" read now (walk 49: an Over at the
            # household's arrival read the lock Unlocked and kept its advice for 27 min
            # after it was locked). Unchanged, nothing is written; one the homeowner
            # dismissed stays dismissed.
            await announcer.async_restore_ended(over)
    for anomaly in changes.cleared:
        if anomaly.ended is None:  # acknowledged: nothing is left to answer
            announcer.async_cleared(anomaly)
        else:
            await announcer.async_ended(anomaly)
    for anomaly in changes.forgotten:
        announcer.async_forget(anomaly)


async def async_restore_stored(
    tracker: AnomalyTracker,
    announcer: Announcer,
    redactor: Redactor,
    now: datetime,
    sensitivity: str = "",
) -> None:
    """Load the stored anomalies, scrub them again and show them again; those below what
    ``sensitivity`` shows withdrawn (``below_sensitivity``; "": none)."""
    await tracker.async_load()
    for anomaly in tracker.forget_ended(now):
        announcer.async_forget(anomaly)
    if sensitivity and (withdrawn := below_sensitivity(tracker.open, sensitivity)):
        tracker.withdraw(withdrawn)
        for anomaly in withdrawn:
            announcer.async_cleared(anomaly, reason=WITHDRAWN)
    for anomaly in (*tracker.open.values(), *tracker.ended.values()):
        # Stored by an older version, or before the profile changed: scrub again.
        anomaly.reasoning = redactor.text(anomaly.reasoning)
        anomaly.recommendation = redactor.text(anomaly.recommendation)
        for member in anomaly.members:
            member.reasoning = redactor.text(member.reasoning)
            member.recommendation = redactor.text(member.recommendation)
    orphans(tracker.open)  # their incident over: each is shown on its own below
    # Notifications do not survive restarts: shown again (an ended one: "Over: ...").
    for anomaly in tracker.open.values():
        await announcer.async_restore(anomaly)
    for anomaly in tracker.ended.values():
        await announcer.async_restore_ended(anomaly)
