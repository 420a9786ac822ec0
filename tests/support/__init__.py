"""Helpers the tests share: files written as another program would, and drivers for the app,
the command line, the MCP server and a real terminal."""
