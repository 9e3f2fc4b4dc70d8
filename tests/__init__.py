"""Tests for the Anomaly Monitor integration, its core and the benchmark replay."""
