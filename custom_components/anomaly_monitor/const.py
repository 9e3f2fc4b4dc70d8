"""Constants for the Anomaly Monitor integration."""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Final

DOMAIN: Final = "anomaly_monitor"
LOGGER = logging.getLogger(__package__)

# Options (all live in entry.options so the options flow can change every one).
CONF_USE_EXPOSED: Final = "use_exposed_entities"
# Safety and security devices (smoke, leak, locks, doors, persons...) watched by default.
CONF_WATCH_SAFETY: Final = "watch_safety_devices"
CONF_INCLUDE_ENTITIES: Final = "include_entities"
CONF_INCLUDE_DOMAINS: Final = "include_domains"
CONF_INCLUDE_AREAS: Final = "include_areas"
CONF_EXCLUDE_ENTITIES: Final = "exclude_entities"
CONF_INTERVAL: Final = "analysis_interval"  # minutes
CONF_WINDOW: Final = "window_length"  # minutes
CONF_PROFILE: Final = "household_profile"
# How many people live here without a tracked phone (unset: the household profile says).
CONF_PHONELESS: Final = "residents_without_phone"
CONF_NOTIFY: Final = "notify_targets"
CONF_SENSITIVITY: Final = "sensitivity"
CONF_WEATHER_ENTITY: Final = "weather_entity"
# A replay entry (benchmark_replay against a live HA, see dev_replay/entry.py): it watches only
# the states the replay sends it, never the home's, and shows nothing to the homeowner.
CONF_REPLAY: Final = "replay"
CONF_FALSE_ALARM_DAYS: Final = "false_alarm_days"  # how long a false-alarm mark lasts
# Days of recorder history the baselines learn from on start (0: learn from now on only).
CONF_HISTORY_DAYS: Final = "history_days"
# What the homeowner says watched devices are: {entity_id: device_roles.Role value}.
CONF_ROLES: Final = "device_roles"
# The options flow's tick box that opens the roles step (never stored).
CONF_REVIEW_ROLES: Final = "review_roles"

DEFAULT_USE_EXPOSED: Final = True
DEFAULT_WATCH_SAFETY: Final = True
DEFAULT_INTERVAL: Final = 15
DEFAULT_WINDOW: Final = 120
# Bounds the flows accept (minutes): a window of at most a day keeps analyses about now.
MIN_INTERVAL: Final = 1
MAX_INTERVAL: Final = 24 * 60
MIN_WINDOW: Final = 5
MAX_WINDOW: Final = 24 * 60
DEFAULT_SENSITIVITY: Final = "medium"
SENSITIVITIES: Final = ("low", "medium", "high")
DEFAULT_FALSE_ALARM_DAYS: Final = 30
MAX_FALSE_ALARM_DAYS: Final = 365
DEFAULT_HISTORY_DAYS: Final = 14
MAX_HISTORY_DAYS: Final = 60
MAX_PHONELESS: Final = 20

# Hard cap on buffered transitions, whatever the window length: memory stays bounded
# even when a device floods the bus.
MAX_BUFFERED_TRANSITIONS: Final = 20_000
# Wait this long after a significant transition before analysing, so a burst of
# related changes is judged once.
SIGNIFICANT_DEBOUNCE: Final = timedelta(seconds=10)

EVENT_ANOMALY_DETECTED: Final = f"{DOMAIN}_anomaly_detected"
EVENT_ANOMALY_CLEARED: Final = f"{DOMAIN}_anomaly_cleared"

SERVICE_ANALYZE: Final = "analyze"
SERVICE_REPLAY_SAMPLE: Final = "replay_sample"
ATTR_CONFIG_ENTRY_ID: Final = "config_entry_id"

STORAGE_VERSION: Final = 1

# Detection strategy and LLM backend (entry.options; secrets such as the API key in entry.data).
CONF_DETECTOR: Final = "detector"
DETECTOR_RULES: Final = "rules"
DETECTOR_LLM: Final = "llm"
DETECTOR_HYBRID: Final = "hybrid"
DETECTORS: Final = (DETECTOR_RULES, DETECTOR_LLM, DETECTOR_HYBRID)
DEFAULT_DETECTOR: Final = DETECTOR_RULES
# Hybrid only: what the model may change besides confirming (off: a small model is no judge).
CONF_LLM_MAY_DISMISS: Final = "llm_may_dismiss"  # drop medium/low rule findings it calls normal
CONF_LLM_MAY_ADD: Final = "llm_may_add"  # report high/critical anomalies the rules missed

CONF_BACKEND: Final = "backend"
BACKEND_LLAMA_CPP: Final = "llama_cpp"
BACKEND_OPENAI: Final = "openai"
BACKEND_OLLAMA: Final = "ollama"
BACKEND_AI_TASK: Final = "ai_task"
BACKENDS: Final = (BACKEND_LLAMA_CPP, BACKEND_OPENAI, BACKEND_OLLAMA, BACKEND_AI_TASK)
CONF_BASE_URL: Final = "base_url"
CONF_MODEL: Final = "model"
CONF_MODEL_PATH: Final = "model_path"
CONF_THREADS: Final = "threads"
CONF_AI_TASK_ENTITY: Final = "ai_task_entity"
CONF_REQUEST_TIMEOUT: Final = "request_timeout"
DEFAULT_REQUEST_TIMEOUT: Final = 60

# LLM backend defaults (backends/).
DEFAULT_THREADS: Final = 2
DEFAULT_OPENAI_URL: Final = "http://localhost:8080/v1"  # a local llama.cpp server
DEFAULT_OLLAMA_URL: Final = "http://localhost:11434"
