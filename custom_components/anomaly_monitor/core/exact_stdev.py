"""``statistics.pstdev`` of floats, the same float, some ten times cheaper.

``statistics.pstdev`` is exact: it sums the values and their squares as ``Fraction``s and
takes the correctly rounded square root of the exact variance. Every float is an integer
over a power of two, so the same exact variance comes from plain integers (each value
scaled to the smallest power of two all share), reduced as ``Fraction`` reduces it, and its
square root is rounded as ``statistics`` rounds it (round-to-odd on an integer square root
wide enough for the float's mantissa twice over: Python's own algorithm). The result is
the same float, bit for bit; only the cost differs (an hour's spread is worked out for
every room sensor as the hours close). Anything but finite floats and ints is left to
``statistics``.
"""

from __future__ import annotations

from collections.abc import Sequence
import math
import statistics
import sys

# ``statistics._sqrt_bit_width``: 109 bits for a 53-bit mantissa.
_SQRT_BITS = 2 * sys.float_info.mant_dig + 3


def pstdev(values: Sequence[float]) -> float:
    """The population standard deviation of ``values`` (at least one), as
    ``statistics.pstdev`` gives it."""
    if not values or not all(type(v) is float or type(v) is int for v in values):
        return statistics.pstdev(values)
    if not all(math.isfinite(v) for v in values):
        return statistics.pstdev(values)
    ratios = [v.as_integer_ratio() for v in values]  # denominators: powers of two
    shift = max(d.bit_length() for _, d in ratios) - 1
    scaled = [n << (shift - d.bit_length() + 1) for n, d in ratios]  # value * 2**shift
    count = len(scaled)
    total = sum(scaled)
    squares = sum(x * x for x in scaled)
    # variance = (count * squares - total**2) / (count**2 * 4**shift), exactly
    numerator = count * squares - total * total
    denominator = count * count << 2 * shift
    common = math.gcd(numerator, denominator)
    return _sqrt_of_fraction(numerator // common, denominator // common)


def _sqrt_of_fraction(n: int, m: int) -> float:
    """Square root of n/m as a float, correctly rounded (``statistics._float_sqrt_of_frac``)."""
    q = (n.bit_length() - m.bit_length() - _SQRT_BITS) // 2
    if q >= 0:
        return float(_isqrt_round_to_odd(n, m << 2 * q) << q)
    return _isqrt_round_to_odd(n << -2 * q, m) / (1 << -q)


def _isqrt_round_to_odd(n: int, m: int) -> int:
    """Square root of n/m rounded to an integer by round-to-odd."""
    root = math.isqrt(n // m)
    return root | (root * root * m != n)
