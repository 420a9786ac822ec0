"""The Oda memory file store."""
