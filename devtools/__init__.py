"""The developers' tools: the rigs the test suite runs the app on, and the
benchmarks that need them. Not part of the app: the wheel leaves this
package out (pyproject.toml finds companion, firmware_bridge and voices
only), and nothing in those packages imports it (tests/test_layers.py
checks).

* :mod:`devtools.rig`: a sound card with no hardware (an ALSA plugin,
  devtools/soundcard/) and a private speech-dispatcher daemon, to hear
  what the speech backends really play;
* :mod:`devtools.atcheck`: the app under real BRLTTY and Fenrir on a
  Linux virtual console (root);
* :mod:`devtools.bench_ui` and :mod:`devtools.bench_speech`: the
  benchmarks on those rigs.

From the project folder, ``python -m devtools bench a11y|ui|speech``
(:mod:`devtools.cli`).
"""
