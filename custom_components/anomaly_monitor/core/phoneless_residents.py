"""Whether somebody lives here without a tracked phone.

Every tracker away is "nobody home" only in a home where everybody carries one. A
grandmother without a mobile, a six-year-old, a live-in helper whose phone is not in the
app: HA has no attribute for it. The homeowner says so in the options ("People who live
here without a tracked phone", a count: ``phoneless_count``), or in the household profile,
in their own language ("Dada ji ka phone app mein nahi", "без смартфона", "sin celular",
"携帯なし"), read as for pets (``pets``).

The count, when given, wins over the profile: it is the homeowner's answer to the very
question (0: everybody here carries a tracked phone), where the profile is free text read
by a phrase list. Only without it is the profile read. Only the plain statement is read
there: a phone (mobile, cell, smartphone, tracker) said to be absent or not in the app. A
phone merely named ("notifications to my phone") is not.
"""

from __future__ import annotations

from functools import lru_cache
import re

from .models import ContextWindow
from .pets import has_pets

# A phone, in the words a homeowner uses for it (stems: "telefon" covers telefonu,
# telefona, telefonem; "mobil" covers mobile, mobilní, mobiltelefon).
_PHONE = (
    r"(?:smart)?phones?|mobiles?|cell ?phones?|cells?|trackers?|handys?|smartphones?"
    r"|celulare?s?|m[oó]vil(?:es)?|tel[eé]fonos?|t[eé]l[eé]phones?|portables?|telem[oó]vel"
    r"|cellulare|telefonino|telefoon|mobiel|gsm|telefon\w*|mobil\w*|kom[oó]rk\w*|smartfon\w*"
    r"|mobitel\w*|puhelin\w*|hp|hape|ponsel|telepon|simu|cp|apps?"
    # Catalan "mòbil", Welsh "ffôn", Afrikaans "(sel)foon"; the app itself ("aplikaciju")
    r"|m[òó]bil\w*|ff[ôo]n|(?:sel)?foon|aplikac\w*|aplicaci\w*"
    r"|смартфон\w*|телефон\w*|мобильн\w*|мобільн\w*|мобильник\w*"
    r"|κινητ[όο]|τηλ[έε]φωνο"
)
_ABSENT_BEFORE = (
    # "no phone", "without a phone", "has no mobile", "doesn't have a phone", "not on a tracker"
    r"no|without|has\s+no|have\s+no|doesn'?t\s+(?:have|carry)|does\s+not\s+(?:have|carry)"
    r"|sin|no\s+tienen?|sem|n[ãa]o\s+t[eê]m|sans|pas\s+de|n'a\s+pas\s+de|ohne|kein(?:e|en)?"
    r"|senza|non\s+ha|zonder|geen|bez|brez|nie\s+ma|utan|uten|uden|ingen|har\s+ikke"
    r"|fără|fara|nu\s+are|χωρίς|δεν\s+έχει|без|нет|tanpa|tidak\s+(?:punya|ada|pakai|bawa)"
    r"|tak\s+ada|bila|hana|walang|walay|án|be"
    # "don't have phones"; "nema (pametni) telefon"; "pa ena telefonn"; "leai se telefoni"
    r"|don'?t\s+(?:have|carry)|do\s+not\s+(?:have|carry)|nem(?:a|aju|á|ají)(?:\s+pametn\w+)?"
    r"|nima(?:jo)?|pa\s+ena|leai\s+se"
)
_POSSESSIVE = r"(?:an?|any|her|his|their|own|su|un|une|son|sa|einen?|ein|il|un|een|la|el)\s+"
_ABSENT_AFTER = (
    # "phone not in the app", "telefonu yok", "phone nahi", "telefon nélkül"
    r"(?:is\s+|are\s+)?not\s+(?:in|on)\s+(?:the\s+)?(?:app|system|home\s*assistant|ha)\b"
    r"|(?:\w+\s+){0,3}nahi+n?\b|(?:\w+\s+){0,2}yok\b|n[ée]lk[üu]l\b|nincs\b"
    # Latvian "telefons nav (lietotnē)", Uzbek "telefoni yo'q", Azerbaijani "telefonu yoxdur"
    r"|nav\b|yo['ʻ’]q\b|yox(?:dur)?\b"
    # Czech / Slovak "telefon v aplikaci nemá", "mobil nemá v aplikácii"
    r"|(?:\w+\s+){0,3}nem[áa]\b"
    # The Indic scripts' "is not / has not", after the word (Gujarati, Punjabi, Urdu,
    # Tamil, Telugu, Kannada, Malayalam, Odia): "phone નથી" (no word boundary: their
    # vowel signs are no word characters).
    r"|નથી|ਨਹੀਂ|نہیں|இல்லை|లేదు|ಇಲ್ಲ|ഇല്ല|ନାହିଁ"
)
_SCRIPT = (
    # Words that are not spaced, or are one word with their negation.
    r"没有(?:智能)?手机|没(?:智能)?手机|不用手机|手机不在|沒有(?:智慧型)?手機|沒手機|無手機|携帯(?:電話)?(?:なし|無し|を持っていない|を持たない)"
    r"|(?:スマホ|アプリ)(?:なし|無し|を持っていない|を持たない)|휴대폰\s*없|핸드폰\s*없|폰\s*없"
    r"|फ़?ोन\s*(?:नहीं|नाही|छैन|HA\s*मा\s*छैन)|ফোন\s*নেই|ફોન\s*નથી|ਫ਼?ੋਨ\s*ਨਹੀਂ|فون\s*نہیں|بدون\s+(?:هاتف|جوال|موبايل|گوشی|تلفن|تلفون)"
    r"|(?:ليس\s+(?:لديه|لديها|معه|معها)|ما\s+عند(?:ه|ها))\s+(?:هاتف|جوال|موبايل|تلفون)"
    r"|گوشی\s+ندار|בלי\s+(?:טלפון|פלאפון|סמארטפון)|אין\s+(?:לו|לה)\s+(?:טלפון|פלאפון)"
    r"|ไม่มี(?:โทรศัพท์|มือถือ)|không\s+(?:có|dùng)\s+điện\s+thoại|ስልክ\s+የ(?:ለውም|ላትም)"
    r"|утасгүй|телефонсыз|смартфонсыз|telefonsuz|telefonita"
    r"|(?:men|min|mn)\s+(?:gheir|ghair|ghir|3'eir)\s+(?:mobile|telefon)"
    r"|\buntracked\b|\bnot\s+tracked\b|\bwithout\s+(?:a\s+)?tracker\b"
    # Galician "sen móbil", Catalan "sense mòbil", Albanian "pa telefon", Welsh "dim ffôn":
    # short words that are other words elsewhere ("Pa phones on Sundays"), so only with
    # their own language's phone.
    r"|\bsen\s+(?:m[óo]bil|tel[eé]fono)\b|\bsense\s+(?:m[òo]bil|tel[eè]fon)\b"
    r"|\bpa\s+telefon\b|\bdim\s+ff[ôo]n\b"
    # "Dan ... not on the app" (a flatmate left out of it); Georgian, Armenian "has no phone"
    r"|\bnot\s+(?:on|in)\s+the\s+app\b|ტელეფონი\s+არ\s+აქვს|հեռախոս\s+չունի"
)
_PHONELESS = re.compile(
    rf"\b(?:{_ABSENT_BEFORE})\s+(?:{_POSSESSIVE})?(?:{_PHONE})\b"
    rf"|\b(?:{_PHONE})\s+(?:{_ABSENT_AFTER})"
    rf"|{_SCRIPT}",
    re.IGNORECASE,
)


