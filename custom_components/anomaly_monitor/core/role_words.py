"""Friendly-name hints for a device's role: whole words, in a few languages.

Only a hint (``device_roles.py``): the words are matched as whole words (or whole word
sequences) of the friendly name, never as substrings and never in the entity id, so
"Tapo P110" holds no "tap" and "Environment fan" no "iron". English, German, Dutch,
French, Spanish and Korean; words that mean something else in another of them are left
out ("four" is an oven in French, "cocina" a kitchen as well as a stove in Spanish).
Korean writes a compound as one word with its head noun last ("김치냉장고", a kimchi
fridge; "전기다리미", an electric iron): a Korean word matches a word ending in it.
"""

from __future__ import annotations

from functools import lru_cache
import re

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_HANGUL = re.compile(r"[\uac00-\ud7a3]+")

COLD_WORDS = (
    "fridge", "freezer", "refrigerator", "chest freezer", "fridge freezer",  # en
    "kühlschrank", "gefrierschrank", "gefriertruhe", "kühltruhe", "kühl gefrierkombination",
    "koelkast", "vriezer", "diepvries", "diepvriezer", "koelcel",  # nl
    "frigo", "réfrigérateur", "congélateur", "frigidaire",  # fr
    "nevera", "frigorífico", "congelador", "refrigerador",  # es
    "냉장고", "냉동고",  # ko
)  # fmt: skip
HEATING_WORDS = (
    "heater", "space heater", "electric heater", "fan heater", "iron", "radiant heater",
    "heizlüfter", "heizstrahler", "elektroheizung", "heizgerät", "bügeleisen",  # de
    "kachel", "straalkachel", "elektrische kachel", "strijkijzer",  # nl
    "chauffage d appoint", "radiateur électrique", "fer à repasser",  # fr
    "calefactor", "estufa", "estufa eléctrica", "plancha",  # es
    "다리미", "히터", "난로", "온풍기", "전기장판",  # ko
)  # fmt: skip
COOKING_WORDS = (
    "stove", "oven", "cooktop", "hob", "cooker", "induction hob", "air fryer",
    "herd", "backofen", "ofen", "kochfeld", "induktionskochfeld", "heißluftfritteuse",
    "fornuis", "kookplaat", "inductieplaat", "airfryer", "kookpit",  # nl
    "cuisinière", "plaque de cuisson", "plaques de cuisson", "table de cuisson",  # fr
    "horno", "vitrocerámica", "placa de inducción", "fogón", "freidora",  # es
    "오븐", "전기레인지", "인덕션", "에어프라이어",  # ko
)  # fmt: skip
WATER_WORDS = (
    "water", "faucet", "tap", "shower", "sprinkler", "irrigation", "water valve", "hose",
    "wasser", "wasserhahn", "bewässerung", "dusche", "regner", "wasserventil",  # de
    "kraan", "sproeier", "beregening", "douche", "waterklep",  # nl
    "eau", "robinet", "arrosage", "vanne d eau", "arroseur",  # fr
    "agua", "grifo", "riego", "ducha", "aspersor",  # es
)  # fmt: skip
# A water heater or boiler heats water; it does not let water run.
NOT_WATER_WORDS = (
    "heater", "boiler", "kettle", "hot water", "cylinder", "immersion", "geyser",
    "warmwasser", "heißwasser", "chauffe eau",
    "ballon", "calentador", "termo", "wasserkocher", "waterkoker", "bouilloire", "hervidor",
)  # fmt: skip
WASHING_WORDS = (
    "washer", "washing machine", "dishwasher", "dryer", "tumble dryer", "washer dryer",
    "waschmaschine", "spülmaschine", "geschirrspüler", "trockner", "wäschetrockner",  # de
    "wasmachine", "vaatwasser", "vaatwasmachine", "droger", "wasdroger",  # nl
    "lave linge", "lave vaisselle", "sèche linge",  # fr
    "lavadora", "lavavajillas", "secadora",  # es
    "세탁기", "건조기", "식기세척기",  # ko
)  # fmt: skip
# What an unclassed ppm sensor measures, by the detector class it backs.
LEVEL_WORDS = {
    "smoke": ("smoke", "rauch", "rook", "fumée", "humo"),
    "gas": ("gas", "gaz", "methane", "methan", "propane", "propan"),
    "moisture": ("moisture", "feuchtigkeit", "vocht", "humidité", "humedad"),
}
MOTION_WORDS = ("motion", "bewegung", "beweging", "mouvement", "movimiento")
SLEEP_CONFIDENCE_WORDS = ("sleep confidence",)  # the companion app's own (English) name
ACTIVITY_WORDS = ("activity", "detected activity")


# Names and phrases are few and asked about at every analysis: remembered, not re-split.
@lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """The name's words and numbers, case-folded (punctuation separates them)."""
    return tuple(w.casefold() for w in _WORD.findall(text))


def says(name: str, phrases: tuple[str, ...]) -> bool:
    """The name holds one of ``phrases`` as whole words."""
    tokens = words(name)
    for phrase in phrases:
        wanted = words(phrase)
        size = len(wanted)
        if any(tokens[i : i + size] == wanted for i in range(len(tokens) - size + 1)):
            return True
        # A Korean compound ends in its head noun.
        head = wanted[0] if size == 1 and _HANGUL.fullmatch(wanted[0]) else None
        if head is not None and any(token.endswith(head) for token in tokens):
            return True
    return False


@lru_cache(maxsize=4096)
def name_role(name: str, domain: str, device_class: str | None) -> str | None:
    """The role (a ``device_roles.Role`` value) a friendly name hints at (a hint only)."""
    if domain == "sensor" and device_class is None:
        if says(name, SLEEP_CONFIDENCE_WORDS):
            return "sleep_confidence"
        if says(name, MOTION_WORDS):
            return "motion_level"
        if says(name, ACTIVITY_WORDS):
            return "detected_activity"
    if domain not in ("switch", "sensor", "binary_sensor", "climate", "water_heater"):
        return None
    if domain == "sensor" and device_class not in ("power", "energy", "current"):
        return None
    if says(name, COLD_WORDS):
        return "cold_appliance"
    if says(name, WASHING_WORDS):
        return "washing_appliance"
    if says(name, WATER_WORDS) and not says(name, NOT_WATER_WORDS):
        return "water"
    if says(name, COOKING_WORDS):
        return "cooking_appliance"
    if says(name, HEATING_WORDS):
        return "heating_appliance"
    return None
