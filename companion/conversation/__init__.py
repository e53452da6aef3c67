"""The conversation between the app and the player, whatever face shows it.

Journeys (first start, the table companion, practice, scoring, learning the
codes, settings, resume) are written once, against :class:`~companion.
contract.events.Conversation`: they ask typed questions and get typed
answers back, and they say announcements that carry their role. A face
(plain line mode, or the full screen) renders those values; it holds no
journey and reads no text back.

The values that cross between journeys, games and faces are the contract's
(:mod:`companion.contract`).

- ``core``: the conversation itself: questions asked, input read (typed
  lines, options chosen, keys pressed, scans), words that work everywhere,
  speech and history.
- ``journeys``: the app's journeys, over every registered game.
- ``announce``: what is said, kept in the history and handed to speech.
- ``inbox``: one queue of what the player gives, in the order it came.
- ``scanner_news``: the scanner's news in the player's language.
"""
