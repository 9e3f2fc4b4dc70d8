"""What an explanation says a device IS, checked against the device's state in the window.

A small model gets the state itself wrong: "The Kitchen Smoke Detector is reporting smoke"
for a detector that reads clear, "the Front door contact and Front door lock are locked"
for an open door (a live hass). Such an explanation is not shown. How a sentence is read
(English, HA's state words per domain and device class, ``state_words``):

- **Subjects**: devices named (``device_mentions``), alone or in a list ("the contact and
  the lock are locked": both; "A or B": unsure); a few words may follow ("in the Hall").
- **Claims**: a verb (is, has been, reads, shows, reports, was, opened, turned off, left,
  ...), adverbs, a negation ("not", "n't", "no longer"), then state words ("open",
  "locked", "on", "clear", "home", "heating", "armed", "open and unlocked") or, after a
  reporting verb, what is found ("reporting smoke", "reports nothing"); also "with the
  Window open" and "the unlocked Front Door Lock".
- **Judging**: a claim about now contradicts when the device's value differs (a negated
  one when it is the same); about the past ("was opened") or lately ("shows activity")
  it holds if the device has that value now or changed in the window. Whatever is not
  understood is not judged: only a direct contradiction rejects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
import re

from ..device_mentions import MARKER, Mention, find_mentions
from ..models import ContextWindow, EntityState
from ..rules.context import ANGLE_TOLERANCE
from ..state_words import (
    ALARM,
    DETECTION,
    HVAC,
    LOCK,
    OPENING,
    POWER,
    PRESENCE,
    RUNNING,
    agrees,
    implied,
    state_value,
)

# Claim words: what each says, as (aspect, value) choices; the first aspect the device has
# is used ("triggered" is an alarm panel's state, or a detector's).
_SAYS = {
    "open": (OPENING, "open"), "opened": (OPENING, "open"),  # not "ajar": a contact may miss it
    "closed": (OPENING, "closed"), "shut": (OPENING, "closed"), "locked": (LOCK, "locked"),
    "unlocked": (LOCK, "unlocked"), "jammed": (LOCK, "jammed"), "on": (POWER, "on"),
    "off": (POWER, "off"), "running": (RUNNING, "running"), "stopped": (RUNNING, "stopped"),
    "detected": (DETECTION, "detected"), "detecting": (DETECTION, "detected"),
    "clear": (DETECTION, "clear"), "wet": (DETECTION, "detected"),
    "leaking": (DETECTION, "detected"), "flooded": (DETECTION, "detected"),
    "dry": (DETECTION, "clear"), "occupied": (DETECTION, "detected"),
    "unoccupied": (DETECTION, "clear"), "silent": (DETECTION, "clear"),
    "home": (PRESENCE, "home"), "away": (PRESENCE, "away"), "heating": (HVAC, "heating"),
    "cooling": (HVAC, "cooling"), "idle": (HVAC, "idle"), "armed": (ALARM, "armed"),
    "disarmed": (ALARM, "disarmed"),
}  # fmt: skip
_WORDS: dict[str, tuple[tuple[str, str], ...]] = {w: (said,) for w, said in _SAYS.items()}
_WORDS["triggered"] = ((ALARM, "triggered"), (DETECTION, "detected"))  # a panel's, or a detector's
# What a detector finds: "reporting smoke", "detects a leak", "shows no motion".
_FOUND = frozenset(
    {
        "smoke", "fire", "gas", "co", "monoxide", "leak", "water", "moisture", "flood",
        "flooding", "motion", "movement", "activity", "presence", "someone", "occupancy",
        "sound", "noise", "vibration", "tampering",
    }
)  # fmt: skip
_PRESENT = frozenset(
    {"is", "are", "'s", "remains", "remain", "stays", "stay", "keeps", "keep", "appears",
     "appear", "seems", "seem", "reads", "read", "shows", "show", "reports", "report",
     "says", "say", "indicates", "indicate", "detects", "detect", "senses", "sense",
     "registers", "register", "does", "do"}
)  # fmt: skip
_PAST = frozenset(
    {"was", "were", "became", "got", "reported", "showed", "indicated", "said", "detected",
     "sensed", "registered", "did", "went"}
)  # fmt: skip
_REPORTING = frozenset(
    {"reads", "read", "shows", "show", "reports", "report", "says", "say", "indicates",
     "indicate", "detects", "detect", "senses", "sense", "registers", "register", "reported",
     "showed", "indicated", "said", "detected", "sensed", "registered", "reporting",
     "showing", "indicating", "detecting", "sensing", "registering", "saying"}
)  # fmt: skip
# A verb that is itself the claim: "The Front Door opened at 18:55."
_EVENTS = frozenset({"opened", "closed", "shut", "locked", "unlocked"})
_NONE = frozenset({"that", "no", "nothing"})
_SWITCHING = frozenset({"turned", "switched", "powered", "turning", "switching"})
_ADVERBS = frozenset(
    {"still", "now", "currently", "already", "again", "also", "both", "all", "just", "actually",
     "apparently", "left", "been", "being", "at", "fully", "completely", "wide", "properly",
     "securely", "reportedly", "firmly"}
)  # fmt: skip
_ARTICLES = frozenset({"a", "an", "the", "some", "any", "its", "their"})
_LINKS = frozenset({"and", ",", "as", "well", "both"})  # "A, B and C", "A as well as B"
_UNSURE_LINKS = frozenset({"or", "nor", "either", "neither"})
_ENDS = frozenset(  # what may follow "on"/"off" as a claim (not "turned on the heating")
    {".", ",", ";", ":", "!", "?", "and", "but", "while", "at", "in", "for", "since", "again",
     "now", "when", "after", "before", "although", "though", "yet", "so", "because", "with",
     "even", "all", "too", "as", "already", "by", "until", ""}
)  # fmt: skip
_FILLER = 4  # words allowed between a mention and its verb ("in the Hall")
_TOKEN = re.compile(r"\x00\d+\x00|'s\b|[^\W_]+(?:-[^\W_]+)*|[.,;:!?]")
_CLAUSE = frozenset(
    {"while", "but", "and", "when", "since", "because", "although", "though", "which", "that",
     "who", "where", "if", "as", "so", "yet", "after", "before", "until", "whereas", "or",
     "then", "even", "nor", "unless"}
)  # fmt: skip
NOW, PAST, LATELY = "now", "past", "lately"  # when a claim says the device was so
_STATIVE = frozenset({"is", "are", "'s", "remains", "remain", "stays", "stay", "appears", "seems"})
_NOT = re.compile(r"n[’']t\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Contradiction:
    """One claim of the explanation that the window's state refutes."""

    entity_id: str
    said: str  # the claim word ("locked", "smoke", "not locked")
    state: str  # the device's state in the window

    def __str__(self) -> str:  # for the benchmark's list of rejections
        return f"{self.entity_id}: said {self.said!r}, state {self.state!r}"


