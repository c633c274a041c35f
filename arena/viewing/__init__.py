"""Watching matches: replays turned into frames, and the viewer that draws them.

`frames_document` re-simulates a replay and returns, for every event, one line
of transcript and the whole table after it, as one view saw it (the whole
truth, the public's, or one seat's). The browser viewer in
``static/tavolo-viewer/`` draws those frames; the site serves that folder and
`tavolo replay view` opens it on a local file (docs/viewer.md).
"""

from arena.viewing.document import FRAMES_FORMAT, frames_document
from arena.viewing.views import FULL, PUBLIC, View

__all__ = ["FRAMES_FORMAT", "FULL", "PUBLIC", "View", "frames_document"]
