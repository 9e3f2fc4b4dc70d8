"""HA-Assist-style sentences against a test home, with HA's own Assist as the oracle."""
