"""The faces of the conversation: how the player sees and answers it.

- ``plain``: plain line mode, numbered prompts and output that only grows,
  for screen readers, braille terminals and pipes.
- ``screen``: the full screen (Textual), with its list, status line and
  answer line, the terminal cursor always on what matters.

Each renders the conversation's values (:mod:`companion.conversation.events`)
and gives back what the player did; neither holds a journey.
"""

#: The column past which an answer is out of a 40-cell braille display's
#: first window (a few cells kept for the answer): both faces keep the
#: cursor at the start of the question's row, or break the question,
#: rather than leave it there.
FAR_RIGHT = 32
