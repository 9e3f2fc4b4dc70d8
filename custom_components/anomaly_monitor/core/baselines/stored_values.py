"""What a stored number may be: baselines read back from disk are untrusted."""

from __future__ import annotations

import math

# Beyond this no reading, duration or mean of a home is real: a damaged or hostile file.
STORED_LIMIT = 1e9


def is_stored_number(value: object) -> bool:
    """A finite int or float (not a bool) within ``STORED_LIMIT``."""
    return (
        not isinstance(value, bool)
        and isinstance(value, int | float)
        and math.isfinite(value)
        and abs(value) < STORED_LIMIT
    )
