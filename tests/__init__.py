"""The suite: one package per layer (store, app, cli, mcp, harness), helpers in ``support``."""
