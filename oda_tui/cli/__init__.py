"""The ``oda-tui`` command line: the bare command opens the app, a subcommand runs without it."""
