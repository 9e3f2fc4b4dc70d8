"""One analysis of the watched home: its window judged, and what it returns.

``judge`` asks the detector about a window (the checks once, then the model, the checks'
verdict standing when the model fails) and keeps the verdict while the window stays the
same; ``result`` is what an analysis returns and what the entities and diagnostics read.
The coordinator decides when an analysis runs; ``anomalies/`` turns its verdict into
anomalies and tells the homeowner.
"""
