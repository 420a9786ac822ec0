"""The library: every change, message and limit."""
