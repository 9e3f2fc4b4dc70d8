"""A room the heating does not keep warm: one situation, however many rules see it.

A boiler locks out: the hall "has been heating for 1 h 45 min but has not warmed"
(``heating_not_warming``), two hours later it is "well below the lowest it is kept"
(``room_colder_than_kept``), then the first clears as the thermostat gives up and is
found again. Each rule names another subject (the thermostat, the room's sensor), so each
opened an anomaly of its own, and the homeowner was told five times of one boiler. An
anomaly of a heating rule (``HEAT_RULES``) that opens while another one about the same
thermostat or room sensor is open, or ended less than ``HEAT_GAP`` ago, is that one's
continuation: shown, not told (like ``reopening``), acknowledged if that one was.

While such a failure is followed anywhere in the home (within ``HEAT_GAP``), the cold it
leaves elsewhere is its sign too (``COLD_SIGNS``, no graver than ``Severity.MEDIUM``):
the oil runs out and the great room is "well below the lowest it is kept", then the
basement "close to freezing" half an hour later, then the cellar's thermometer "below
anything it read at these hours"; one failure, told once, each shown. A room below
freezing (``room_too_cold`` at high) is told: water pipes burst there. A thermometer
below its own steady band (``BELOW_SIGNS``) is such a sign too, and a failure found in
the same analysis is followed already (set 15: the Chicago two-flat's steam boiler ran
out of water; the living room "well below the lowest it is kept" and the basement
"below its own band" were pushed in the same second).

So is another room's heating that fails the same way then (``FAILING_RULES``, no graver
than medium): set 10, the boiler stops after its service and the bedroom's thermostat
"is set to heat but idles", then the living room's two hours later; one boiler, told
once. Heating that overshoots or works against the room is no failure to serve it.

The other order too (set 20, Vilnius): the district heating main failed at 03:00; the
child's room "below its own band" was told at 04:20, then the living room's radiator valve
"heating for 1 h but the room has not risen" pushed at 09:00: one heat loss, two subjects.
While a sign of cold is told and not answered, open or over less than ``HEAT_GAP`` ago
with its room still as cold (the band rule's window moved on, the room did not warm),
another room's heating failing (no graver than medium) is that heat loss
(``failing_where_told_cold``): shown in its notification if it is open, acknowledged with
it. Once that room has warmed, a failure is news.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from ..core.models import EntityState, Severity, parse_number
from ..core.rules.temperature_bands import celsius_of
from .open_anomaly import OpenAnomaly, rank
from .store import parse_time
from .told_times import stored_time

# Rules that say a room is not heated (or cooled) as it should be.
HEAT_RULES = frozenset(
    {
        "heating_not_warming",
        "room_colder_than_kept",
        "room_warmer_than_kept",  # cooling that does not cool: the same failure, in summer
        "hvac_not_responding",
        "hvac_overshooting_target",
        "hvac_against_the_room",
    }
)
# Rules that say the heating (or cooling) does not serve a room as set: a common source
# (the boiler, the central unit) failing shows in every room it serves.
FAILING_RULES = HEAT_RULES - {"hvac_overshooting_target", "hvac_against_the_room"}
# What a failing heating leaves elsewhere in the home: a room close to freezing, a
# thermometer off or drifting from what it reads at these hours.
COLD_SIGNS = frozenset(
    {"room_too_cold", "reading_off_its_hours", "reading_drifting_from_its_hours"}
)
# A sign of cold when it reads below (its magnitude negative) on a thermometer.
BELOW_SIGNS = frozenset({"reading_beyond_its_steady_band"})
# A heating anomaly about the same room this soon after the last one is the same failure.
HEAT_GAP = timedelta(hours=6)


def _about_heat(anomaly: OpenAnomaly) -> bool:
    return not anomaly.hazard and any(rule in HEAT_RULES for rule in anomaly.rules)


def _cold_sign(anomaly: OpenAnomaly, entities: Mapping[str, EntityState] | None) -> bool:
    """Only signs of cold, none graver than medium (a room below freezing is told)."""
    thermometer = entities is not None and (
        (state := entities.get(anomaly.subject)) is not None and celsius_of(state) is not None
    )
    below = thermometer and anomaly.magnitude is not None and anomaly.magnitude < 0
    return (
        all(rule in COLD_SIGNS or (below and rule in BELOW_SIGNS) for rule in anomaly.rules)
        and rank(anomaly.severity) <= Severity.MEDIUM.rank
    )


def _fails_to_serve(rules: Iterable[str]) -> bool:
    rules = list(rules)
    return bool(rules) and all(rule in FAILING_RULES for rule in rules)


def _another_room_failing(anomaly: OpenAnomaly) -> bool:
    """Another room's heating failing too, no graver than medium."""
    return (
        _about_heat(anomaly)
        and _fails_to_serve(anomaly.rules)
        and rank(anomaly.severity) <= Severity.MEDIUM.rank
    )


