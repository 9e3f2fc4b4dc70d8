"""The steps of the options flow that live apart from ``config_flow.py``.

``option_forms`` and ``backend_forms`` build the forms; ``role_review`` lets the homeowner
correct the roles the monitor read; ``false_alarm_form`` marks a false alarm from a repair.
"""
