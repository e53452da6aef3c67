"""pyttsx3 in a process of its own: the worker that
:class:`voices.backends.Pyttsx3Speaker` starts (``python pyttsx3_worker.py``).

It is a plain program, not a ``multiprocessing`` child: a spawned child
cannot be started while Textual has replaced ``sys.stderr`` (its resource
tracker is handed ``sys.stderr.fileno()``, and Textual's is -1), and this
one needs nothing from the app's process but a pipe each way. Requests come
on its standard input, a JSON object a line (``null`` or the end of the
input: the worker ends); it answers ``started`` and then ``done`` (or
``failed``) on its standard output, a word a line (``unavailable`` once, if
pyttsx3 cannot start here). A request of kind ``languages`` is answered
``languages`` and the app's languages its voices speak (``languages cs,en``).
Once it has its pipes it puts the null device on its standard input and
outputs: pyttsx3, the speech library and ``aplay`` write nothing where the
app reads.

It runs in a session of its own (the app starts it so): on Linux pyttsx3
plays through a child (``aplay``), and stopping kills the group, the child
with it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: The app's languages, as pyttsx3's voices name them.
LANGUAGES = ("en", "fr", "cs", "ru")
#: What a player of sound writes on its standard error when it cannot open
#: the sound output (no sound card, no sound server): espeak-ng's own
#: ``error: ...`` (it then ends as if it had spoken), aplay's ``audio open
#: error``, ALSA's library finding no card or no device.
NO_SOUND = re.compile(r"^error: |audio open error|snd_pcm_open|cannot find card|Unknown PCM",
                      re.MULTILINE)


def no_sound(errors: str) -> bool:
    """Whether a player's error output says it found no sound output.

    >>> no_sound("aplay: main:831: audio open error: No such file or directory\\n")
    True
    >>> no_sound("Error: The specified espeak-ng voice does not exist.\\n"), no_sound("")
    (False, False)
    """
    return NO_SOUND.search(errors) is not None


def language_of(voice: object) -> str:
    """The app's language a pyttsx3 voice speaks, or ``""``.

    >>> class Voice:
    ...     languages = [b"\\x05cs"]
    >>> language_of(Voice())
    'cs'
    """
    for attribute in ("languages", "id", "name"):
        value = getattr(voice, attribute, None)
        texts = value if isinstance(value, list) else [value]
        for item in texts:
            text = item.decode("ascii", "ignore") if isinstance(item, bytes) else item
            if not isinstance(text, str):
                continue
            code = text.lower().lstrip("\x05").replace("_", "-").split("/")[-1].split("-")[0]
            if code in LANGUAGES:
                return code
    return ""


def serve(requests: Any, answers: Any, errors: Any = None) -> None:
    """Speak what ``requests`` asks, answering on ``answers`` (text files);
    ``errors``, a binary file the worker's standard error goes to: what the
    player (``aplay``) wrote there while it said a sentence tells whether it
    found a sound output (``no-sound`` instead of ``done``)."""
    def answer(word: str) -> None:
        answers.write(word + "\n")
        answers.flush()

    try:
        import pyttsx3  # noqa: PLC0415 - only once the null device is in place

        engine = pyttsx3.init()
    except Exception:  # no engine here (no espeak library, no SAPI): said, not shown
        answer("unavailable")
        return
    voices = {language_of(v): v.id for v in engine.getProperty("voices")}
    finished: list[bool] = []
    engine.connect("finished-utterance", lambda name, completed: finished.append(True))
    # a failed utterance never finishes: it must not hold the queue
    engine.connect("error", lambda *args, **kwargs: finished.append(False))

    for line in requests:
        request = json.loads(line)
        if request is None:
            return
        if request["kind"] == "languages":  # which of the app's languages its voices speak
            answer("languages " + ",".join(sorted(set(voices) - {""})))
            continue
        kind, text, wav = request["kind"], request["text"], request.get("wav", "")
        if request["language"] in voices:
            engine.setProperty("voice", voices[request["language"]])
        engine.setProperty("rate", request["rate"])
        engine.setProperty("volume", request["volume"] / 100)
        finished.clear()
        answer("started")
        if kind == "render":
            engine.save_to_file(text, wav)
        else:
            engine.say(text)
        engine.runAndWait()
        # On Linux runAndWait can return before the file is written (more so
        # on a loaded machine): the driver finishes it in its own thread, so
        # wait for the finished-utterance callback and the file. (Driving the
        # engine meanwhile, with iterate(), is not allowed outside a loop of
        # its own: it raised, and the worker died mid-render.)
        deadline = time.monotonic() + 30
        while kind == "render" and time.monotonic() < deadline and not (
            finished and Path(wav).exists() and Path(wav).stat().st_size > 44
        ):
            time.sleep(0.01)
        # Spoken aloud, it plays through aplay after runAndWait has returned:
        # done is when it has played (else a stop could not cut it short).
        deadline = time.monotonic() + 600
        while kind == "say" and not finished and time.monotonic() < deadline:
            time.sleep(0.005)
        if kind == "say" and errors is not None:
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace")
            errors.seek(0)
            errors.truncate()
            if no_sound(said):
                answer("no-sound")
                continue
        answer("done" if all(finished) else "failed")


def main() -> None:
    """Take the pipes, put the null device in their place (a file of its own
    on the standard error, read after each sentence), and serve."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    with tempfile.TemporaryFile() as errors:
        for fd in (0, 1):
            os.dup2(null, fd)
        os.dup2(errors.fileno(), 2)
        serve(requests, answers, errors)


if __name__ == "__main__":
    del sys.path[0]  # this folder: its modules are the app's, not the worker's
    main()
