"""``python -m benchmark_replay.homebench`` (same as ``python -m benchmark_replay homebench``)."""

import sys

from .cli import main

sys.exit(main())
