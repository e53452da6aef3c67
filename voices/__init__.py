"""Speech output behind one small interface, for every backend the app supports."""

from __future__ import annotations
