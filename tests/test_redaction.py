"""The redactor: every form in which a secret or the profile can come back is scrubbed,
and ordinary text is left alone."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
import json
from typing import Any
from urllib.parse import quote

import pytest

from custom_components.anomaly_monitor.core.llm.backend import (
    LLMAuthError,
    LLMResponseError,
    Message,
)
from custom_components.anomaly_monitor.core.models import Finding, Label, Severity, Verdict
from custom_components.anomaly_monitor.redaction import (
    INLINE_SCRUB_LIMIT,
    NOTIFY_REPLACEMENT,
    PROFILE_REPLACEMENT,
    REDACTED,
    RedactingBackend,
    Redactor,
    redacted_config,
    strip_url_credentials,
)

PROFILE = "Zoë works night shifts at Saint Mary's hospital; the cat Biscuit sleeps in the garage."
CONFIG = {
    "api_key": "sk-live-0123456789",
    "base_url": "http://bob:p%40ss-word-42@10.0.0.5:8080/v1",
    "notify_targets": ["notify.mobile_app_janes_phone"],
    "household_profile": PROFILE,
}
REDACTOR = Redactor.from_config(CONFIG)


@pytest.mark.parametrize(
    "echo",
    [
        PROFILE,
        PROFILE.upper(),
        "zoë   works\tnight\n shifts, at saint mary's hospital",
        json.dumps({"said": PROFILE}),  # JSON, ASCII-escaped: Zo\u00eb
        json.dumps(json.dumps({"said": PROFILE})),  # JSON inside JSON
        "<p>Zo&euml; works night shifts at Saint Mary&#39;s hospital</p>",
        "?q=Zo%C3%AB%20works%20night%20shifts%20at%20Saint%20Mary",
        "the cat Biscuit sleeps in the garage",  # any five words in a row
    ],
)
def test_profile_echo_is_replaced_in_any_form(echo: str) -> None:
    scrubbed = REDACTOR.text(f"Before. {echo} After.")
    assert PROFILE_REPLACEMENT in scrubbed
    for word in ("zoë", "zo\\u00eb", "biscuit", "saint", "shifts"):
        assert word not in scrubbed.lower()
    assert scrubbed.startswith("Before.")
    assert scrubbed.endswith("After.")


@pytest.mark.parametrize(
    "text",
    [
        "Motion in the hallway while nobody is home.",
        "Smoke at the kitchen: works as a night light?",  # profile words, not in its order
        "the cat sleeps in",  # four profile words in a row: too common to be an echo
    ],
)
def test_ordinary_text_is_kept(text: str) -> None:
    assert REDACTOR.text(text) == text


def test_secrets_in_every_form() -> None:
    basic = "Basic " + base64.b64encode(b"bob:p@ss-word-42").decode()  # an Authorization header
    text = (
        "GET http://bob:p%40ss-word-42@10.0.0.5:8080/v1 with sk-live-0123456789 "
        f"({quote('sk-live-0123456789')}), {basic}, password p@ss-word-42; "
        "notify.mobile_app_janes_phone and mobile_app_janes_phone failed; "
        "notify.mobile_app_janes_phone_2 is another one"
    )
    scrubbed = REDACTOR.text(text)
    for secret in ("p@ss", "p%40ss", "sk-live", basic.split()[1], "janes_phone "):
        assert secret not in scrubbed
    assert f"http://{REDACTED}@10.0.0.5:8080/v1" in scrubbed
    assert scrubbed.count(NOTIFY_REPLACEMENT) == 2
    assert "notify.mobile_app_janes_phone_2" in scrubbed  # a different target's name


def test_url_credentials_anywhere() -> None:
    assert strip_url_credentials("a https://u@h/x and ftp://u:p@h") == (
        f"a https://{REDACTED}@h/x and ftp://{REDACTED}@h"
    )
    assert strip_url_credentials("mail me at bob@example.com") == "mail me at bob@example.com"


def test_short_or_empty_profile_and_secrets_garble_nothing() -> None:
    redactor = Redactor.from_config({"household_profile": "cat", "api_key": "ab"})
    assert redactor.text("the cat ab") == "the cat ab"
    two_words = Redactor.from_config({"household_profile": "Night nurse"})
    assert two_words.text("A night nurse lives here") == f"A {PROFILE_REPLACEMENT} lives here"
    assert Redactor().text("anything") == "anything"


def test_verdict_and_data() -> None:
    finding = Finding(
        rule="llm",
        evidence=("binary_sensor.smoke",),
        reasoning=f"Because {PROFILE}",
        anomaly_type="safety_hazard",
        severity=Severity.HIGH,
        recommendation="Call notify.mobile_app_janes_phone",
    )
    verdict = REDACTOR.verdict(Verdict.from_findings([finding], "llm"))
    assert verdict.label is Label.ANOMALY
    assert verdict.reasoning == f"Because {PROFILE_REPLACEMENT}."
    assert verdict.findings[0].recommendation == f"Call {NOTIFY_REPLACEMENT}"
    assert verdict.evidence == ("binary_sensor.smoke",)
    assert REDACTOR.data({"a": [PROFILE, 3, ("sk-live-0123456789",)]}) == {
        "a": [f"{PROFILE_REPLACEMENT}.", 3, [REDACTED]]
    }


def test_redacted_config_keeps_what_helps_and_hides_the_rest() -> None:
    shown = redacted_config({**CONFIG, "model": "qwen"})
    assert shown == {
        "api_key": REDACTED,
        "base_url": f"http://{REDACTED}@10.0.0.5:8080/v1",
        "notify_targets": REDACTED,
        "household_profile": REDACTED,
        "model": "qwen",
    }


@pytest.mark.parametrize(
    "path",
    [
        "/home/alice/models/qwen2.5-0.5b-instruct-q4_k_m.gguf",
        "C:\\Users\\Alice\\models\\qwen2.5-0.5b-instruct-q4_k_m.gguf",
        "qwen2.5-0.5b-instruct-q4_k_m.gguf",
    ],
)
def test_diagnostics_show_the_model_file_by_its_name_only(path: str) -> None:
    """Which model helps a bug report; the folder it sits in may name a person."""
    shown = redacted_config({"backend": "llama_cpp", "model_path": path, "threads": 2})
    assert shown == {
        "backend": "llama_cpp",
        "model_path": "qwen2.5-0.5b-instruct-q4_k_m.gguf",
        "threads": 2,
    }
    assert "alice" not in str(shown).lower()


class _Backend:
    name = "scripted"

    def __init__(self, reply: str = "", error: Exception | None = None) -> None:
        self.reply, self.error = reply, error
        self.closed = False

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        if self.error is not None:
            raise self.error
        return self.reply

    async def async_close(self) -> None:
        self.closed = True


async def test_backend_wrapper_scrubs_replies_and_errors() -> None:
    short = RedactingBackend(_Backend(f'{{"reasoning": "{PROFILE}"}}'), REDACTOR)
    assert PROFILE_REPLACEMENT in await short.async_generate([])
    long_reply = "x " * INLINE_SCRUB_LIMIT + PROFILE  # scrubbed off the event loop
    assert (await RedactingBackend(_Backend(long_reply), REDACTOR).async_generate([])).endswith(
        f"x {PROFILE_REPLACEMENT}."
    )

    auth = LLMAuthError("http://bob:p%40ss-word-42@h/v1 rejected sk-live-0123456789")
    with pytest.raises(LLMAuthError) as err:  # same class: reauth still starts
        await RedactingBackend(_Backend(error=auth), REDACTOR).async_generate([])
    assert "sk-live" not in str(err.value)
    assert "p%40ss" not in str(err.value)

    crash = ValueError(f"cannot parse {PROFILE}")
    with pytest.raises(LLMResponseError) as err:  # any failure is a backend failure
        await RedactingBackend(_Backend(error=crash), REDACTOR).async_generate([])
    assert "ValueError" in str(err.value)
    assert PROFILE_REPLACEMENT in str(err.value)
    assert err.value.__cause__ is None
    assert err.value.__suppress_context__

    wrapped = _Backend()
    backend = RedactingBackend(wrapped, REDACTOR)
    await backend.async_validate()  # the wrapped backend has no check: nothing to do
    assert backend.reply == ""  # other attributes are the wrapped backend's
    await backend.async_close()
    assert wrapped.closed
