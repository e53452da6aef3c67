"""``python -m devtools``: the developers' commands (:mod:`devtools.cli`)."""

from __future__ import annotations

import sys

from devtools.cli import main

sys.exit(main())
