"""Run bot files in their own processes, jailed with bubblewrap or not.

`sandbox.process_bot.open_file_bot` is the one entry point: it returns an
`arena.bots.handle.BotHandle` that speaks the JSON-lines wire protocol
(docs/wire-protocol.md) with `sandbox/host.py` running inside the jail
(docs/sandbox.md). Nothing here imports Django or the platform.
"""
