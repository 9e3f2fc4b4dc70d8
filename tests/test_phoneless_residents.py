"""The profile read for somebody who lives here without a tracked phone
(``core.phoneless_residents``), in the homeowner's own language."""

from __future__ import annotations

import pytest

from custom_components.anomaly_monitor.core.phoneless_residents import names_phoneless_resident


@pytest.mark.parametrize(
    "profile",
    [
        "Grandma (84) lives with us; she has no phone.",
        "Our son Ife (11, no phone) walks to school.",
        "Dad is not tracked, he stays home all day.",
        "Mamá Justina (91, sin celular) vive abajo.",
        "Oma wohnt bei uns, ohne Handy.",
        "Mémé n'a pas de téléphone.",
        "La nonna è senza cellulare.",
        "Babcia jest bez telefonu.",
        "С нами живёт апа (68 лет, без смартфона).",
        "Dada ji ka phone app mein nahi.",
        "Babaannenin telefonu yok.",
        "奶奶（64岁，手机不在系统里）",
        "母フミ(86)は携帯なし",
        "Bà nội không có điện thoại.",
        "Eetu (no tracker) stays at the house.",
        "आजोबा (76, विसरभोळे, फोन नाही, रात्री दोनदा संडासला जातात)",
        "કાવ્યા (12, phone નથી) સવારે 7 વાગ્યે school",
        "બા (71) પાસે ફોન નથી",
        "ਬੀਬੀ ਜੀ (80) ਕੋਲ ਫੋਨ ਨਹੀਂ",
        "Paati (78, phone இல்லை) stays home.",
        "Ava (9) and Lily (5) don't have phones.",
        "Tarik (11, nema mobitel) ide u školu.",
        "Mama (76, nema pametni telefon) je uz njega.",
        "Dedem 13:30'da gelir, telefonu sistemde yok.",
        "Nənə (70 yaşındadır, telefonu yoxdur).",
        "Buvijon (76 yosh, telefoni yo'q).",
        "Mama Fa'amoe, leai se telefoni.",
        "Inese (viņas telefons nav lietotnē).",
        "Paati (78 ans, pa ena telefonn) reste lakaz.",
        "Vive con nosotros mamá (82) y Tobías (10). Ellos no tienen celular.",
        "A avó e o Tiago não têm telemóvel.",
        "Kasia (no app) is a chef.",
        "ヒロ（22、大学生）はアプリなし。",
        "Migo (7, walay cellphone)",
        "O avó Xosé (84, sen móbil) vive connosco.",
        "L'avi Pere (80, sense mòbil) viu amb nosaltres.",
        "Gjyshi (pa telefon) rri në shtëpi.",
        "Nain (88, dim ffôn clyfar) yn byw efo ni.",
        "Ouma Sannie (geen foon nie) bly by ons.",
        "Dědeček (telefon v aplikaci nemá) je doma.",
        "Starý otec (mobil nemá) býva s nami.",
        "外公和我们一起住，没有智能手机。",
        "جدي عايش معنا بدون تلفون.",
        "ბაბუას ტელეფონი არ აქვს.",
        "Պապիկը հեռախոս չունի։",
        "Sam rents the spare room (not on the app).",
        "Deda Mile nema aplikaciju.",
    ],
)
def test_a_profile_naming_somebody_without_a_phone(profile: str) -> None:
    assert names_phoneless_resident(profile)


@pytest.mark.parametrize(
    "profile",
    [
        "",
        "Two adults, both phones in the app; notifications to my phone please.",
        "Send it to my mobile. Tell me about the fridge.",
        "We have a cat. Mum works nights, Dad works days.",
        "Telefonum bildirimleri alsın.",
        "Nema problema: poruke na moj mobitel.",
        "ઘરમાં કોઈ પાળતુ પ્રાણી નથી; phone પર notification મોકલો.",
        "Ma and Pa phone us on Sundays; dim the phone screen at night.",
        "Ti sen telefonu ara.",
        "The app on the phone controls the dim lights.",
    ],
)
def test_a_profile_that_names_no_phoneless_resident(profile: str) -> None:
    assert not names_phoneless_resident(profile)
