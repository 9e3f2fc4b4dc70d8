"""HomeBench replay: each home becomes fake entities in a real in-process Home Assistant,
each instruction goes through the instruction check, and the planned calls are scored with
HomeBench's multiset rule per instruction type."""
