"""Words shown bare in prompts because they come from a fixed vocabulary, not from a device.

Device classes, units and seasons are set by integrations, which are third-party code: a
device class of "answer_normal_for_smoke" is free text like any name. Only the values
Home Assistant itself defines are shown bare; anything else is quoted (see prompts.py).
"""

from __future__ import annotations

# Device classes of Home Assistant's binary_sensor, sensor, cover, switch and button.
DEVICE_CLASSES = frozenset(
    {
        # binary_sensor
        "battery", "battery_charging", "carbon_monoxide", "cold", "connectivity", "door",
        "garage_door", "gas", "heat", "light", "lock", "moisture", "motion", "moving",
        "occupancy", "opening", "plug", "power", "presence", "problem", "running", "safety",
        "smoke", "sound", "tamper", "update", "vibration", "window",
        # sensor
        "absolute_humidity", "apparent_power", "aqi", "area", "atmospheric_pressure",
        "blood_glucose_concentration", "carbon_dioxide", "conductivity", "current", "data_rate",
        "data_size", "date", "distance", "duration", "energy", "energy_distance",
        "energy_storage", "enum", "frequency", "humidity", "illuminance", "irradiance",
        "monetary", "nitrogen_dioxide", "nitrogen_monoxide", "nitrous_oxide", "ozone", "ph",
        "pm1", "pm10", "pm25", "pm4", "power_factor", "precipitation", "precipitation_intensity",
        "pressure", "reactive_energy", "reactive_power", "signal_strength", "sound_pressure",
        "speed", "sulphur_dioxide", "temperature", "timestamp", "volatile_organic_compounds",
        "volatile_organic_compounds_parts", "voltage", "volume", "volume_flow_rate",
        "volume_storage", "water", "weight", "wind_direction", "wind_speed",
        # cover, switch, button, media_player
        "awning", "blind", "curtain", "damper", "gate", "shade", "shutter", "outlet", "switch",
        "identify", "restart", "tv", "speaker", "receiver",
    }
)  # fmt: skip

# Units of measurement Home Assistant defines (homeassistant.const), the common ones.
UNITS = frozenset(
    {
        "°C", "°F", "K", "%", "W", "kW", "MW", "mW", "Wh", "kWh", "MWh", "GWh", "J", "kJ",
        "MJ", "GJ", "cal", "kcal", "V", "mV", "kV", "A", "mA", "VA", "kVA", "var", "kvar",
        "Hz", "kHz", "MHz", "GHz", "ppm", "ppb", "µg/m³", "mg/m³", "μg/m³", "lx", "dB", "dBA",
        "dBm", "Pa", "hPa", "kPa", "mbar", "bar", "cbar", "psi", "inHg", "mmHg", "mm", "cm",
        "m", "km", "in", "ft", "yd", "mi", "nmi", "mL", "L", "m³", "ft³", "CCF", "gal",
        "fl. oz.", "m³/h", "L/min", "L/h", "L/s", "gal/min", "mL/s", "ft³/min", "s", "ms",
        "µs", "min", "h", "d", "w", "m/s", "km/h", "mph", "kn", "ft/s", "Beaufort", "g", "kg",
        "mg", "µg", "lb", "oz", "st", "mm/h", "in/h", "mm/d", "in/d", "W/m²", "BTU/(h⋅ft²)",
        "µS/cm", "mS/cm", "°", "rpm", "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "B/s", "kB/s",
        "MB/s", "GB/s", "B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "mg/dL", "mmol/L",
        "EUR", "USD", "GBP", "€", "$", "£", "kWh/100km", "km/kWh", "mi/kWh", "Wh/km",
    }
)  # fmt: skip

SEASONS = frozenset({"spring", "summer", "autumn", "fall", "winter"})

# States (and state-like attributes such as hvac_action) Home Assistant's own integrations
# use, plus the binary-sensor wording of prompts.BINARY_MEANINGS. Any other word is quoted.
STATE_WORDS = frozenset(
    {
        "on", "off", "open", "opening", "closed", "closing", "stopped", "locked", "unlocked",
        "locking", "unlocking", "jammed", "home", "not_home", "away", "unavailable", "unknown",
        "idle", "playing", "paused", "standby", "buffering", "heat", "cool", "heat_cool", "auto",
        "dry", "fan_only", "heating", "cooling", "drying", "fan", "preheating", "defrosting",
        "armed_away", "armed_home", "armed_night", "armed_vacation", "armed_custom_bypass",
        "disarmed", "triggered", "pending", "arming", "disarming", "above_horizon",
        "below_horizon", "cleaning", "docked", "returning", "error", "mowing", "charging",
        "discharging", "problem", "ok", "detected", "clear", "low", "normal", "high", "medium",
        "none", "true", "false", "yes", "no", "sunny", "cloudy", "partlycloudy", "rainy",
        "pouring", "snowy", "snowy-rainy", "hail", "lightning", "lightning-rainy", "fog",
        "windy", "windy-variant", "exceptional", "clear-night", "eco", "boost", "comfort",
        "sleep", "manual", "schedule", "present", "absent", "active", "inactive", "running",
        "ready", "finished", "wet", "hot", "cold", "unsafe", "safe", "connected",
        "disconnected", "online", "offline", "enabled", "disabled", "installing", "streaming",
        "recording", "armed", "alarm", "warning", "emergency", "motion", "still",
    }
)  # fmt: skip
