"""Tests of the development tools, devtools/: the rigs the suite and the
developers use (the test sound card, the assistive technology walk)."""
