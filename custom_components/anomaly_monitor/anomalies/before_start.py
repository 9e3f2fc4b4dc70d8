"""What happened before the monitor started watching, and is over, is no news.

A monitor added (or added again) reads the recorder's last hours back into its window, so
that its statistics judge a home with a past. That past holds events too: the window that
was opened while nobody was home 40 minutes ago, long closed, the motion after it. Told
at set-up, they read as if happening now. So an entry or motion while nobody is home
(``core.episodes``: not a hazard) whose shown evidence opened (or saw motion) only
before this run started and reads closed or clear now is not told (after a restart its
entities come back through ``unknown``: no opening); one still open (a door standing open
in the empty home) is a state of now and is told. An incident already open (restored
after a restart) is judged as usual: it must not end for being old.

The same holds for what happened before the household last left (``home_until``): the
statistic counts motion in every away spell of its window, so the motion of the last
spell, told then and ended when somebody came home, was told again as new seconds after
everybody left again (walk 19). Motion or an opening since is news.

A stay over before this run started is no news either (walk 58: the entry added again
pushed "Front door left open ... It is shut now" for a stay in the empty home that ended
four minutes before it existed, told already by the entry deleted): a finding about a
stay (``Finding.since``) whose every shown device shut or went off between the stay's
start and this run's is history, whatever the door does after (walk 59: the old stay was
told again at the door's next use; a new opening is a new stay, its own finding).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from ..core.episodes import continues_an_episode
from ..core.home import UNAVAILABLE_STATES
from ..core.incidents import incident_key
from ..core.models import Finding, Transition, parse_number
from .entered_again import is_open
from .open_anomaly import OpenAnomaly


def news(
    findings: Iterable[Finding],
    transitions: Sequence[Transition],
    started: datetime | None,
    states: Mapping[str, str],
    anomalies: Iterable[OpenAnomaly],
    *,
    home_until: datetime | None = None,
) -> list[Finding]:
    """``findings`` less those about events before ``started`` that are over.

    ``anomalies``: those open (or dismissed) now; their incidents are judged as usual.
    ``home_until``: the last time somebody was known home (before that is the past too).
    """
    findings = list(findings)
    known = {key for anomaly in anomalies for key in anomaly.incidents}
    if started is not None:
        findings = _less_past_stays(findings, transitions, started, known)
    if home_until is not None and (started is None or home_until > started):
        started = home_until
    if started is None or not any(continues_an_episode(f) for f in findings):
        return findings  # (the window's changes are read only for such a finding)
    # Opened (or moving) since: a state read back as HA starts (``unknown`` → closed) is
    # no news, and neither is closing.
    # A meter's reading since is news too (walk 11: a heater drawing 1.5 kW in the empty
    # home, its plug without a switch, was taken for the past and never told).
    changed_since = {
        t.entity_id
        for t in transitions
        if t.when > started and (is_open(t.state) or parse_number(t.state) is not None)
    }

    def history(finding: Finding) -> bool:
        if not continues_an_episode(finding):
            return False
        if incident_key(finding.subject, finding.anomaly_type, finding.rule) in known:
            return False
        shown = finding.shown_evidence
        return bool(shown) and all(
            e not in changed_since and not is_open(states.get(e)) for e in shown
        )

    return [f for f in findings if not history(f)]


def _less_past_stays(
    findings: list[Finding],
    transitions: Sequence[Transition],
    started: datetime,
    known: set[str],
) -> list[Finding]:
    """``findings`` less those about a stay that began and ended before ``started``."""
    if not any(f.since is not None and f.since < started for f in findings):
        return findings

    def ended_before(entity_id: str, since: datetime) -> bool:
        # The stay's end: its device shut or off between its start and ours. A later
        # opening is a new stay (walk 59: the old one came back at the next use).
        return any(
            t.entity_id == entity_id
            and since < t.when <= started
            and t.state.lower() not in UNAVAILABLE_STATES
            and not is_open(t.state)
            and not _running(t.state)
            for t in transitions
        )

    def past(finding: Finding) -> bool:
        if finding.since is None or finding.since >= started:
            return False
        if incident_key(finding.subject, finding.anomaly_type, finding.rule) in known:
            return False
        shown = finding.shown_evidence
        since = finding.since
        return bool(shown) and all(ended_before(e, since) for e in shown)

    return [f for f in findings if not past(f)]


def _running(state: str | None) -> bool:
    """A meter reading a draw: the stay goes on."""
    value = parse_number(state) if state is not None else None
    return value is not None and value > 0
