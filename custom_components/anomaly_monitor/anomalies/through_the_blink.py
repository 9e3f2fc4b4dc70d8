"""What was told while nobody is home keeps its words through a start's blink.

Right after HA starts, a person whose tracker reads away since that start may be a
tracker's blink: who is home is unknown for a minute (``core.baselines.start_blinks``),
so nothing is found "while nobody is home" then. Walk of session 45: everybody out, the
front door left open and unlocked, told "Front door unlocked and open while nobody is
home"; HA restarted, and the analyses in that minute found only the door left open (as
if somebody might be in): the while-away member went inactive and the notice read
"Front door stayed open for 16 min ..., and still is", the lock gone, until the blink
passed and the while-away finding led again. Unknown for a blink is no news: while it
lasts, with nobody known home, an incident with a while-away member found before is left
as it was (its members keep their words; not missed). Somebody known home ends it as
ever; after the blink it is judged as any other.
"""

from __future__ import annotations

from collections.abc import Mapping

from .open_anomaly import OpenAnomaly


def held_through_blink(
    anomalies: Mapping[str, OpenAnomaly], someone_home: bool, blinking: bool
) -> set[str]:
    """Signatures of the open anomalies an analysis in a start's blink leaves as they are:
    those with an active "while nobody is home" member, while ``blinking`` (a person reads
    unknown as a start's blink) and nobody is known home."""
    if someone_home or not blinking:
        return set()
    return {
        signature
        for signature, anomaly in anomalies.items()
        if any(m.while_away and m.active for m in anomaly.members)
    }
