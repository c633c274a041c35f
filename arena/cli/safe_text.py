"""Text from bots (names, exception notes, logs) made safe to show in a terminal.

A bot's text is shown as text and nothing more: rich markup in it is not read
(``[/bold]`` would raise ``MarkupError``), and every control character is
written as a visible escape, so no escape sequence (OSC 52 writing the
clipboard, CSI clearing the screen, OSC 0 retitling the window) reaches the
terminal. Escaped: C0 but for a newline where lines are kept, DEL, C1, and
the characters that reorder or hide text (bidirectional overrides and
isolates, line and paragraph separators).
"""

from __future__ import annotations

from rich.text import Text

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}
_REORDERING = [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029, 0x200E, 0x200F]


def _escape(code: int) -> str:
    char = chr(code)
    if char in _NAMED:
        return _NAMED[char]
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


_ONE_LINE = {code: _escape(code) for code in [*range(0x20), *range(0x7F, 0xA0), *_REORDERING]}
_LINES = {code: escape for code, escape in _ONE_LINE.items() if code != ord("\n")}


def visible(text: object, *, lines: bool = False) -> str:
    """`text` with every control character shown as an escape (``\\e``, ``\\x07``).

    With ``lines`` a newline stays a newline (a log's tail); otherwise it is
    shown as ``\\n``, so one value stays on one line.
    """
    return str(text).translate(_LINES if lines else _ONE_LINE)


def plain(text: object, *, lines: bool = False, style: str = "") -> Text:
    """`text` made visible, as a rich `Text`: printed as it is, never read as markup."""
    return Text(visible(text, lines=lines), style=style)


def labelled(label: object, value: object) -> Text:
    """``label: value`` with the label in bold, both from a bot and both made visible."""
    return Text.assemble((visible(label), "bold"), ": ", visible(value))
