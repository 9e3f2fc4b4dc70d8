"""Open anomalies and what the homeowner is told about them.

``tracker`` turns verdicts into anomalies that open, update and clear (``open_anomaly``,
``evidence_hold``, ``across_restart``); ``store`` keeps them over a restart; ``texts``
writes their words; ``surfaces`` tells them: notifications, repair issues, events.
"""
