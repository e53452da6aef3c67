"""The contract: what crosses the app's layers, below all of them.

- ``events``: questions and their answers, announcements with their role,
  how much is said (Verbosity), what the player gives, and the protocols a
  face and the conversation keep.
- ``game``: what a game gives the app (the game plugin, a game being
  played) and what it gets back.

The faces, the conversation and the games all speak these values; the
contract itself knows none of them (tests/test_layers.py checks the order).
"""
