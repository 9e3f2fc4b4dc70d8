"""Temporal statistics over a window's transitions, and the detector that runs them.

A statistic has the same contract as a rule, ``statistic(home) -> Iterable[Finding]``,
but reasons about time: how long something stayed open, how fast it toggled, whether
a reading spiked, whether an effect that usually follows a cause was missing, whether
people were active while the home says they are away or asleep.

Every statistic but ``activation_while_armed_away`` (one switch-on is the finding)
measures a degree and reports it as the finding's ``magnitude``; each docstring says
which (a duration, a count, a lag, a shift).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..checks import Check, ChecksDetector
from ..feedback import Suppressions
from .airing import hvac_ran_with_window_open
from .alarms import hazard_alarm_sounded
from .armed import activation_while_armed_away, entry_while_armed_away
from .away_openings import window_opened_while_away
from .baseload import unexplained_base_load
from .battery import battery_draining_fast
from .blips import opening_blip_at_night
from .climate import hvac_against_the_room, setpoint_without_hvac
from .conflicts import switched_off_at_once
from .daily_profile import daily_profile_shift
from .drift import sensor_drifting
from .durations import entry_left_open, heat_appliance_left_on, water_left_running
from .energy_balance import heating_losing_the_room
from .flow import water_flowing_continuously
from .followups import late_follow_up, missing_follow_up
from .health import device_went_offline, reading_spike
from .held import motion_held_on
from .humidity_physics import humidity_follows_temperature
from .intrusion import break_in_sequence
from .levels import level_shift, twin_sensors_disagree
from .locks import door_opened_before_unlock, lock_unlocked_while_armed
from .moisture import humidity_rising_alone
from .night import entry_used_in_small_hours, light_on_with_nobody_about
from .occupancy import activity_while_asleep, activity_while_away
from .openings import unaccompanied_opening
from .power_range import power_beyond_its_range
from .rates import event_rate_burst, hvac_short_cycling
from .reports import device_reported_problem
from .responses import slow_light_response
from .rhythm import activity_without_night_rest
from .simultaneity import motion_in_many_rooms_at_once
from .stuck import presence_stuck_on
from .supply import power_swinging_together
from .toggles import toggle_storm
from .voltage import mains_voltage_out_of_band

ALL_STATISTICS: tuple[Check, ...] = (
    entry_left_open,
    water_left_running,
    heat_appliance_left_on,
    toggle_storm,
    device_went_offline,
    reading_spike,
    missing_follow_up,
    late_follow_up,
    activity_while_away,
    activity_while_asleep,
    hazard_alarm_sounded,
    event_rate_burst,
    hvac_short_cycling,
    unaccompanied_opening,
    level_shift,
    twin_sensors_disagree,
    slow_light_response,
    hvac_against_the_room,
    activation_while_armed_away,
    door_opened_before_unlock,
    lock_unlocked_while_armed,
    device_reported_problem,
    motion_in_many_rooms_at_once,
    setpoint_without_hvac,
    entry_while_armed_away,
    unexplained_base_load,
    presence_stuck_on,
    light_on_with_nobody_about,
    entry_used_in_small_hours,
    battery_draining_fast,
    daily_profile_shift,
    sensor_drifting,
    activity_without_night_rest,
    power_swinging_together,
    water_flowing_continuously,
    heating_losing_the_room,
    humidity_follows_temperature,
    power_beyond_its_range,
    mains_voltage_out_of_band,
    humidity_rising_alone,
    opening_blip_at_night,
    switched_off_at_once,
    motion_held_on,
    break_in_sequence,
    hvac_ran_with_window_open,
    window_opened_while_away,
)


class StatisticsDetector(ChecksDetector):
    """The temporal statistics: need a window with transitions."""

    def __init__(
        self,
        statistics: Iterable[Check] = ALL_STATISTICS,
        sensitivity: str = "medium",
        suppressed: Suppressions = (),
    ) -> None:
        super().__init__(
            statistics, sensitivity, suppressed, name="statistics", needs_transitions=True
        )


__all__ = ["ALL_STATISTICS", "StatisticsDetector"]
