"""Benchmarks for the memory store and the app (``python -m benchmarks``); never timed tests."""
