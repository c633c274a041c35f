"""Checks on an uploaded bot before anything is stored: pure, no database.

`compile()` only parses and compiles the source, it never runs it, so these
checks are safe in the web process. Everything that runs bot code happens in
the jail, on a worker.
"""

from __future__ import annotations

import ast
import re

from django.core.exceptions import ValidationError
from django.core.files import File

MAX_SOURCE_BYTES = 256 * 1024
"""The largest bot file accepted: the one limit that checks, forms, errors and pages ask."""
MAX_SOURCE_SIZE = f"{MAX_SOURCE_BYTES // 1024} KiB"
"""`MAX_SOURCE_BYTES` as people read it."""
BOT_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,39}")
FILENAME_PATTERN = re.compile(r"[^/\\]+\.py")
ONE_FILE_ONLY = "send one file: a bot is a single Python file"


def bot_name_check(name: str) -> None:
    """Refuse a bot name that is not 2 to 40 letters, digits, '-' or '_'."""
    if not BOT_NAME_PATTERN.fullmatch(name):
        raise ValidationError(
            "a bot name is 2 to 40 letters, digits, '-' or '_', starting with a letter or digit",
            code="bad_name",
        )


def bot_file_read(file: File) -> bytes:
    """The bytes of an uploaded bot file; one over the limit is refused by its size, unread."""
    if file.size is not None and file.size > MAX_SOURCE_BYTES:
        raise _too_large(file.size)
    data: bytes = file.read(MAX_SOURCE_BYTES + 1)
    return data


def _too_large(size: int) -> ValidationError:
    return ValidationError(
        f"the file is {size} bytes; the limit is {MAX_SOURCE_BYTES} ({MAX_SOURCE_SIZE})",
        code="too_large",
    )


def bot_source_check(*, source_bytes: bytes, filename: str) -> str:
    """The source text of a valid bot file; a ValidationError naming the first problem."""
    if not FILENAME_PATTERN.fullmatch(filename):
        raise ValidationError("upload one Python file whose name ends in .py", code="not_python")
    if not source_bytes.strip():
        raise ValidationError("the file is empty", code="empty")
    if len(source_bytes) > MAX_SOURCE_BYTES:
        raise _too_large(len(source_bytes))
    if b"\0" in source_bytes:
        raise ValidationError("the file is binary, not Python source", code="binary")
    try:
        source = source_bytes.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ValidationError(
            f"the file is not UTF-8 text (byte {error.start} cannot be decoded)", code="not_utf8"
        ) from None
    tree = _compile(source, filename)
    _act_check(tree)
    return source


def _compile(source: str, filename: str) -> ast.Module:
    try:
        compile(source, filename, "exec", dont_inherit=True)
        return ast.parse(source, filename)
    except SyntaxError as error:
        raise ValidationError(
            f"syntax error on line {error.lineno}: {error.msg}", code="syntax_error"
        ) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise ValidationError(
            f"the file cannot be compiled: {error}", code="syntax_error"
        ) from None


def _act_check(tree: ast.Module) -> None:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "act":
            arguments = node.args
            if arguments.posonlyargs or arguments.args or arguments.vararg:
                return
            raise ValidationError(
                "act must take one argument, the observation", code="act_signature"
            )
    raise ValidationError(
        "the file must define a top-level function `def act(observation):`", code="no_act"
    )
