"""The characters that never reach a terminal as they are, shared by the app and the command line.

Beside the control codes, two kinds of character are shown as an escape such as ``\\u202e``:
bidirectional controls, which reorder what follows them on screen (a title can read as
something it does not hold), and zero-width characters, which make two different texts look the
same. The command line shows zero-width joiners inside emoji too; the app keeps a joiner that
stands between two pictures (a family emoji is one picture, see ``safe``). Nothing here imports
Textual or Rich.
"""

from __future__ import annotations

#: Bidirectional controls: ALM, LRM, RLM, the embeddings and overrides, and the isolates.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
#: Zero-width space, non-joiner, joiner, word joiner, and the zero-width no-break space (BOM).
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
#: Every character shown as its ``\\uXXXX`` escape, in a form a regex character class takes.
INVISIBLE_CLASS = "\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff"


def escape(char: str) -> str:
    """The visible escape of one character: ``\\x9b`` below U+0100, else ``\\u202e``."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
