"""A lock whose own unlocked stays are known is judged by them from its first days.

The learning gate holds what a device's normal has not been learned for yet (watched
fewer than ``LEARN_DAYS`` days). A lock's "unlocked far longer than usual" is judged
against nothing but the lock's own stays: ``state_longer_than_usual`` judges a lock only
from ``MIN_STAYS`` stays of its quarter of the day (or twice that pooled), and
``unlocked_while_asleep`` from its whole record. A household turns its lock several times a
day: by the third evening a lock locked again within a minute, twenty-six times, is known,
and the front door left unlocked after a visit (set 32, Pittsburgh: unlocked at 19:50,
"usually at most 55 s", held until the fourth day began at midnight) cannot wait for a
calendar. So a finding of those rules whose locks each have ``KNOWN_STAYS`` unlocked stays
learned (any time of day) is not held; a lock turned a few times only waits as before.
Known by the ``lock`` domain and its ``unlocked`` state; no id word is read.
"""

from __future__ import annotations

from .baselines.durations import MIN_STAYS
from .baselines.home_baselines import HomeBaselines
from .baselines.unlocked_at_rest import UNLOCKED_WHILE_ASLEEP
from .models import Finding

# Unlocked stays learned (any time of day) before the lock's own normal is known.
KNOWN_STAYS = 2 * MIN_STAYS
# Rules that judge a lock only against its own unlocked stays.
_OWN_STAY_RULES = frozenset({"state_longer_than_usual", UNLOCKED_WHILE_ASLEEP.rule})


def lock_stays_known(finding: Finding, baselines: HomeBaselines) -> bool:
    """Whether ``finding`` judges locks by their own stays, each learned ``KNOWN_STAYS``
    times (its other evidence: the lock's door, shown beside it)."""
    if finding.rule not in _OWN_STAY_RULES:
        return False
    locks = [e for e in finding.evidence if e.partition(".")[0] == "lock"]
    return bool(locks) and all(
        baselines.durations.whole_record(lock, "unlocked")[0] >= KNOWN_STAYS for lock in locks
    )
