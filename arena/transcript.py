"""A readable transcript of a replay: the rules in words, then one line per event.

The lines are the frames' (`arena.viewing.frames_document`), numbered by event
index, the same numbers as a viewer's ``#event=N``. A decision (an ``action``
input event) is told by the event it causes, so it is left out unless asked.
"""

from __future__ import annotations

from collections.abc import Iterator

from arena.engine import JSON
from arena.viewing import View, frames_document
from arena.viewing.words import places_text


def transcript_lines(
    replay: JSON, *, view: View = "full", decisions: bool = False
) -> Iterator[str]:
    """The header, every event as `view` knew it, and the result, as lines of text."""
    document = frames_document(replay, view=view)
    names = [seat["bot"] for seat in document["seats"]]
    yield document["rules_text"]
    yield f"seed {replay['seed']}, started {replay.get('started_at', '?')}"
    yield "seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(names))
    for step in document["steps"]:
        if decisions or "decision" not in step["marks"]:
            yield f"{step['index']:5d}  {step['text']}"
    if document["finished"]:
        yield "result: " + places_text(document["result"]["places"], names)
    else:
        yield "(the match is not over)"