def contradiction(
    text: str, window: ContextWindow, evidence: Iterable[str] = ()
) -> Contradiction | None:
    """The first claim of ``text`` that a device's state in ``window`` refutes, or None."""
    by_id = window.by_id()
    shown = [by_id[e] for e in evidence if e in by_id]
    text = _NOT.sub(" not", text.replace("’", "'"))  # "isn't" -> "is not"
    mentions, marked = find_mentions(text, list(by_id.values()), shown)
    tokens: list[str | Mention] = [
        mentions[int(m.group(1))] if (m := MARKER.fullmatch(t)) else t
        for t in _TOKEN.findall(marked.lower())
    ]
    for subjects, said, negated, when in _claims(tokens):
        for mention in subjects:
            found = _judge(mention, said, negated, when, window)
            if found is not None:
                return found
    return None


_Said = tuple[str, bool, str]  # claim word, negated, when
_Claim = tuple[list[Mention], str, bool, str]  # subjects, and the same


def _claims(tokens: list[str | Mention]) -> list[_Claim]:
    """Every (subjects, claim word, negated, when: NOW, PAST, LATELY) the tokens make."""
    claims: list[_Claim] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, Mention):
            subjects, i = _subjects(tokens, i)
            if subjects:
                claims.extend((subjects, *c) for c in _predicate(tokens, i))
            continue
        after_article = i > 0 and tokens[i - 1] in ("the", "an", "a", "your")
        if token == "with" or (after_article and token in ("open", "closed", "locked", "unlocked")):
            claims.extend(_attached(tokens, i))
        i += 1
    return claims


