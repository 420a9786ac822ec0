"""``oda-tui mcp``: the chat side of memory as a Model Context Protocol server over stdio.

An optional extra (``pip install -e '.[mcp]'`` in the clone): only the command that serves it
(``oda_tui.cli.mcp_command``: the command line composes the server) and the modules it loads
import the ``mcp`` SDK, so the app and the other commands never need it.
"""
