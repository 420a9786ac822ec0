"""The sample store of `oda-tui --demo` and the temporary folder it lives in."""
