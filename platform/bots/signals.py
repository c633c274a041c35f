"""What the bots app tells the apps above it, which it may not import.

`version_uploaded` is sent once an upload's transaction has committed, with the
new version's id (``version_id``); the qualification app answers it by sending the
version to qualification (`qualification.services`).
"""

from __future__ import annotations

from django.dispatch import Signal

version_uploaded = Signal()
