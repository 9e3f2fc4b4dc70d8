"""Developer option, not for homeowners: the benchmark's replay hook.

A replay entry judges replayed samples sent with the admin-only
``anomaly_monitor.replay_sample`` action; it reads only its own states and shows the
homeowner nothing (``entry``, ``home``, ``service``). It is fenced off a homeowner's install:

- the config flow offers its hidden field only when a developer asks for it - in-process
  code with ``{"anomaly_monitor_replay": True}`` in the flow's context, or the admin-only
  REST call with ``?anomaly_monitor_replay=1`` (``python -m benchmark_replay ... --ha-url``);
  the frontend can send neither (its "advanced mode" flag does not ask for it);
- the ``replay_sample`` action is registered only when a replay entry is set up, and removed
  with the last one: a homeowner's install never has it;
- a monitor a homeowner creates never becomes a replay entry (the options flow has no
  such field). Only the admin ``preview`` action borrows its silent watcher and coordinator
  to replay the home's own recorder.
"""
