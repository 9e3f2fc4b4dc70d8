"""Keep secrets out of everything a person or a log sees.

Secrets are the credentials in the backend URL, the API key, the notify targets (they name
people's phones) and the household profile. The profile is sent to the model on purpose,
so a model, or a server's error page that echoes the request, can send it back: model and
server text is scrubbed before anything shows it. Used at the boundaries: around every
LLM backend (replies and errors), on verdicts, in diagnostics, repair issues and logs.

The profile is recognised by its words, not its bytes: any run of ``PROFILE_RUN`` or more
consecutive profile words (the whole profile when it is shorter) is replaced, whatever the
case, spacing, punctuation, or JSON/HTML/URL escaping between and inside the words.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
import html
from html.entities import codepoint2name
import logging
import re
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from homeassistant.const import CONF_API_KEY

from .const import CONF_BASE_URL, CONF_MODEL_PATH, CONF_NOTIFY, CONF_PROFILE
from .core.llm.backend import FirstToken, LLMBackend, LLMError, LLMResponseError, Message
from .core.models import Finding, Verdict

_LOGGER = logging.getLogger(__name__)

REDACTED = "**REDACTED**"
PROFILE_REPLACEMENT = "[household profile]"
NOTIFY_REPLACEMENT = "[notify target]"
# Consecutive profile words that count as an echo of the profile.
PROFILE_RUN = 5
# A secret shorter than this is too likely to be an ordinary word to replace everywhere;
# URL credentials of any length still go with the URL pattern below.
MIN_SECRET_LENGTH = 4
# Replies up to this length (a verdict is well under) are scrubbed in the event loop.
INLINE_SCRUB_LIMIT = 4096
# Entry keys whose values are never shown, diagnostics included.
SECRET_KEYS = frozenset({CONF_API_KEY, CONF_PROFILE, CONF_NOTIFY, "token", "password"})

_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}://)[^/\s@?#\"'<>]{0,512}@")
# What escaping puts between words (JSON \n or \", URL %20, HTML &#39;) or in them (\u00eb).
# Bounded and possessive: whatever the input, each place the search tries costs little.
_SEPARATOR = r"(?:\\[nrtbf\"'/]|%[0-9A-Fa-f]{2}|&#?[0-9A-Za-z]{1,10};|[\W_]){1,16}+"
_TOKENS = re.compile(
    r"(?P<sep>\\[nrtbf\"'/]|%[0-7][0-9A-Fa-f])"
    r"|(?P<chunk>(?:\\{1,8}u[0-9A-Fa-f]{4}|&#?[0-9A-Za-z]{1,10};|%[89A-Fa-f][0-9A-Fa-f]|[^\W_])++)"
)
_JSON_UNICODE = re.compile(r"\\{1,8}u([0-9A-Fa-f]{4})")
_WORD = re.compile(r"[^\W_]+")


def strip_url_credentials(text: str) -> str:
    """``text`` with the ``user:password@`` of every URL in it redacted."""
    return _URL_USERINFO.sub(rf"\g<scheme>{REDACTED}@", text)


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


def _decoded_words(chunk: str) -> list[str]:
    """The words of a chunk of text once its JSON and HTML escapes are undone."""
    chunk = _JSON_UNICODE.sub(lambda m: chr(int(m[1], 16)), unquote(chunk))
    return _words(html.unescape(chunk))


def _letter_pattern(char: str) -> str:
    """A letter as text may carry it: itself, or JSON-, HTML- or URL-escaped."""
    if char.isascii():
        return re.escape(char)
    forms = [
        re.escape(char),
        rf"\\{{1,8}}u{ord(char):04x}",
        rf"&#0{{0,4}}{ord(char)};",
        rf"&#x0{{0,4}}{ord(char):x};",
    ]
    if (name := codepoint2name.get(ord(char))) is not None:
        forms.append(f"&{name};")
    forms.append(re.escape(quote(char)))
    return f"(?:{'|'.join(forms)})"


def _word_pattern(word: str) -> str:
    return "".join(_letter_pattern(char) for char in word)


@dataclass(frozen=True, slots=True)
class _ProfileMatcher:
    """Finds echoes of the household profile in text.

    A fast regex finds stretches of at least ``run`` consecutive profile words in any order;
    only those stretches are read word by word to check that the words follow the profile.
    """

    run: int
    runs: frozenset[tuple[str, ...]]
    candidates: re.Pattern[str]

    @classmethod
    def of(cls, profile: str) -> _ProfileMatcher | None:
        words = _words(profile)
        if not words or (len(words) == 1 and len(words[0]) < MIN_SECRET_LENGTH + 1):
            return None  # one short word: replacing it everywhere would garble text
        run = min(PROFILE_RUN, len(words))
        vocabulary = "|".join(_word_pattern(w) for w in sorted(set(words), key=len, reverse=True))
        word = rf"(?:{vocabulary})(?![^\W_])"
        return cls(
            run,
            frozenset(tuple(words[i : i + run]) for i in range(len(words) - run + 1)),
            re.compile(rf"(?<![^\W_]){word}(?:{_SEPARATOR}{word}){{{run - 1},}}", re.IGNORECASE),
        )

    def replace(self, text: str) -> str:
        return self.candidates.sub(lambda m: self._replace_runs(m[0]), text)

    def _replace_runs(self, text: str) -> str:
        spans: list[tuple[int, int]] = []  # one per word: the chunk it was read from
        words: list[str] = []
        for match in _TOKENS.finditer(text):
            if match.lastgroup == "chunk":
                for word in _decoded_words(match[0]):
                    words.append(word)
                    spans.append(match.span())
        covered = [False] * len(words)
        for i in range(len(words) - self.run + 1):
            if tuple(words[i : i + self.run]) in self.runs:
                covered[i : i + self.run] = [True] * self.run
        out, position, i = [], 0, 0
        while i < len(words):
            if not covered[i]:
                i += 1
                continue
            start = spans[i][0]
            while i < len(words) and covered[i]:
                i += 1
            out += [text[position:start], PROFILE_REPLACEMENT]
            position = spans[i - 1][1]
        out.append(text[position:])
        return "".join(out)


def _alternatives(texts: Iterable[str]) -> str:
    return "|".join(re.escape(t) for t in sorted(set(texts), key=len, reverse=True))


@dataclass(frozen=True, slots=True)
class Redactor:
    """Scrubs one monitor's secrets from text, verdicts and diagnostics data."""

    secrets: tuple[str, ...] = ()
    notify_targets: tuple[str, ...] = ()
    profile: str = ""
    _secrets: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _targets: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _profile: _ProfileMatcher | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # As written, and as a URL or an HTML page would echo them.
        literals = [
            form
            for secret in self.secrets
            if len(secret) >= MIN_SECRET_LENGTH
            for form in (secret, quote(secret, safe=""), html.escape(secret))
        ]
        # notify.mobile_app_phone, and the service name alone (mobile_app_phone).
        targets = [t for t in self.notify_targets if t]
        targets += [name for t in targets if len(name := t.partition(".")[2]) >= MIN_SECRET_LENGTH]
        object.__setattr__(
            self, "_secrets", re.compile(_alternatives(literals)) if literals else None
        )
        object.__setattr__(
            self,
            "_targets",
            re.compile(rf"(?<![\w.])(?:{_alternatives(targets)})(?!\w)") if targets else None,
        )
        object.__setattr__(self, "_profile", _ProfileMatcher.of(self.profile))

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Redactor:
        """The redactor of an entry's merged ``{**data, **options}``."""
        secrets = [str(config.get(CONF_API_KEY) or "")]
        if url := config.get(CONF_BASE_URL):
            try:
                parts = urlsplit(str(url).strip())
                # The password as written and decoded, and the Basic authorization the HTTP
                # client builds from the URL; the user name alone goes with the URL pattern.
                if parts.password:
                    user, password = unquote(parts.username or ""), unquote(parts.password)
                    basic = base64.b64encode(f"{user}:{password}".encode()).decode()
                    secrets += [parts.password, password, basic]
            except ValueError:
                pass  # not a URL: the pattern still strips anything that looks like userinfo
        targets = config.get(CONF_NOTIFY) or []
        return cls(
            secrets=tuple(s for s in secrets if s),
            notify_targets=tuple(str(t) for t in targets) if isinstance(targets, list) else (),
            profile=str(config.get(CONF_PROFILE) or ""),
        )

    def text(self, value: str) -> str:
        """``value`` without URL credentials, secrets, notify targets or profile echoes."""
        value = strip_url_credentials(value)
        if self._secrets is not None:
            value = self._secrets.sub(REDACTED, value)
        if self._targets is not None:
            value = self._targets.sub(NOTIFY_REPLACEMENT, value)
        return self._profile.replace(value) if self._profile is not None else value

    def data(self, value: Any) -> Any:
        """Every string inside ``value`` (mappings, lists, tuples) scrubbed with ``text``."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {key: self.data(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(item) for item in value]
        return value

    def _finding(self, finding: Finding) -> Finding:
        return replace(
            finding,
            reasoning=self.text(finding.reasoning),
            recommendation=self.text(finding.recommendation),
            anomaly_type=self.text(finding.anomaly_type),
        )

    def verdict(self, verdict: Verdict) -> Verdict:
        """The verdict with every free-text field scrubbed (evidence is entity ids)."""
        return replace(
            verdict,
            reasoning=self.text(verdict.reasoning),
            recommendation=self.text(verdict.recommendation),
            anomaly_type=self.text(verdict.anomaly_type) if verdict.anomaly_type else None,
            findings=tuple(self._finding(f) for f in verdict.findings),
            # ``raw`` is the model's reply, already scrubbed by RedactingBackend and never shown.
        )


def redacted_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """Diagnostics form of entry data or options: secrets hidden, URLs without credentials,
    the model file by its name only (diagnostics are posted in public bug reports; the
    file's name says which model, its folder may name a person: /home/alice/...)."""
    return {
        key: REDACTED
        if key in SECRET_KEYS
        else _file_name(value)
        if key == CONF_MODEL_PATH and isinstance(value, str)
        else strip_url_credentials(value)
        if isinstance(value, str)
        else value
        for key, value in config.items()
    }


def _file_name(path: str) -> str:
    """The last part of a local path, whichever separator it uses."""
    return path.replace("\\", "/").rstrip("/").rpartition("/")[2]


class RedactingBackend:
    """An LLM backend whose replies and errors never carry the monitor's secrets.

    Every failure leaves as an ``LLMError`` with a scrubbed message and no chained cause
    (a traceback would print the original): whatever the backend raised, the monitor sees a
    backend failure and its rules still judge. Other attributes are the wrapped backend's.
    """

    def __init__(self, backend: LLMBackend, redactor: Redactor) -> None:
        self.wrapped = backend
        self.redactor = redactor
        self.name = backend.name

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)

    async def _scrub(self, text: str) -> str:
        if len(text) <= INLINE_SCRUB_LIMIT:
            return self.redactor.text(text)
        # A reply far longer than asked for: its scrubbing would hold up the event loop.
        return await asyncio.get_running_loop().run_in_executor(None, self.redactor.text, text)

    def _failure(self, err: Exception) -> LLMError:
        if isinstance(err, LLMError):
            err.args = (self.redactor.text(str(err)),)
            return err
        _LOGGER.debug("Backend %s raised %s", self.name, type(err).__name__)
        return LLMResponseError(self.redactor.text(f"{type(err).__name__}: {err}"))

    async def async_generate(
        self,
        messages: Sequence[Message],
        *,
        schema: Mapping[str, Any] | None = None,
        max_tokens: int = 512,
        timeout: float = 60.0,
    ) -> str:
        """The wrapped backend's reply, scrubbed."""
        try:
            reply = await self.wrapped.async_generate(
                messages, schema=schema, max_tokens=max_tokens, timeout=timeout
            )
        except Exception as err:  # every failure is a backend failure
            raise self._failure(err) from None
        return await self._scrub(reply)

    async def async_first_token(
        self,
        messages: Sequence[Message],
        *,
        words: Sequence[str] = (),
        top: int = 5,
        timeout: float = 60.0,
    ) -> FirstToken:
        """The wrapped backend's first token; a backend without one (AI Task) gives none."""
        first_token = getattr(self.wrapped, "async_first_token", None)
        try:
            if first_token is None:  # no word here: the caller asks with a structure
                return FirstToken("")
            token = await first_token(messages, words=words, top=top, timeout=timeout)
        except Exception as err:  # as in async_generate
            raise self._failure(err) from None
        return FirstToken(self.redactor.text(str(token.text)[:200]), token.logprobs)

    async def async_validate(self, **kwargs: Any) -> None:
        """The wrapped backend's check, if it has one, with scrubbed errors."""
        if (validate := getattr(self.wrapped, "async_validate", None)) is None:
            return
        try:
            await validate(**kwargs)
        except Exception as err:  # as in async_generate
            raise self._failure(err) from None

    async def async_close(self) -> None:
        """Close the wrapped backend."""
        await self.wrapped.async_close()
