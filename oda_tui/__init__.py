"""oda-tui: the terminal manager for Oda's memory files."""
