"""A tiny web server on 127.0.0.1 that shows one replay in the viewer (`tavolo replay view`).

It serves the viewer's static files, a page that mounts it, and the replay's
frames for every view, computed when first asked. It needs no account and no
network: the port is chosen by the system, and only this machine can connect.
"""

from __future__ import annotations

import functools
import html
import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from string import Template

from arena.engine import JSON
from arena.viewing.document import frames_document

STATIC = Path(str(files("arena.viewing").joinpath("static")))
VIEWER = STATIC / "tavolo-viewer"
CONTENT_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
PAGE = Template("""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<link rel="stylesheet" href="/tavolo-viewer/page.css">
</head>
<body>
<div class="tavolo-viewer" data-frames-url="/frames/full.json"
 data-public-frames-url="/frames/public.json" data-seat-frames-url="/frames/seat-{seat}.json"$logs>
</div>
<script type="module" src="/tavolo-viewer/main.js"></script>
</body>
</html>
""")


class ReplayServer(ThreadingHTTPServer):
    """Serves one replay's viewer until shut down."""

    daemon_threads = True

    def __init__(self, replay: JSON, port: int = 0, *, logs: JSON | None = None) -> None:
        self.replay = replay
        self.logs = logs
        """What the bots printed, decision by decision (docs/viewer.md), if given."""
        self.frames = functools.lru_cache(maxsize=None)(self._frames)
        super().__init__(("127.0.0.1", port), ReplayHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}/"

    def page(self) -> bytes:
        names = ", ".join(seat["bot"] for seat in self.replay["seats"])
        title = f"{self.replay['game'].capitalize()}: {names}"
        logs = ' data-logs-url="/logs.json"' if self.logs is not None else ""
        return PAGE.substitute(title=html.escape(title), logs=logs).encode()

    def _frames(self, view: str) -> bytes:
        return json.dumps(frames_document(self.replay, view=view), separators=(",", ":")).encode()

    def serve_in_thread(self) -> threading.Thread:
        """Serve from a daemon thread; `shutdown()` stops it."""
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread


class ReplayHandler(BaseHTTPRequestHandler):
    server: ReplayServer

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(self.server.page(), ".html")
        elif path.startswith("/frames/") and path.endswith(".json"):
            self._send_frames(path.removeprefix("/frames/").removesuffix(".json"))
        elif path == "/logs.json" and self.server.logs is not None:
            self._send(json.dumps(self.server.logs).encode(), ".json")
        elif path.startswith("/tavolo-viewer/"):
            self._send_static(path.removeprefix("/tavolo-viewer/"))
        else:
            self._send_error(HTTPStatus.NOT_FOUND)

    def _send_frames(self, name: str) -> None:
        view = name.removeprefix("seat-") if name.startswith("seat-") else name
        try:
            body = self.server.frames(view)
        except ValueError:
            self._send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(body, ".json")

    def _send_static(self, name: str) -> None:
        path = (VIEWER / name).resolve()
        if (
            path.parent != VIEWER.resolve()
            or path.suffix not in CONTENT_TYPES
            or not path.is_file()
        ):
            self._send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(path.read_bytes(), path.suffix)

    def _send(self, body: bytes, suffix: str, status: HTTPStatus = HTTPStatus.OK) -> None:
        self.send_response(status)
        self.send_header("Content-Type", CONTENT_TYPES[suffix])
        self.send_header("Content-Length", str(len(body)))
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _send_error(self, status: HTTPStatus) -> None:
        self._send(f"{status.value} {status.phrase}\n".encode(), ".html", status)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the command prints only the address."""