def _subjects(tokens: list[str | Mention], i: int) -> tuple[list[Mention], int]:
    """A mention and those listed with it; [] when the list is unsure ("A or B")."""
    subjects: list[Mention] = []
    unsure = False
    while i < len(tokens):
        if isinstance(tokens[i], Mention):
            subjects.append(tokens[i])  # type: ignore[arg-type]
            i += 1
            continue
        j = i
        while j < len(tokens) and tokens[j] in _LINKS | _UNSURE_LINKS | _ARTICLES:
            j += 1
        links = tokens[i:j]
        if (
            j < len(tokens)
            and isinstance(tokens[j], Mention)
            and any(t in ("and", ",", "or", "nor") for t in links)
        ):
            unsure = unsure or any(t in _UNSURE_LINKS for t in links)
            i = j
            continue
        break
    return ([] if unsure else subjects), i


def _predicate(tokens: list[str | Mention], i: int) -> list[_Said]:
    """The claims after a subject."""
    j = i
    while j < len(tokens) and j - i < _FILLER:  # "in the Hall", "sensor"
        token = tokens[j]
        if token == "," and _is_verb(_next(tokens, j + 1)):  # "A, and B, are"
            j += 1
            break
        if not isinstance(token, str) or not token.isalnum() or token in _CLAUSE or _is_verb(token):
            break
        j += 1
    if j >= len(tokens) or not isinstance(tokens[j], str) or not _is_verb(str(tokens[j])):
        return []
    verb = str(tokens[j])
    past = verb in _PAST or verb in ("had", "left", "turned", "switched", "powered")
    if verb in _EVENTS:  # "The Front Door opened", "the lock unlocked at 19:10"
        return [(verb, False, PAST)]
    if verb in ("arrived", "came", "returned"):
        return [("home", False, PAST)]
    if verb == "left" and _next(tokens, j + 1) in _ENDS | {"home", "the"}:
        return [("away", False, PAST)]
    return _states(tokens, j + 1, past, verb)


def _is_verb(token: str) -> bool:
    if token in _PRESENT or token in _PAST or token in _EVENTS or token in _SWITCHING:
        return True
    if token in ("has", "have", "had", "arrived", "came", "returned", "left"):
        return True
    return token in _REPORTING


def _states(tokens: list[str | Mention], j: int, past: bool, verb: str) -> list[_Said]:
    """State words after a verb, with adverbs and a negation in between."""
    negated = False
    reporting = verb in _REPORTING
    n = len(tokens)
    while j < n and isinstance(tokens[j], str):
        token = str(tokens[j])
        if token in ("not", "never"):
            negated, past = True, past or token == "never"
        elif token == "no" and _next(tokens, j + 1) == "longer":
            negated, j = True, j + 1
        elif token in ("has", "have", "had", "been", "being", "does", "do", "did"):
            past = past or token in ("had", "did")
        elif token in _REPORTING:
            if token in _WORDS and _next(tokens, j + 1) not in _FOUND | _ARTICLES | _NONE:
                past = past or (token == "detected" and verb not in _STATIVE)
                break  # "is detected": the state word itself; "has been detected": an event
            reporting = True
            past = past or token.endswith("ed") or token in ("said", "read", "showed")
        elif token in _SWITCHING:
            past = past or token in ("turned", "switched", "powered")
        elif token in ("opened", "locked", "unlocked") and verb not in _STATIVE:
            past = True  # "has opened", "was unlocked": an event, not only a state
            break
        elif token not in _ADVERBS:
            break
        j += 1
    return _state_words(tokens, j, negated, past, reporting)


def _state_words(
    tokens: list[str | Mention],
    j: int,
    negated: bool,
    past: bool,
    reporting: bool,
) -> list[_Said]:
    found: list[_Said] = []
    # "shows activity", "is reporting smoke": what a sensor reported lately, as a rule says
    # of a motion sensor that toggled in the window and is clear this second.
    found_when = PAST if past else LATELY
    while j < len(tokens):
        token = tokens[j]
        if not isinstance(token, str):
            break
        if reporting and token == "that":  # "reports that the window is open"
            return _reported(tokens, j + 1, negated, past)
        if (
            reporting
            and token in ("nothing", "no")
            and (
                token == "nothing"
                or _next(tokens, j + 1) in _FOUND
                or _next(tokens, j + 2) in _FOUND
            )
        ):
            found.append(("clear", negated, found_when))
        elif reporting and (
            token in _FOUND or (token in _ARTICLES and _next(tokens, j + 1) in _FOUND)
        ):
            found.append(("detected", negated, found_when))
        elif token in _WORDS and (
            token not in ("on", "off", "home") or _next(tokens, j + 1) in _ENDS
        ):
            found.append((token, negated, PAST if past else NOW))
        else:
            break
        # "open and unlocked": more state words for the same subjects
        if _next(tokens, j + 1) in ("and", ",") and _next(tokens, j + 2) in _WORDS:
            j += 2
            continue
        break
    return found


