"""``python -m firmware_bridge``: the same as the ``firmware-bridge`` command."""

from __future__ import annotations

import sys

from firmware_bridge.cli import main

sys.exit(main())
