"""Tests of the companion app."""
