"""What real assistive technology presents of the app: a walk through it
under BRLTTY (braille window and speech) and the Fenrir screen reader on a
Linux virtual console, with its figures (``python -m devtools bench a11y``).

:mod:`~devtools.atcheck.devices` holds the console and the readers,
:mod:`~devtools.atcheck.walk` the steps and their figures,
:mod:`~devtools.atcheck.scenario` the walk itself.
"""
