"""Detection core: windows, compression, prompts, parsing, rules and scoring.

Nothing in this package imports Home Assistant, so the integration, the benchmark
replay and the tests all run the same code.
"""
