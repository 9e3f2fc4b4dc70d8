"""A multi-channel relay's switch goes with its own channel's meter (``device_roles.own_meter``).

A Shelly Pro 4PM, a Sonoff dual or a power strip is one HA device with several switches and
several power sensors: the device pairs nothing by itself. A switch of channel 0 paired with
channel 1's meter told "off but drawing power" whenever one channel was off while another
ran (set 19's reptile room: basking spots off for the winter rest, the UV on, every day).
"""

from __future__ import annotations

from custom_components.anomaly_monitor.core.device_roles import own_meter
from custom_components.anomaly_monitor.core.home import HomeView
from custom_components.anomaly_monitor.core.models import EntityInfo, EntityState
from custom_components.anomaly_monitor.core.rules.device_health import (
    outlet_off_but_drawing_power,
)

from .core_factories import window

RELAY = "shellypro4pm"
PREFIX = "shellypro4pm_08f9e0a1b2c3_switch"


def _state(
    entity_id: str, state: str, name: str, *, device: str | None, power: bool = False
) -> EntityState:
    info = EntityInfo(
        entity_id,
        name,
        area="Reptile room",
        device_class="power" if power else None,
        unit="W" if power else None,
        device=device,
    )
    return EntityState(info=info, state=state)


def _relay(switches: list[str], draws: list[str], *, ids: bool = True) -> HomeView:
    """A four-channel relay; ``ids=False``: ids that say nothing, names that do."""
    states = []
    for channel, (on, watts) in enumerate(zip(switches, draws, strict=True)):
        switch_id = f"switch.{PREFIX}_{channel}" if ids else f"switch.relay_{channel}a"
        meter_id = f"sensor.{PREFIX}_{channel}_power" if ids else f"sensor.relay_{channel}b"
        name = ("Basking spots", "UV lamp", "Rain pump", "Heat mat")[channel]
        states.append(_state(switch_id, on, name, device=RELAY))
        states.append(_state(meter_id, watts, f"{name} Power", device=RELAY, power=True))
    return HomeView(window(states))


def _told(home: HomeView) -> list[tuple[str, ...]]:
    return [f.evidence for f in outlet_off_but_drawing_power(home)]


def test_a_channel_off_while_another_draws_is_not_told() -> None:
    assert _told(_relay(["off", "on", "on", "off"], ["0", "96", "40", "0"])) == []
    assert _told(_relay(["off", "on", "on", "off"], ["0", "96", "40", "0"], ids=False)) == []


def test_a_channel_off_drawing_on_its_own_meter_is_told() -> None:
    told = _told(_relay(["off", "on", "off", "off"], ["212", "96", "0", "0"]))
    assert told == [(f"switch.{PREFIX}_0", f"sensor.{PREFIX}_0_power")]
    # Without id structure, the meter's name holding the switch's pairs them.
    told = _told(_relay(["off", "on", "off", "off"], ["212", "96", "0", "0"], ids=False))
    assert told == [("switch.relay_0a", "sensor.relay_0b")]


def test_a_single_switch_plug_off_but_drawing_is_still_told() -> None:
    home = HomeView(
        window(
            [
                _state("switch.tapo_p110", "off", "Tapo P110", device="plug"),
                _state("sensor.tapo_p110_current_power", "40", "Power", device="plug", power=True),
            ]
        )
    )
    assert _told(home) == [("switch.tapo_p110", "sensor.tapo_p110_current_power")]


def test_a_single_switch_device_pairs_all_its_meters() -> None:
    """A geyser controller: one element switch, two power sensors, both its own."""
    element = _state("switch.geyser_element", "off", "Geyser Element", device="geyser")
    meters = [
        _state("sensor.geyser_power", "2900", "Geyser Power", device="geyser", power=True),
        _state("sensor.geyser_load", "2890", "Geyser Load", device="geyser", power=True),
    ]
    home = HomeView(window([element, *meters]))
    assert all(own_meter(home, element, m) for m in meters)
    assert len(_told(home)) == 2


def test_a_plug_with_an_led_switch_pairs_its_meter_with_the_relay() -> None:
    relay = _state("switch.kasa_plug", "off", "Kasa plug", device="kasa")
    led = _state("switch.kasa_plug_led", "on", "Kasa plug LED", device="kasa")
    meter = _state(
        "sensor.kasa_plug_current_consumption", "35", "Kasa plug Current", device="kasa", power=True
    )
    home = HomeView(window([relay, led, meter]))
    assert own_meter(home, relay, meter)
    assert not own_meter(home, led, meter)


def test_a_strips_total_meter_is_no_switchs_own() -> None:
    """A meter named after no channel (the strip's total) pairs with none: uncertain."""
    sockets = [_state(f"switch.strip_{n}", "off", f"Socket {n}", device="strip") for n in (1, 2)]
    total = _state("sensor.strip_power", "60", "Strip power", device="strip", power=True)
    home = HomeView(window([*sockets, total]))
    assert not any(own_meter(home, s, total) for s in sockets)
    assert _told(home) == []
