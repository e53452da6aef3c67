"""Tests of the app, companion/: they mirror its packages."""
