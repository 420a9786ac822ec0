"""Text helpers: safe display of user text, numbers and moments in words, diffs, glyphs."""
