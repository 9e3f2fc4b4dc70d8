"""What the monitor learns from and reads back out of Home Assistant's recorder.

``baseline_keeper`` keeps the home's learned normal (``core/baselines``) fed and stored;
``rows`` turns recorder rows into the core's transitions.
"""
