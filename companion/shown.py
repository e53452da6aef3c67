"""What the app writes back of what someone typed or a file held, made
visible: the one function lives low, in :mod:`firmware_bridge.shown`, so
that the scanner's command (which imports nothing of the app) uses it too.

>>> shown("Ann\\x1b[2J")
'Ann␛[2J'
"""

from __future__ import annotations

from firmware_bridge.shown import LIMIT as LIMIT  # noqa: PLC0414
from firmware_bridge.shown import PATH_LIMIT as PATH_LIMIT  # noqa: PLC0414
from firmware_bridge.shown import shown as shown  # noqa: PLC0414
