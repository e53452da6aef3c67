"""What real assistive technology presents of the app: a walk through it
under BRLTTY (braille window and speech) and the Fenrir screen reader on a
Linux virtual console, with its figures (``companion bench a11y``).

:mod:`~companion.atcheck.devices` holds the console and the readers,
:mod:`~companion.atcheck.walk` the steps and their figures,
:mod:`~companion.atcheck.scenario` the walk itself.
"""
