"""Tell the homeowner: persistent notification, repair issue, bus event, notify targets."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_LOGBOOK_ENTRY
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)
from homeassistant.helpers.dispatcher import async_dispatcher_send
from homeassistant.util import dt as dt_util

from ..const import (
    DEFAULT_FALSE_ALARM_DAYS,
    DOMAIN,
    EVENT_ANOMALY_CLEARED,
    EVENT_ANOMALY_DETECTED,
    LOGGER,
)
from ..core.baselines.routine_alert_judge import shown_not_pushed
from ..core.escalation import Escalation
from ..core.models import Finding
from ..markdown_text import escape_markdown
from ..redaction import Redactor
from .below_sensitivity import WITHDRAWN
from .incident_parts import parts_of, root_of
from .lasted_words import as_lasted
from .notice_text import (
    advice_over,
    evidence_markdown,
    framed_reasoning,
    notice_message,
    quiet_note,
)
from .shown import async_dismiss_own, shown_notifications
from .store import parse_time
from .texts import AnomalyTexts, async_anomaly_texts, back_to_normal, named, over_text
from .then_lines import async_then
from .tracker import AnomalyTracker, OpenAnomaly

_ISSUE_SEVERITY = {
    "low": ir.IssueSeverity.WARNING,
    "medium": ir.IssueSeverity.WARNING,
    "high": ir.IssueSeverity.ERROR,
    "critical": ir.IssueSeverity.CRITICAL,
}
# The companion app's notify services (``notify.mobile_app_<device>``) take a ``tag``;
# other legacy services may reject data they do not know, and notify entities take none.
_COMPANION_APP = "mobile_app_"


def signal_anomaly_event(entry_id: str) -> str:
    """Dispatcher signal carrying (event_type, data) to the event entity."""
    return f"{DOMAIN}_{entry_id}_anomaly_event"


def notification_prefix(entry_id: str) -> str:
    """How the ids of a monitor's notifications begin (its anomalies' keys follow)."""
    return f"{DOMAIN}_{entry_id}_"


def notification_id(entry_id: str, anomaly: OpenAnomaly) -> str:
    """Stable id of the persistent notification of an anomaly."""
    return notification_prefix(entry_id) + anomaly.key


def issue_id(entry_id: str, anomaly: OpenAnomaly) -> str:
    """Stable id of the repair issue of an anomaly."""
    return f"anomaly_{entry_id}_{anomaly.key}"


def event_data(
    entry: ConfigEntry, anomaly: OpenAnomaly, hass: HomeAssistant | None = None
) -> dict[str, Any]:
    """What automations receive about an anomaly (with ``hass``, its reasoning names the
    home's entities as the notification does; ``evidence`` keeps their ids)."""
    return {
        "config_entry_id": entry.entry_id,
        "anomaly_id": anomaly.key,
        "rule": anomaly.lead_rule,  # whose words lead; ``anomaly_id`` never changes
        "rules": anomaly.rules,  # every rule that found this incident
        "subject": anomaly.subject,
        # Its name as told ("Front door open while nobody is home"; the logbook's words).
        "title": anomaly.headline,
        "anomaly_type": anomaly.anomaly_type,
        "severity": anomaly.severity,
        "evidence": anomaly.shown_evidence or list(anomaly.evidence),
        "context": list(anomaly.context),
        "reasoning": named(hass, anomaly.reasoning) if hass else anomaly.reasoning,
        "recommendation": named(hass, anomaly.recommendation) if hass else anomaly.recommendation,
        "first_seen": anomaly.first_seen,
        # Why it is told again, if it is ("graver", "hazard", "intrusion"), else None.
        "escalation": anomaly.escalation or None,
    }


class Announcer:
    """Creates and removes everything the homeowner sees about anomalies."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: ConfigEntry,
        notify_targets: Sequence[str],
        mark_days: int = DEFAULT_FALSE_ALARM_DAYS,
        incidents: AnomalyTracker | None = None,
    ) -> None:
        self.hass = hass
        # The open and ended anomalies: a part of an incident is shown in its notification.
        self.incidents = incidents
        self.entry = entry
        self.notify_targets = list(notify_targets)
        self.mark_days = mark_days  # how long a false-alarm mark lasts, for the fix flow
        # Targets name people's phones: a failure is logged by position, its text scrubbed.
        self._redactor = Redactor(notify_targets=tuple(self.notify_targets))

    async def _async_show(self, anomaly: OpenAnomaly, restored: bool = False) -> None:
        """The notification and the repair issue, worded for the homeowner (an ended
        anomaly's say that it is over, and still take feedback). ``restored`` (a restart
        lost every notification): the notification only if the homeowner had not
        dismissed it; the issue either way, for the answer. A part of an incident told
        (``incident_parts``) is shown in that incident's, never on its own."""
        if (root := self._root(anomaly)) is not None:
            self.async_forget(anomaly)  # shown alone by an older version: one incident, one
            # Its name in the incident's "Then:" from now on, as a told one's title is kept.
            own = await async_anomaly_texts(self.hass, anomaly)
            anomaly.name(own.title)
            anomaly = root
        texts = await async_anomaly_texts(self.hass, anomaly)
        then = await self._then(anomaly, texts)
        # Its name from now on: a lock locked since, or read locked after a restart,
        # does not rename what the homeowner was told (the evidence says what holds now).
        anomaly.name(texts.title)
        anomaly.told_type = anomaly.told_type or anomaly.anomaly_type
        note_id = notification_id(self.entry.entry_id, anomaly)
        headline, message = texts.headline, notice_message(anomaly, texts, then=then)
        key = "hazard_anomaly" if anomaly.hazard else "anomaly"
        severity = _ISSUE_SEVERITY.get(anomaly.severity, ir.IssueSeverity.WARNING)
        if (ended := parse_time(anomaly.ended)) is not None:
            at = dt_util.as_local(back_to_normal(self.hass, anomaly, ended)).strftime("%H:%M")
            headline = texts.text("ended_headline", headline=headline)
            message = notice_message(anomaly, texts, over=True, then=then)
            message = f"{escape_markdown(texts.text('ended_note', time=at))}\n\n{message}"
            key, severity = f"{key}_ended", ir.IssueSeverity.WARNING
        content = (headline, message)
        shown = shown_notifications(self.hass)
        if restored and anomaly.notice_dismissed:
            pass  # read, and dismissed: not written again
        elif shown.get(note_id) != content:
            persistent_notification.async_create(
                self.hass, content[1], title=content[0], notification_id=note_id
            )
            shown[note_id] = content
            anomaly.notice_dismissed = False  # on screen again, unread
        if anomaly.acknowledged:
            return
        quiet = quiet_note(anomaly, texts)  # not found since ... (not over yet)
        # Then what was found said as of then, as in the notification (walk 52: "Moisture
        # detected in Bathroom." above "Bathroom leak: Dry"); an Over's template frames it.
        found = framed_reasoning(anomaly, texts)
        ir.async_create_issue(
            self.hass,
            DOMAIN,
            issue_id(self.entry.entry_id, anomaly),
            is_fixable=True,
            severity=severity,
            # A hazard's fix flow says that "false alarm" dismisses this occurrence only.
            translation_key=key,
            translation_placeholders={
                "headline": headline,
                "monitor": self.entry.title,
                "anomaly_type": escape_markdown(texts.type_name),
                "severity": texts.severity,
                "reasoning": "\n\n".join(filter(None, (quiet, found, then))),
                "evidence": evidence_markdown(texts),
                "recommendation": escape_markdown(texts.recommendation or "-"),
                # An "Over": the advice as it was, none once it is done (``texts._secured``).
                "advice": advice_over(texts),
                "days": str(self.mark_days),
            },
            data={"entry_id": self.entry.entry_id, "anomaly_id": anomaly.key},
        )

    def _root(self, anomaly: OpenAnomaly) -> OpenAnomaly | None:
        """The incident whose notification shows ``anomaly``, if it is a part of one."""
        if self.incidents is None:
            return None
        return root_of(anomaly, self.incidents.open, self.incidents.ended)

    async def _then(self, anomaly: OpenAnomaly, texts: AnomalyTexts) -> str:
        """Markdown: what happened since, as parts of this incident; "" none."""
        if self.incidents is None:
            return ""
        known = (*self.incidents.open.values(), *self.incidents.ended.values())
        return await async_then(self.hass, texts, parts_of(anomaly.signature, known))

    async def async_opened(self, anomaly: OpenAnomaly) -> None:
        """A new anomaly: notify on every surface once."""
        hass, entry = self.hass, self.entry
        if anomaly.escalation != Escalation.INTRUSION:
            # Told (again): named as it reads now. Somebody inside keeps the name the
            # phone knows it by, "Now motion in Hall: " before it (walk 57's left 1: the
            # motion's own name, "Motion in Hall while nobody is home", was said so twice).
            anomaly.headline = anomaly.told_type = anomaly.told_rule = ""
        await self._async_show(anomaly)
        if shown_not_pushed(anomaly.rule, anomaly.severity):
            return  # a routine or a service's alert told low: shown, neither event nor push
        data = event_data(entry, anomaly, hass)
        anomaly.on_the_bus = True
        hass.bus.async_fire(EVENT_ANOMALY_DETECTED, self._on_the_bus(data))
        async_dispatcher_send(hass, signal_anomaly_event(entry.entry_id), "detected", data)
        await self._async_notify_targets(anomaly)

    async def async_restore(self, anomaly: OpenAnomaly) -> None:
        """Show the notification and the repair issue (again, after a restart or reload).

        The same ids every time: showing them again replaces, never duplicates.
        """
        if not anomaly.acknowledged:
            await self._async_show(anomaly, restored=True)

    def async_cleared(self, anomaly: OpenAnomaly, reason: str = "resolved") -> None:
        """The anomaly is over (or was a false alarm): remove what we showed."""
        self.async_forget(anomaly)
        if anomaly.on_the_bus:  # a part was never told on the bus: nor is its end
            self._async_fire_cleared(anomaly, reason)

    async def async_ended(self, anomaly: OpenAnomaly) -> None:
        """Over before the homeowner answered: the notification and repair issue say so
        and stay, for feedback read late (``AnomalyTracker.ended``)."""
        await self._async_show(anomaly)
        if anomaly.on_the_bus:  # a part was never told on the bus: nor is its end
            # What its "Over" is titled, what happened after it included (the logbook's).
            over = await async_anomaly_texts(self.hass, anomaly)
            self._async_fire_cleared(anomaly, "resolved", over.headline)

    async def async_restore_ended(self, anomaly: OpenAnomaly) -> None:
        """Show an ended anomaly's reminders again (after a restart or reload)."""
        await self._async_show(anomaly, restored=True)

    def async_forget(self, anomaly: OpenAnomaly) -> None:
        """Remove what we showed, nothing else (an ended anomaly answered or past its day)."""
        hass, entry = self.hass, self.entry
        async_dismiss_own(hass, notification_id(entry.entry_id, anomaly))
        ir.async_delete_issue(hass, DOMAIN, issue_id(entry.entry_id, anomaly))

    def _on_the_bus(self, data: dict[str, Any]) -> dict[str, Any]:
        """With the monitor's ``device_id``, by which HA's logbook finds an integration's
        events for a device: the device page's Activity then reads "told: ..." (walk of
        session 21: only "Anomaly detected an event"). Not on the event entity's state."""
        # The entry's own devices, not ``async_get_device`` (deprecated from HA 2026.10:
        # identifiers are no longer unique across entries).
        own = (DOMAIN, self.entry.entry_id)
        registry = dr.async_get(self.hass)
        for device in dr.async_entries_for_config_entry(registry, self.entry.entry_id):
            if own in device.identifiers:
                return data | {"device_id": device.id}
        return data

    def _async_fire_cleared(self, anomaly: OpenAnomaly, reason: str, over_title: str = "") -> None:
        hass, entry = self.hass, self.entry
        data = event_data(entry, anomaly, hass) | {"reason": reason}
        if over_title:  # its "Over" notification's title, without "Over: "
            data["over_title"] = over_title
        # Its words were found while it lasted ("is open"): the cleared event says it is over;
        # one withdrawn (the sensitivity lowered) is not over: its words stay as they were.
        if reason != WITHDRAWN:
            data["reasoning"] = over_text(hass, as_lasted(data["reasoning"]))
        hass.bus.async_fire(EVENT_ANOMALY_CLEARED, self._on_the_bus(data))
        async_dispatcher_send(hass, signal_anomaly_event(entry.entry_id), "cleared", data)

    async def async_reworded(self, anomaly: OpenAnomaly) -> None:
        """An open anomaly reads differently now (the model explained it, say): the
        notification and repair issue show the new text; no new event or message."""
        if not anomaly.acknowledged:
            await self._async_show(anomaly)

    async def async_logged(self, anomaly: OpenAnomaly) -> None:
        """Opened acknowledged, as part of what the homeowner acknowledged (a stay while
        away, an acknowledged problem's consequence, one back after a flicker): told
        nowhere, so the logbook keeps it for whoever reads what happened while away."""
        texts = await async_anomaly_texts(self.hass, anomaly)
        self._async_log(texts.text("logged_acknowledged", headline=texts.headline))

    async def async_logged_opened_again(self, anomaly: OpenAnomaly) -> None:
        """An entry opened again within its first telling (``entered_again``): its
        notification says so in place, the phone is not pushed; the logbook keeps it."""
        texts = await async_anomaly_texts(self.hass, anomaly)
        headline = anomaly.headline or texts.title
        self._async_log(texts.text("logged_opened_again", headline=headline))

    async def async_logged_joining(self, anomaly: OpenAnomaly, findings: list[Finding]) -> None:
        """``findings`` of rules new to ``anomaly``, which the homeowner acknowledged, joined
        it without making it graver (the lock unlocked while nobody is home, within the
        end of the acknowledged night entry of its door): the logbook says so."""
        if not findings:
            return
        alone = OpenAnomaly.from_findings(findings, dt_util.utcnow())  # named as if told
        found = await async_anomaly_texts(self.hass, alone)
        texts = await async_anomaly_texts(self.hass, anomaly)
        self._async_log(
            texts.text("logged_joined_acknowledged", found=found.title, headline=texts.headline)
        )

    @callback
    def _async_log(self, message: str) -> None:
        """One logbook entry on the monitor's event entity."""
        data = {"name": self.entry.title, "message": message, "domain": DOMAIN}
        unique_id = f"{self.entry.entry_id}_anomaly_event"
        if entity_id := er.async_get(self.hass).async_get_entity_id("event", DOMAIN, unique_id):
            data["entity_id"] = entity_id
        self.hass.bus.async_fire(EVENT_LOGBOOK_ENTRY, data)

    async def async_refreshed(self, anomaly: OpenAnomaly) -> None:
        """Found again unchanged in words: what is on screen follows its evidence's states
        and title (a window closed and open again; the motion over), still without an
        event or message. A notification the homeowner dismissed stays dismissed."""
        shown = shown_notifications(self.hass)
        if not anomaly.acknowledged and notification_id(self.entry.entry_id, anomaly) in shown:
            await self._async_show(anomaly)

    def async_acknowledged(self, anomaly: OpenAnomaly) -> None:
        """Seen by the homeowner: the reminders go, the anomaly stays open."""
        async_dismiss_own(self.hass, notification_id(self.entry.entry_id, anomaly))
        ir.async_delete_issue(self.hass, DOMAIN, issue_id(self.entry.entry_id, anomaly))

    async def _async_notify_targets(self, anomaly: OpenAnomaly) -> None:
        texts = await async_anomaly_texts(self.hass, anomaly)
        title, message = texts.headline, texts.reasoning
        if anomaly.recommendation:  # a push is read away from home: what to do, too
            message += f"\n{texts.text('recommendation')} {texts.recommendation}"
        for position, target in enumerate(self.notify_targets, start=1):
            domain, _, name = target.partition(".")
            if domain != "notify" or not name:
                continue
            data: dict[str, Any]
            if self.hass.states.get(target) is not None:  # a notify entity
                service, data = "send_message", {"entity_id": target}
            else:  # a legacy notify service such as notify.mobile_app_phone
                service, data = name, {}
                if name.startswith(_COMPANION_APP):
                    # The companion app replaces the push of the same tag: an incident told
                    # again (graver) updates the phone's notification instead of adding one.
                    data["data"] = {"tag": notification_id(self.entry.entry_id, anomaly)}
            data |= {"title": title, "message": message}
            try:
                await self.hass.services.async_call("notify", service, data, blocking=False)
            except Exception as err:  # one broken target must not stop the others
                LOGGER.error(
                    "Could not send anomaly %s to notify target %d: %s",
                    anomaly.key,
                    position,
                    self._redactor.text(str(err)),
                )


@callback
def async_remove_entry_surfaces(
    hass: HomeAssistant, entry_id: str, anomalies: Iterable[OpenAnomaly]
) -> None:
    """Remove every notification and repair issue of a monitor (deleted or disabled)."""
    for anomaly in anomalies:
        async_dismiss_own(hass, notification_id(entry_id, anomaly))
    registry = ir.async_get(hass)
    prefix = f"anomaly_{entry_id}_"
    for domain, issue in list(registry.issues):
        if domain == DOMAIN and (issue.startswith(prefix) or issue.endswith(entry_id)):
            ir.async_delete_issue(hass, DOMAIN, issue)
