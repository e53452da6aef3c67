"""The conversation between the app and the player, whatever face shows it.

Journeys (first start, the table companion, practice, scoring, learning the
codes, settings, resume) are written once, against :class:`~companion.
contract.events.Conversation`: they ask typed questions and get typed
answers back, and they say announcements that carry their role. A face
(plain line mode, or the full screen) renders those values; it holds no
journey and reads no text back.

The values that cross between journeys, games and faces are the contract's
(:mod:`companion.contract`).

- ``core``: the conversation itself (:class:`~companion.conversation.core.Talk`):
  input read (typed lines, options chosen, keys pressed, scans) and handed
  to the part it is for; it composes the modules below.
- ``questions``: each kind of question as a pure state machine: what the
  player gave in, an answer or a refusal out.
- ``words``: the words that work everywhere, answered (and a game's
  handed to the game).
- ``cards``: a scanned tag or a typed code read whatever game it is of.
- ``services``: speech, the scanner and the settings, behind protocols;
  ``speech`` and ``scanning`` are the first two.
- ``journeys``: the app's journeys, over every registered game.
- ``announce``: what is said, kept in the history and handed to speech.
- ``inbox``: one queue of what the player gives, in the order it came.
- ``scanner_news``: the scanner's news in the player's language.

The composition root (:mod:`companion.app`) builds the services and the
conversation, and gives each face only what it needs of them.
"""
