"""Tests of the faces, companion/faces/: plain lines and the full screen."""
