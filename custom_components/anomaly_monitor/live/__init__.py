"""The live home: which entities are watched, their changes, and the window built from them.

``watcher`` follows the bus into the core's buffer; ``coverage`` says which entities it
watches; ``context_builder`` and ``state_summary`` turn Home Assistant states into the
core's; ``offline_check`` analyses when an offline device's grace ends. (The window's past
after a restart is read back by ``recorder/window_history.py``.)
"""
