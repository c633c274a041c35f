"""Management commands of the ladders app."""
