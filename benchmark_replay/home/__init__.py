"""The lived-in home benchmark: weeks of a simulated household in a real Home Assistant.

``python -m benchmark_replay home --scenario PATH|DIR`` (see ``docs/home_scenarios.md``).
"""
