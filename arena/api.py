"""Version numbers of everything a bot author or a replay depends on."""

API_VERSION = 1
"""The bot API: observation and action dicts, and the JSON-lines wire protocol."""

REPLAY_FORMAT_VERSION = 1
"""The replay file format (docs/replay-format.md)."""

ENGINE_VERSION = "1.0.0"
"""The rules engines; a replay records it so a later engine can refuse or adapt."""
