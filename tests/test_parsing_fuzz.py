"""A seeded corpus of 2,700 malformed, hostile and oversized replies: the parser never raises,
never cites a device outside the window, and a stray fragment never hides a valid answer."""

from __future__ import annotations

import json

from custom_components.anomaly_monitor.core.llm.parsing import MAX_EVIDENCE, parse_reply

from .fuzz_replies import corpus, window_ids

WINDOW = window_ids(500)
NAMES = {eid: eid.partition(".")[2].replace("_", " ").title() for eid in WINDOW}


def test_fuzz_corpus_never_raises_or_cites_outside_the_window() -> None:
    known = set(WINDOW)
    verdicts = 0
    for case, reply in corpus(2_700, seed=15):
        parsed = parse_reply(reply, WINDOW, names=NAMES)  # an exception fails the test
        assert len(parsed.raw) <= 4000, case
        if parsed.verdict is None:
            assert parsed.error, case
            continue
        verdicts += 1
        assert set(parsed.verdict.evidence) <= known, case
        assert len(parsed.verdict.evidence) <= MAX_EVIDENCE, case
        for finding in parsed.verdict.findings:
            assert set(finding.evidence) <= known, case
    # The corpus is not all garbage: many replies still carry a readable answer.
    assert 500 < verdicts < 2_700


def test_a_stray_fragment_before_the_answer_does_not_lose_it() -> None:
    answer = json.dumps({"label": "anomaly", "evidence": [WINDOW[0]], "severity": "critical"})
    for stray in (
        "{{}}",
        "{'a': {1, 2}}",
        "{set()}",
        "{[}",
        "{" * 3000,
        '{"a":' * 700 + "1" + "}" * 700,
    ):
        parsed = parse_reply(
            f"{stray} {answer}"[-4000:] if len(stray) > 3000 else f"{stray} {answer}", WINDOW
        )
        assert parsed.verdict is not None, stray[:20]
        assert parsed.verdict.evidence == (WINDOW[0],), stray[:20]


def test_evidence_as_one_long_string_is_capped() -> None:
    cited = ", ".join([*(f"{eid}x" for eid in WINDOW[:100]), WINDOW[7]])  # < 4000 chars
    parsed = parse_reply(json.dumps({"label": "anomaly", "evidence": cited}), WINDOW)
    assert parsed.verdict is not None
    assert len(parsed.verdict.evidence) <= MAX_EVIDENCE
    assert set(parsed.verdict.evidence) <= set(WINDOW)


def test_an_answer_wrapped_in_another_object_is_found() -> None:
    reply = json.dumps({"response": {"answer": {"label": "anomaly", "evidence": [WINDOW[3]]}}})
    parsed = parse_reply(reply, WINDOW)
    assert parsed.verdict is not None
    assert parsed.verdict.evidence == (WINDOW[3],)
