"""Tests of the tactile kit, companion/kit/."""
