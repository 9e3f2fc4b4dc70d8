"""The Markdown of an anomaly's notification and repair issue, in the homeowner's words.

Every piece of home or model text is escaped. An anomaly reads one of three ways: found
now (its advice in the present); not found by the latest analyses but not over yet (its
hysteresis: said so, with the evidence as it reads now, walk 50: "Bathroom leak: Wet"
for 15 min under a dry sensor); over (the advice as it was, "leave the home" read after
the smoke cleared would send the homeowner out for nothing).
"""

from __future__ import annotations

from datetime import datetime

from ..markdown_text import escape_markdown
from .open_anomaly import OpenAnomaly
from .store import parse_time
from .texts import AnomalyTexts, clock


def evidence_markdown(texts: AnomalyTexts) -> str:
    """One Markdown list item per evidence entity: friendly name, area, current state;
    those in a calm state (the locked lock of the open door) last, as "also"."""
    items = [
        texts.text(
            ("evidence_line_also" if line.calm else "evidence_line")
            + ("" if line.area else "_no_area"),
            name=escape_markdown(line.name),
            area=escape_markdown(line.area or ""),
            state=escape_markdown(line.state),
        )
        for line in texts.evidence
    ]
    return "\n".join(items) or "-"


def missing_since(anomaly: OpenAnomaly) -> datetime | None:
    """Since when an open anomaly has not been found again (None: found by the latest
    analysis, or over)."""
    if anomaly.ended or not anomaly.missed:
        return None
    return parse_time(anomaly.missing_since)


def quiet_note(anomaly: OpenAnomaly, texts: AnomalyTexts) -> str:
    """Markdown: "Not found again since 08:32 ..." of an anomaly in its hysteresis, else ""."""
    since = missing_since(anomaly)
    if since is None:
        return ""
    over = clock(since + anomaly.clear_after)
    return escape_markdown(texts.text("missing_note", time=clock(since), over=over))


def framed_reasoning(anomaly: OpenAnomaly, texts: AnomalyTexts, over: bool = False) -> str:
    """Markdown: the reasoning, as what was found once it is ``over`` ("While it lasted:")
    or while it is not found again ("When it was found:"); as it is while found."""
    reasoning = escape_markdown(texts.reasoning)
    if not over and missing_since(anomaly) is None:
        return reasoning
    framing = texts.text("reasoning_over" if over else "reasoning_found")
    return f"**{escape_markdown(framing)}** {reasoning}"


def notice_message(
    anomaly: OpenAnomaly, texts: AnomalyTexts, over: bool = False, then: str = ""
) -> str:
    """The notification's Markdown. Once it is ``over`` the advice is told as what it was;
    while it is not found again (not over yet) it says so, and its reasoning is what was
    found ("Switch 0 is off but draws power" above "Switch 0: Off" reads as a fact, walk 26)."""
    kind = f"**{escape_markdown(texts.type_name)}** ({escape_markdown(texts.severity)})"
    if not over and (began := parse_time(anomaly.first_seen)) is not None:
        # HA dates the notification by its last rewrite (a restart shows it again):
        # when it began is said in it ("Over since ..." once it is over).
        kind += " " + escape_markdown(texts.text("since", time=clock(began)))
    # Found while it lasted ("the door is open"): once over, said as what was seen,
    # and the evidence as what it reads now (the door closed since).
    reasoning = framed_reasoning(anomaly, texts, over)
    missing = not over and missing_since(anomaly) is not None
    evidence = texts.text("evidence_over" if over or missing else "evidence")
    parts = [*filter(None, [quiet_note(anomaly, texts)]), kind, reasoning, *filter(None, [then])]
    parts.append(f"**{escape_markdown(evidence)}**\n{evidence_markdown(texts)}")
    if texts.recommendation:
        advice = escape_markdown(texts.text("recommendation_over" if over else "recommendation"))
        parts.append(f"**{advice}** {escape_markdown(texts.recommendation)}")
    # How to answer it once its repair issue is gone (read days later): by its id.
    parts.append(f"_{escape_markdown(texts.text('answer_note', anomaly_id=anomaly.key))}_")
    return "\n\n".join(parts)


def advice_over(texts: AnomalyTexts) -> str:
    """Markdown: "**While it lasted, the advice was:** ..." of an "Over", "" none."""
    if not texts.recommendation:
        return ""
    over = escape_markdown(texts.text("recommendation_over"))
    return f"**{over}** {escape_markdown(texts.recommendation)}"
