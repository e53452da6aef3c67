"""The web face: the conversation as HTML pages, for phones (VoiceOver,
TalkBack) and desktop screen readers (NVDA, JAWS, VoiceOver on a Mac).

- :mod:`.face`: the face itself (what the conversation shows, kept as a
  state every page is drawn from) and the inbox the pages' answers go to;
- :mod:`.page`: the pages and the updates drawn from that state (HTML,
  escaped by default; each question a form);
- :mod:`.server`: the HTTP server (Starlette on uvicorn): the pages, the
  answers posted, the updates that come by themselves (Server-Sent Events),
  and what keeps them safe (the host, the origin, a token on every post,
  a strict Content-Security-Policy).

Every journey works with JavaScript off (plain form posts, each new page
beginning with the reply, the question focused); with it on, answers and
news arrive without a reload. Nothing is fetched from another host: the
script and the style sheet are the package's (``static/``).
"""

#: The port the web face serves on, unless told another (``--port``).
PORT = 8770
