"""The command line: each command as a subprocess."""
