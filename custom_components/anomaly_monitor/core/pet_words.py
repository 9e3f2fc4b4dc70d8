"""The words a household uses for its pets, in the languages Home Assistant is used in.

The profile is the homeowner's own text, in their language: "our beagle", "mačka Maza",
"con chó Lu", "강아지 콩이". A dog or a cat is named by its kind, its breed or a word that
is also the word's stem in an agglutinating language (Turkish "kedimiz", Hungarian
"kutyámmal"). Words that are also common words in another language are matched only
after an article or a possessive ("le chat", "our golden", "ang aso").
"""

from __future__ import annotations

import re

# English kinds, the pets that roam (and so move a sensor), and common breeds.
_ENGLISH = (
    r"dogs?|cats?|pets|(?:a|an|our|the|my|no|any)\s+pet|pupp(?:y|ies)|pups?|kittens?|kitty|doggo|mutt"
    r"|parrots?|budgies?|parakeets?|cockatiels?|cockatoos?|rabbits?|bunn(?:y|ies)"
    r"|ferrets?|guinea\s+pigs?|tortoises?"
    r"|beagles?|labradors?|labradoodles?|retrievers?|kelpies?|collies?|terriers?|spaniels?"
    r"|poodles?|dachshunds?|chihuahuas?|bulldogs?|schnauzers?|corgis?|pit\s?bulls?"
    r"|rottweilers?|dobermanns?|dobermans?|greyhounds?|whippets?|shih\s?tzus?|yorkies?"
    r"|heelers?|dalmatians?|pomeranians?|sheepdogs?|cavoodles?|cavapoos?|goldendoodles?"
    r"|staffies?|staffys?|jack\s+russells?|vizslas?|weimaraners?|malinois|mastiffs?"
    r"|samoyeds?|boerboels?|ridgebacks?|basenjis?|spitz|shelties?|papillons?|westies?|lurchers?|bassets?|bichons?|maine\s+coons?|ragdolls?|tabb(?:y|ies)"
    r"|(?:german|australian|belgian)\s+shepherds?|(?:boxer|lab|husky|pug|collie|terrier)\s+(?:mix|cross)"
)
# Words for a dog, a cat or a pet in other languages written in the Latin script.
_LATIN = (
    # French, Spanish, Portuguese, Italian, Catalan
    r"chiens?|chiennes?|chiots?|chatons?|chattes?|minous?|toutous?|animaux"
    r"|perr[oa]s?|perrit[oa]s?|gat[oa]s?|gatit[oa]s?|mascotas?|cachorr[oa]s?|cadelas?"
    r"|c[aã]es|c[aã]o|gatinh[oa]s?|cani|cagn\w*|gatt[oiae]|gattin[oiae]|cucciol[oiae]"
    r"|gossos?|gosset[ae]?s?"
    # German, Dutch, the Nordic languages
    r"|hunde?|hunden|hündin|katzen?|kater|welpen?|haustiere?|honden|hond|katten|kat|poes"
    r"|huisdieren|huisdier|hundar|katter|katt(?:en|a|er)?|husdjur|hvalpe?|valpe?n?|hundur\w*"
    r"|kött\w*|kisu|taxen"
    # Slavic languages
    r"|psy|psa|psem|psom|piesek|pieska|koty?|kota|kotem|kotka|kotki|kotkę|kotek|pejsk\w*"
    r"|kočk\w*|kocour\w*|mačk\w*|mačak|mačor|mačić\w*|psić\w*|štene\w*|kuž\w*|kocúr\w*"
    r"|psík\w*"
    # Baltic, Finnic, Hungarian, Turkish, Romanian, Greek-in-Latin are rare; the stems:
    r"|suņ\w*|kaķ\w*|šuo|šun\w*|katė\w*|katin\w*|koir\w*|kiss[ao]\w*|koer\w*|kassi?"
    r"|kuty[aá]\w*|macsk[aá]\w*|cic[aá]\w*|kedi\w*|köpe[kğ]\w*|câin\w*|cățe\w*|catel\w*"
    r"|pisic\w*|pişik\w*|lisien"
    # Vietnamese, Indonesian and Malay, Swahili
    r"|chó|mèo|anjing|kucing|mbwa|paka"
    # Only after an article or a possessive: also common words elsewhere
    r"|(?:un|le|les|notre|nos|mon|mes|deux|trois)\s+chats?|(?:il|un|due|tre)\s+cane"
    r"|(?:ang|ng|si|mga|aming|may)\s+(?:aso|pusa)|maile"
    r"|(?:our|a|the|my|his|her|their)\s+(?:golden|boxer|husky|pug|maltese|persian"
    r"|siamese|bengal|setter|pointer|akita|shiba)s?"
)
# Scripts without spaces between words (or whose words take suffixes): matched anywhere.
_ANYWHERE = (
    r"[犬猫狗]|宠物|寵物|ペット|いぬ|ねこ|イヌ|ネコ|강아지|고양이|반려견|반려묘|반려동물|말티즈"
    r"|собак\w*|пёс|щен\w*|цуцен\w*|котик\w*|котен\w*|котён\w*|кошк\w*|кішк\w*|куче\w*"
    r"|котк\w*|мачк\w*|σκύλ\w*|σκυλ\w*|γάτ\w*|γατ\w*|κατοικίδι\w*"
    r"|สุนัข|แมว|หมา|कुत्त\w*|बिल्ली|কুকুর|বিড়াল|বেড়াল|كلب|قطة|قطط|כלב|חתול|سگ|گربه"
    r"|ძაღლ\w*|კატა\w*|շուն|կատու"
)
# Short Cyrillic words for a dog or a cat, whole words only (кот, кіт, пёс, пас).
_CYRILLIC_WORDS = r"кот|кота|котом|кіт|пес|пса|пас"

_WORDS = rf"{_ENGLISH}|{_LATIN}|{_CYRILLIC_WORDS}"
PET_WORD = re.compile(rf"\b(?:{_WORDS})\b|{_ANYWHERE}", re.IGNORECASE)
# "no pets", "without a dog", "pets: none", "not a cat"; "pas de chien", "kein Hund",
# "geen huisdieren", "sin perro", "senza gatto", "inga husdjur", "bez psa".
_NO = (
    r"no|without|not|pas\s+d[e']|sans|kein(?:e|en)?|geen|sin|senza|inga?|ingen|bez|nema|nemá|nemáme"
)
NO_PET = re.compile(
    rf"\b(?:{_NO})\s*(?:an?\s+|any\s+|un\s+|une\s+)?(?:{_WORDS})\b"
    rf"|\b(?:pets?|animals?)\s*[:=]\s*(?:none|no|0)\b",
    re.IGNORECASE,
)
