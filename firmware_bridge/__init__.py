"""Card input from a serial NFC scanner: wire protocol, link and registry.

The scanner's own firmware lives in ``firmware/`` beside this package.
"""

from __future__ import annotations
