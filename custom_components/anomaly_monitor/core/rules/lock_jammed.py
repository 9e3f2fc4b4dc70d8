"""A lock that says it jammed: the device itself tells what is wrong.

Home Assistant's lock state ``jammed`` is the lock's own report that its bolt did not
finish its move (a swollen door, a misaligned strike plate, a flat battery): the door is
neither securely locked nor known to be unlocked. Nothing needs learning for that; a jam
that clears itself within ``JAMMED_FOR`` (a motor's retry) is not told. Told once while it
lasts, about the lock, more urgent when nobody is home to notice (the home stays open).

Known by domain (``lock``) and HA's state only; no word is read.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from ..finding_kind import FindingKind
from ..home import HomeView
from ..models import AnomalyType, Finding, Severity
from ..phoneless_residents import lives_here_without_phone, nobody_home_words
from .context import ids

JAMMED = "jammed"
# Jammed this long: not a motor's retry that finished the move.
JAMMED_FOR = timedelta(minutes=2)

LOCK_JAMMED = FindingKind("lock_jammed", AnomalyType.SECURITY, Severity.MEDIUM)


def lock_jammed(home: HomeView) -> Iterator[Finding]:
    """A lock has reported ``jammed`` for ``JAMMED_FOR`` or longer.

    Magnitude: minutes it has been jammed.
    """
    now = home.end
    away = home.nobody_home
    # Where somebody lives here without a phone only the phones are known away.
    empty = nobody_home_words(home.window)
    ask = (
        "Every tracked phone is away, but somebody without one may be home: call home, or"
        if lives_here_without_phone(home.window)
        else "Nobody is home:"
    )
    for lock in home.of("lock"):
        since = lock.last_changed
        if lock.state.lower() != JAMMED or since is None or now - since < JAMMED_FOR:
            continue
        name = lock.info.name or lock.entity_id
        minutes = (now - since).total_seconds() / 60
        where = f" ({lock.info.area})" if lock.info.area else ""
        began = since.astimezone(home.env.zone) if home.env.zone is not None else since
        yield LOCK_JAMMED.finding(
            evidence=ids([lock]),
            subject=lock.entity_id,
            reasoning=f"{name}{where} reports it is jammed since {began:%H:%M}: its bolt did "
            "not finish its move, so the door may not be locked"
            + (f" and {empty}." if away else "."),
            recommendation=(
                f"{ask} ask someone to check the door and lock it by hand."
                if away
                else "Check the door: free the bolt and lock it by hand."
            ),
            severity=Severity.HIGH if away else Severity.MEDIUM,
            magnitude=round(minutes, 1),
        )
