"""Replay benchmark samples through the Anomaly Monitor integration and score them.

``python -m benchmark_replay smartbench --data DIR``: see docs/benchmarks.md.
"""