def _still_as_cold(told: OpenAnomaly, now: datetime, entities: Mapping[str, EntityState]) -> bool:
    """``told`` (a sign of cold) is open, or over less than ``HEAT_GAP`` ago with its
    thermometer reading no warmer than when it was last found: the cold is still there."""
    if told.ended is None:
        return True
    over = parse_time(told.ended)
    state = entities.get(told.subject)
    then = parse_number(told.readings.get(told.subject, ""))
    return (
        over is not None
        and now - over <= HEAT_GAP
        and state is not None
        and state.number is not None
        and then is not None
        and state.number <= then
    )


def failing_where_told_cold(
    anomaly: OpenAnomaly,
    told: Iterable[OpenAnomaly],
    now: datetime,
    entities: Mapping[str, EntityState],
) -> OpenAnomaly | None:
    """The told, unanswered sign of cold (a thermometer below its band, a room near
    freezing; open, or over with the room still as cold) whose heat loss ``anomaly``
    (just opened: heating failing to serve a room) is."""
    if not _another_room_failing(anomaly):
        return None
    return next(
        (
            other
            for other in told
            if other.signature != anomaly.signature
            and not other.hazard
            and not other.acknowledged
            and _cold_sign(other, entities)
            and _still_as_cold(other, now, entities)
        ),
        None,
    )


class HeatSpells:
    """Per thermostat or room sensor: when a heating anomaly about it was last open,
    whether the homeowner acknowledged it, and whether it said the heating fails to serve
    the room (stored with the tracker: ``already_told``)."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[datetime, bool, bool]] = {}

    def continues(
        self,
        anomaly: OpenAnomaly,
        now: datetime,
        open_now: Iterable[OpenAnomaly] = (),
        entities: Mapping[str, EntityState] | None = None,
    ) -> bool | None:
        """Whether ``anomaly`` (just opened) continues a heating failure already told
        about one of its entities (``open_now``: one found by this analysis too); None
        when it does not (then it is told). True: acknowledged with it."""
        if _about_heat(anomaly):
            recent = [
                seen
                for e in anomaly.shown_evidence or anomaly.evidence
                if (seen := self._seen.get(e)) is not None and now - seen[0] <= HEAT_GAP
            ]
            if not recent and _another_room_failing(anomaly):
                recent = [s for s in self._seen.values() if s[2] and now - s[0] <= HEAT_GAP]
        elif _cold_sign(anomaly, entities):  # a failure followed anywhere in the home
            recent = [seen for seen in self._seen.values() if now - seen[0] <= HEAT_GAP]
            recent += [
                (now, other.acknowledged, True)
                for other in open_now
                if other.signature != anomaly.signature
                and _about_heat(other)
                and _fails_to_serve(other.rules)
            ]
        else:
            return None
        if not recent:
            return None
        return any(seen[1] for seen in recent)

    def observe(self, open_now: Iterable[OpenAnomaly], now: datetime) -> None:
        """After an analysis: the heating anomalies open now keep their entities' spell."""
        self._seen = {e: s for e, s in self._seen.items() if now - s[0] <= HEAT_GAP}
        for anomaly in open_now:
            if _about_heat(anomaly):
                failing = _fails_to_serve(anomaly.rules)
                for entity_id in anomaly.shown_evidence or anomaly.evidence:
                    was = self._seen.get(entity_id)
                    self._seen[entity_id] = (
                        now,
                        anomaly.acknowledged or bool(was and was[1]),
                        failing or bool(was and was[2]),
                    )

    def as_dict(self) -> dict[str, Any]:
        """The stored form: entity -> [when, acknowledged, failing to serve]."""
        return {
            e: [when.isoformat(), ack, failing] for e, (when, ack, failing) in self._seen.items()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HeatSpells:
        """Rebuild the stored form; a wrong shape raises ``ValueError``/``TypeError``."""
        spells = cls()
        for entity_id, (when, acknowledged, *rest) in data.items():
            failing = rest[0] if rest else False  # stored before session 19: not known
            if (
                not isinstance(entity_id, str)
                or not isinstance(acknowledged, bool)
                or not isinstance(failing, bool)
            ):
                raise TypeError("heat spell")
            spells._seen[entity_id] = (stored_time(when), acknowledged, failing)
        return spells