@lru_cache(maxsize=8)
def names_phoneless_resident(profile: str) -> bool:
    """The profile says somebody of the household has no phone (or none in the app)."""
    return _PHONELESS.search(profile) is not None


def phoneless_count(value: object) -> int | None:
    """The stored setting as a count of people (None: not set, or not a count)."""
    # Stored options are untrusted (an older version, a hand-edited file): no flag, no NaN.
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1000:
        return None
    return int(value)


def has_phoneless_resident(profile: str, count: int | None) -> bool:
    """Somebody lives here without a tracked phone: as the homeowner's ``count`` says
    when set, else as the profile says."""
    if count is not None:
        return count > 0
    return names_phoneless_resident(profile)


def lives_here_without_phone(window: ContextWindow) -> bool:
    """``has_phoneless_resident`` for the home the window shows."""
    return has_phoneless_resident(window.profile, window.phoneless_residents)


def people_move_at_any_hour(window: ContextWindow) -> bool:
    """What moves at all hours while every tracker is away is a person, not a pet:
    somebody lives here without a phone and the profile names no pet. A grandmother and
    an uncle home every day and night move in every part of it, as a dog does; the
    homeowner who says who stays in and names no dog has said which."""
    return lives_here_without_phone(window) and not has_pets(window.profile)


NOBODY_HOME = "nobody is home"
# Every tracker away is all the away rules know: where somebody lives here without a
# phone, "nobody is home" may be false (the grandmother fainted behind the bathroom door).
PHONES_AWAY = "every tracked phone is away"


def nobody_home_words(window: ContextWindow) -> str:
    """How an away finding says the home is empty: "nobody is home", but only the phones
    are known away where the profile names somebody without one (``PHONES_AWAY``)."""
    return PHONES_AWAY if lives_here_without_phone(window) else NOBODY_HOME


def empty_home_words(window: ContextWindow) -> tuple[str, str]:
    """How a learned away normal says the home was empty, as an adverbial then and a
    clause: ("the home empty", "the home was empty"), or where somebody lives here without
    a phone, only what the trackers knew: ("every tracked phone away", "every tracked phone
    was away")."""
    if lives_here_without_phone(window):
        return "every tracked phone away", "every tracked phone was away"
    return "the home empty", "the home was empty"