def _reported(tokens: list[str | Mention], j: int, negated: bool, past: bool) -> list[_Said]:
    """ "reports that the window is open": the device's own words about itself."""
    end = min(len(tokens), j + 4)
    for k in range(j, end):
        token = tokens[k]
        if not isinstance(token, str) or token in _ENDS - {""}:
            return []
        if token in ("is", "are", "was", "were"):
            return _states(tokens, k + 1, past or token in ("was", "were"), token)
    return []


def _attached(tokens: list[str | Mention], i: int) -> list[_Claim]:
    """ "with the Window open", "the unlocked Front Door Lock": claims about now."""
    token = tokens[i]
    j = i + 1
    while j < len(tokens) and tokens[j] in _ARTICLES:
        j += 1
    if j >= len(tokens) or not isinstance(tokens[j], Mention):
        return []
    mention = tokens[j]
    assert isinstance(mention, Mention)
    if token != "with":
        return [([mention], str(token), False, NOW)]
    k = j + 1
    negated = False
    while k < len(tokens) and tokens[k] in ("still", "now", "not", "wide", "fully"):
        negated = negated or tokens[k] == "not"
        k += 1
    word = _next(tokens, k)
    if word in _WORDS and (word not in ("on", "off") or _next(tokens, k + 1) in _ENDS):
        return [([mention], word, negated, NOW)]
    return []


def _next(tokens: list[str | Mention], j: int) -> str:
    token = tokens[j] if j < len(tokens) else ""
    return token if isinstance(token, str) else "\x00"


def _judge(
    mention: Mention, said: str, negated: bool, when: str, window: ContextWindow
) -> Contradiction | None:
    refuted = [d for d in mention.devices if _refutes(d, said, negated, when, window)]
    if not refuted or (mention.plural and len(refuted) < len(mention.devices)):
        return None
    device = refuted[0]
    return Contradiction(device.entity_id, f"not {said}" if negated else said, device.state)


def _refutes(
    device: EntityState, said: str, negated: bool, when: str, window: ContextWindow
) -> bool:
    """Whether the device's state refutes the claim (unsure is False)."""
    for aspect, value in _WORDS[said]:
        actual = state_value(device, aspect)
        if actual is None:
            continue
        holds_now = agrees(value, actual)
        if negated:
            return holds_now and when == NOW
        if aspect == OPENING and value == "open" and _ajar(device, window):
            return False  # the contact reads closed, its angle sensor shows it open
        return not holds_now and _not_then(device, when, window)
    if negated:
        return False
    for aspect, value in _WORDS[said]:
        if implied(device, aspect, value) is False:
            return _not_then(device, when, window)
    return False


def _not_then(device: EntityState, when: str, window: ContextWindow) -> bool:
    """Whether a claim that does not hold now did not hold when it says either."""
    if when == NOW:
        return True
    if when == LATELY:  # unless it changed in the window (a snapshot: judged on now)
        return not any(t.entity_id == device.entity_id for t in window.transitions)
    return _unchanged_in(device, window)


def _ajar(device: EntityState, window: ContextWindow) -> bool:
    """An angle sensor (unit °) of the contact's area shows it open past a closed slack."""
    area = device.info.area
    return bool(area) and any(
        s.info.area == area and s.info.unit == "°" and (s.number or 0) > ANGLE_TOLERANCE
        for s in window.snapshot
    )


def _unchanged_in(device: EntityState, window: ContextWindow) -> bool:
    """Whether the device is known to have kept its state through the window."""
    if any(t.entity_id == device.entity_id for t in window.transitions):
        return False
    if device.last_changed is not None and window.start is not None:
        return device.last_changed <= window.start
    return bool(window.transitions)  # a sequence without it: it did not change
