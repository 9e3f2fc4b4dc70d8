"""The instruction check: an instruction read against the home (``core/instructions``).

``service`` is the action, ``assist`` the Assist conversation hook, ``home`` the devices
and areas an instruction may name, ``slots`` Home Assistant's own sentence templates.
"""
