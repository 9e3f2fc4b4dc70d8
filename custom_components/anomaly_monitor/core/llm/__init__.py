"""The language model's part of the core: backends' contract, prompts, replies, judges.

``backend`` is the protocol every model backend implements; ``detector`` asks a model to
judge a whole window; ``hybrid_detector`` runs the rules first and lets a model confirm,
explain and (only where calibrated) dismiss. ``second_opinion``, ``calibration`` and
``evidence_choice`` are the scored yes/no questions and what their answers may change;
``explanations`` and ``state_claims`` write and check the sentences a homeowner reads.
"""
