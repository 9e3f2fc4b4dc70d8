"""The live home: which entities are watched, their changes, and the window built from them.

``watcher`` follows the bus into the core's buffer; ``coverage`` says which entities it
watches; ``context_builder`` and ``state_summary`` turn Home Assistant states into the
core's; ``window_history`` reads the window's past back from the recorder after a restart;
``offline_check`` analyses when an offline device's grace ends.
"""
