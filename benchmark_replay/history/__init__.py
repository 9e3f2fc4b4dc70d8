"""Replay a home's own recorded history (recorder database or History CSV) through the monitor."""
