"""What the monitor learns from and reads back out of Home Assistant's recorder.

``baseline_keeper`` keeps the home's learned normal (``core/baselines``) fed and stored;
``rows`` turns recorder rows into the core's transitions; ``window_history`` reads the
analysed window's past back after a restart or reload.
"""
