"""Korean device names give a role as the European ones do; a compound by its head noun."""

from __future__ import annotations

from custom_components.anomaly_monitor.core.role_words import name_role


def test_korean_names_hint_at_their_appliance_role() -> None:
    assert name_role("다리미", "switch", None) == "heating_appliance"
    assert name_role("다리미 전력", "sensor", "power") == "heating_appliance"
    assert name_role("전기다리미", "switch", None) == "heating_appliance"
    assert name_role("김치냉장고 전력", "sensor", "power") == "cold_appliance"
    assert name_role("세탁기 전력", "sensor", "power") == "washing_appliance"
    assert name_role("식기세척기", "switch", None) == "washing_appliance"


def test_a_korean_word_inside_another_is_no_match() -> None:
    # "다리미" only at a word's end: "다리미판" (an ironing board's plug, a lamp) is not one.
    assert name_role("다리미판 조명", "switch", None) is None
    assert name_role("밥솥 전력", "sensor", "power") is None
    assert name_role("산소발생기", "switch", None) is None
    # A temperature sensor named after the fridge is no appliance.
    assert name_role("냉장고 온도", "sensor", "temperature") is None
