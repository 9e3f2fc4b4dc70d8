"""Open anomalies and false-alarm marks: what is wrong now, and what the homeowner said.

An anomaly is an incident about one subject, the entity or area that is wrong, never its
context: the smoke in the kitchen stays the same anomaly, with one notification, while
everyone leaves and the door is unlocked. Every rule that finds its subject wrong joins it
(``open_anomaly.OpenAnomaly``: the door that opened with nobody seen and then stayed open
is one incident, told once; about the whole home, only findings of one kind, see
``core.incidents``); its identity is the rule and subject it opened with. Its
evidence and reasoning follow the latest analysis. It is told again only when it becomes
graver through a rule that joins it (more severe, or a safety hazard): smoke on a detector
whose dropout was acknowledged must reach the homeowner.

It clears only when its own condition no longer holds, with hysteresis: absent from
``CLEAR_AFTER_ANALYSES`` analyses in a row *and* for at least ``CLEAR_AFTER`` since the
first of them (the coordinator schedules the confirming analysis). A detector that misses
it once, or a sensor that flickers, neither closes nor re-announces it. One exception: a
"while nobody is home" anomaly (``Finding.while_away``) ends as soon as someone is known
to be home, since an arrival is not a flicker; in an incident with other members, those
findings end then and it lasts only while another member is still found. A safety
hazard is never ended by an arrival. Acknowledged stays acknowledged while it lasts, and
an anomaly whose evidence reads no state (a radio drop) is not over (``evidence_hold``).

An anomaly that ended is kept a day in ``ended`` with its repair issue, then in ``past``
a week, answerable by its id (``ended_kept``).

"False alarm" on a safety hazard (``core.feedback.is_hazard``) dismisses this occurrence
only: it moves to ``dismissed`` until an analysis no longer finds it (no hysteresis), and
the next occurrence is announced again, even seconds later. On anything else it leaves a
mark on each of its rules that suppresses the pattern up to its degree, for
``mark_lifetime`` (30 days by default); a mark never covers a safety hazard
(``core.feedback``). The file format is documented in ``anomalies/store.py``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util

from ..const import DOMAIN, LOGGER, STORAGE_VERSION
from ..core.escalation import Escalation
from ..core.feedback import FalseAlarms
from ..core.incidents import by_incident
from ..core.models import EntityState, Finding, Transition
from .already_told import AlreadyTold
from .answers import HomeownerAnswers, mark_key
from .at_the_hazard import refreshed
from .changes import Changes, ended_by_arrival, ended_by_arrival_of, milder
from .ended_kept import ANSWERABLE_FOR, FEEDBACK_AFTER_END, PAST_KEPT, move_to_past
from .entered_again import ClosedWhileMissing, entered_again, within_the_entry
from .evidence_hold import found as evidence_found
from .graver_after_end import just_over, open_again
from .ha_start import StartSpan
from .joining import targets
from .open_anomaly import CLEAR_AFTER, CLEAR_AFTER_ANALYSES, OpenAnomaly, anomaly_key
from .over import over_now
from .reopening import RESTART_SETTLE, RecentlyOver
from .store import (
    STORAGE_MINOR_VERSION,
    StoredData,
    TrackerStore,
    parse_time,
)
from .tracker_stored import restore, stored_data
from .unmarked import MarkedTold

__all__ = [
    "ANSWERABLE_FOR",
    "CLEAR_AFTER",
    "CLEAR_AFTER_ANALYSES",
    "FEEDBACK_AFTER_END",
    "PAST_KEPT",
    "AnomalyTracker",
    "Changes",
    "OpenAnomaly",
    "anomaly_key",
    "mark_key",
]

# Write at most this often; a burst of analyses causes one write.
_SAVE_DELAY = 5.0
DEFAULT_MARK_LIFETIME = timedelta(days=30)


class AnomalyTracker(HomeownerAnswers):
    """Tracks which anomalies are open and which patterns are false alarms."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry_id: str,
        mark_lifetime: timedelta = DEFAULT_MARK_LIFETIME,
    ) -> None:
        self._store = TrackerStore(
            hass,
            STORAGE_VERSION,
            f"{DOMAIN}.{entry_id}",
            minor_version=STORAGE_MINOR_VERSION,
            atomic_writes=True,
        )
        self._entry_id = entry_id
        self.mark_lifetime = mark_lifetime
        self.open: dict[str, OpenAnomaly] = {}
        # Hazards called a false alarm: kept, silent, until this occurrence is over.
        self.dismissed: dict[str, OpenAnomaly] = {}
        # Ended, told and not acknowledged: kept for feedback until FEEDBACK_AFTER_END.
        self.ended: dict[str, OpenAnomaly] = {}
        # Ended past FEEDBACK_AFTER_END, unanswered: no repair issue, answerable by id.
        self.past: dict[str, OpenAnomaly] = {}
        # Signature -> mark; pass it to ``core.feedback.suppress`` or a detector as is.
        self.false_alarms = FalseAlarms()
        self.marks_lapsed = False  # an away spell's marks lapsed: the model is taught again
        self.recently_over = RecentlyOver()
        self._acknowledged_at = {}  # short id -> when acknowledged (``answers.answered``)
        self.marked_told = MarkedTold()  # a false alarm taken back: shown, not pushed
        self.already_told = AlreadyTold()  # one situation told once (a stay, a heat spell)
        self.closed_while_missing = ClosedWhileMissing()  # an entry closed, not yet over
        # The last update with somebody known home (not stored): what the empty home's
        # statistics still see from before it is no news (``before_start.news``).
        self.home_until: datetime | None = None
        self.someone_home = False
        # Restored at this start, and the first analysis since (``reopening``: what the
        # restart ended is the same situation when found again).
        self._restored: set[str] = set()
        self._started: datetime | None = None
        # Home Assistant's last start, handed in by the integration (``ha_start``).
        self.ha_start: StartSpan | None = None

    async def async_load(self) -> None:
        """Restore open anomalies and marks; damaged entries are dropped, never fatal."""
        try:
            data = await self._store.async_load()
        except Exception as err:  # a damaged or foreign file must not stop setup
            LOGGER.warning(
                "Stored anomalies of %s are unreadable (%s); starting afresh",
                self._entry_id,
                type(err).__name__,
            )
            LOGGER.debug("Unreadable store", exc_info=True)
            return
        if (restored := restore(data, self._entry_id)) is None:
            return
        self.open, self.dismissed, self.ended, self.past = restored.kept
        self.false_alarms, self.already_told = restored.false_alarms, restored.already_told
        self._restored, self._started = set(self.open), None
        self.false_alarms.expire(dt_util.utcnow(), self.mark_lifetime)

    async def async_remove(self) -> None:
        """Delete the stored file (the entry is being removed)."""
        await self._store.async_remove()

    async def async_stored_anomalies(self) -> list[OpenAnomaly]:
        """The anomalies in the file, without loading the tracker (entry removal)."""
        await self.async_load()
        return [
            *self.open.values(),
            *self.dismissed.values(),
            *self.ended.values(),
            *self.past.values(),
        ]

    def expire_marks(self, now: datetime) -> bool:
        """Forget marks past their lifetime; whether any went."""
        if expired := self.false_alarms.expire(now, self.mark_lifetime):
            self._schedule_save()
        return bool(expired)

    def update(
        self,
        findings: Iterable[Finding],
        now: datetime,
        someone_home: bool = False,
        keep: Collection[str] = (),
        states: Mapping[str, str] | None = None,
        *,
        entities: Mapping[str, EntityState] | None = None,
        transitions: Sequence[Transition] = (),
        linked: Collection[tuple[str, str]] = (),
    ) -> Changes:
        """Reconcile the open anomalies with the findings of a new analysis.

        ``someone_home``: occupancy is known and not zero, which ends every "while nobody
        is home" finding at once (no hysteresis: the arrival is not a flicker): an anomaly
        stays open only while a member that holds regardless is still found, and one made
        only of such findings clears now. A safety hazard is never ended so. Anomalies
        whose signature is in ``keep`` are left as they are if not found (an urgent finding
        announced after the analysed window was built; a safety check judging only
        urgent findings): this update does not count as an analysis without them.
        ``states`` (entity -> state now): an anomaly whose evidence reads no state is not
        missed (``evidence_hold``); without them, every absence is a miss. ``entities``
        (the watched entities now: area, device, last change) and ``transitions`` (the
        window's changes) let a problem hold its own consequences (``acknowledged_hold``).
        ``linked``: the (meter, level) pairs the home showed move together
        (``cause_and_effect``).
        """
        changed = self.expire_marks(now)
        self.someone_home = someone_home
        started = self._started = self._started or now
        if someone_home:
            self.home_until = now
        if someone_home and self.false_alarms.lapse_until_home():
            changed = self.marks_lapsed = True  # the learned away normal judges from now
            self._schedule_save()
        if states is not None:
            self.recently_over.watch(states)
            self.marked_told.watch(states)
            self.already_told.watch(states, entities, now)
        marked = self.already_told.marked_occurrences
        if entities is not None:
            marked.watch(entities, now, transitions)
        # The stay told while nobody was home, ended, still in a rule's window: not kept.
        recalled = self.already_told.recalled_stays
        findings = recalled.left(findings, self.open.values(), states, someone_home, entities)
        kept = [
            f
            for f in findings
            if not self.false_alarms.covers(f)
            and not (entities is not None and marked.covers(f, entities))
            and not (someone_home and ended_by_arrival(f))
        ]
        opened: list[OpenAnomaly] = []
        reopened: list[OpenAnomaly] = []
        opened_again: list[OpenAnomaly] = []
        joined_acknowledged: list[tuple[OpenAnomaly, list[Finding]]] = []
        found: set[str] = set()
        ended_before = list(self.ended.values())  # told, over, not answered
        around = (self.open, entities, transitions)  # what a refresh reads (``at_the_hazard``)
        # The most severe first (Verdict.from_findings): a new incident opens with its lead.
        just = just_over(self.ended.values(), entities, now, self.already_told.drawing_on)
        for joined, members in targets(
            by_incident(kept), list(self.open.values()), list(self.dismissed.values()), now, just
        ):
            if joined is None:
                anomaly = OpenAnomaly.from_findings(members, now)
                self.open[anomaly.signature] = anomaly
                self.ended.pop(anomaly.signature, None)  # its surfaces are the new one's
                self.past.pop(anomaly.signature, None)
                if (over := self.recently_over.reopens(anomaly, now, states)) is not None:
                    anomaly.acknowledged = over.acknowledged
                    reopened.append(anomaly)
                elif (
                    same := self.already_told.continues(
                        anomaly,
                        self.open.values(),
                        now,
                        entities,
                        ended=ended_before,
                        transitions=transitions,
                        start=self.ha_start,
                        linked=linked,
                    )
                ) is not None:
                    anomaly.acknowledged = same  # already told: shown, not told
                    reopened.append(anomaly)
                else:
                    opened.append(anomaly)
            else:
                anomaly = joined
                back = open_again(anomaly, self.open, self.ended)  # over minutes ago, graver
                if anomaly.signature in self.dismissed and milder(members, anomaly):
                    # A dismissed hazard lasts while it is found at its degree (smoke
                    # on the detector), not while a milder member recalls it ("went
                    # off twice in the window"): else smoke again minutes after a
                    # false alarm would join the dismissed occurrence, unheard.
                    continue
                closed_between = states is not None and (
                    self.closed_while_missing.opened_again(anomaly, states)
                )
                again = closed_between or (
                    states is not None and entered_again(anomaly, states, members)
                )
                joining = [f for f in members if f.rule not in anomaly.rules]
                told = refreshed(anomaly, members, now, around, partial=anomaly.signature in keep)
                if told is None and back:  # told over, now graver: told again as graver
                    anomaly.told_again(told := Escalation.GRAVER, now)
                if told is None and again:  # closed, and opened again: told again
                    anomaly.told_again(Escalation.REOPENED, now)
                    if within_the_entry(anomaly, now):
                        reopened.append(anomaly)  # the entry just told: shown, not pushed
                        opened_again.append(anomaly)  # the logbook says so
                    else:
                        told = Escalation.REOPENED
                if told is None and self.already_told.broke_out(anomaly):
                    told = Escalation.GRAVER  # shown as the stay's, now an entry: told
                    anomaly.told_again(told, now)
                if told is not None and anomaly.signature in self.open:
                    anomaly.acknowledged = False  # told again, asked again
                    anomaly.part_of = ""  # told in its own right: its own notification
                    opened.append(anomaly)
                elif joining and anomaly.acknowledged and anomaly.signature in self.open:
                    joined_acknowledged.append((anomaly, joining))
            found.add(anomaly.signature)
            if states is not None:
                evidence_found(anomaly, states)
        # What was shown as a told incident's part (the door opened in answer to the
        # smoke while nobody is home) is in front of the homeowner too: a stay's sign.
        self.already_told.observe(self.open.values(), [*opened, *reopened], now, someone_home)
        seen = {*found, *keep}
        cleared = over_now(
            self.open, seen, now, someone_home, states, entities=entities, start=self.ha_start
        )
        if states is not None:  # closed while its hysteresis runs: opening again is news
            missing = [a for s, a in self.open.items() if s not in seen]
            self.closed_while_missing.missed(missing, states)
            self.closed_while_missing.forget(self.open)
        for anomaly in cleared:
            self.recently_over.ended(
                anomaly,
                now,
                ended_by_arrival_of(anomaly, someone_home),
                restart=anomaly.signature in self._restored and now - started <= RESTART_SETTLE,
            )
            self.already_told.ended(anomaly, now)
            if not anomaly.acknowledged:
                # Over since the first analysis that no longer found it (when its sensor
                # read normal again), not since the hysteresis confirmed that.
                anomaly.ended = anomaly.missing_since or now.isoformat()
                self.ended[anomaly.signature] = anomaly
        forgotten = self.forget_ended(now)
        if states is not None:  # the stay told now: known by its start (``told_stay_recalled``)
            recalled.told(self.open.values(), states, entities)
        # A dismissed occurrence is over (forgotten silently) at the first analysis without
        # it: no hysteresis, which only keeps a told anomaly from being told twice. With
        # it, smoke again 20 s after the detector cleared joined the dismissed toast, unheard.
        for signature in [s for s in self.dismissed if s not in seen]:
            # Over now: its airing is counted from here (``airing``).
            self.already_told.acknowledged_hold.dismissed(self.dismissed.pop(signature), now)
        if changed or opened or cleared or found or forgotten or self.clears_at() is not None:
            self._schedule_save()
        return Changes(
            opened=opened,
            cleared=cleared,
            forgotten=forgotten,
            reopened=reopened,
            joined_acknowledged=joined_acknowledged,
            opened_again=opened_again,
        )

    def withdraw(self, anomalies: Iterable[OpenAnomaly]) -> None:
        """No longer open, nor over: not shown at this sensitivity (``below_sensitivity``)."""
        for anomaly in anomalies:
            self.open.pop(anomaly.signature, None)
        self._schedule_save()

    def forget_ended(self, now: datetime) -> list[OpenAnomaly]:
        """Move the ended anomalies past ``FEEDBACK_AFTER_END`` to ``past`` (their repair
        issue goes; those moved), and forget the past ones beyond ``ANSWERABLE_FOR``."""
        gone, past = move_to_past(self.ended, self.past, now)
        if past is not None:
            self.past = past
            self._schedule_save()
        return gone

    def clears_at(self) -> datetime | None:
        """The earliest time an anomaly missing now may be over (its hysteresis)."""
        times = [
            since + a.clear_after
            for a in (*self.open.values(), *self.dismissed.values())
            if a.missing_since and (since := parse_time(a.missing_since)) is not None
        ]
        return min(times, default=None)

    async def async_flush(self) -> None:
        """Write pending changes now (on unload), cancelling the delayed write."""
        await self._store.async_save(self._data())

    def _schedule_save(self) -> None:
        self._store.async_delay_save(self._data, _SAVE_DELAY)

    def _data(self) -> StoredData:
        return stored_data(
            (self.open, self.dismissed, self.ended, self.past),
            self.false_alarms,
            self.already_told,
        )
