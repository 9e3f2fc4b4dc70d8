"""Developer option, not for homeowners: the benchmark's replay hook.

A replay entry is created only by ``python -m benchmark_replay ... --ha-url`` (a hidden
config-flow field its own call sets) and judges replayed samples sent with the admin-only
``anomaly_monitor.replay_sample`` action; it reads only its own states and shows the
homeowner nothing (``entry``, ``home``, ``service``). A monitor a homeowner creates never
becomes a replay entry; only the admin ``preview`` action borrows its silent watcher and
coordinator to replay the home's own recorder.
"""
