"""``anomaly_monitor.preview``: what the current options would have told about the last days.

``service`` is the admin-only action; ``run`` replays the home's recorder through the
monitor's own code without telling anyone.
"""
