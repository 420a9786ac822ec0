"""One memory file: its bytes parsed into fields or a problem.

The parse keeps the frontmatter as its lines, so that a rewrite (``store.memory_render``)
changes only the lines of the fields that changed. The fields themselves live in
``store.memory_fields``, the two ways of reading a block in ``store.frontmatter_fast`` and
``store.frontmatter_yaml``; their public names are importable from here as well.
"""

from __future__ import annotations

from store import messages as msg
from store.format.fast_parser import parse_canonical, parse_fast
from store.format.fields import (
    BOM,
    FIELD_ORDER,
    Content,
    Document,
    Fields,
    FileProblem,
    normalize_text,
    normalize_title,
)
from store.format.render import field_values, render_edit, render_field, render_new
from store.limits import Limits

__all__ = [
    "BOM",
    "FIELD_ORDER",
    "Content",
    "Document",
    "Fields",
    "FileProblem",
    "field_values",
    "normalize_text",
    "normalize_title",
    "parse_bytes",
    "parse_content",
    "parse_text",
    "render_edit",
    "render_field",
    "render_new",
    "split_frontmatter",
]


def parse_bytes(raw: bytes, limits: Limits) -> Document | FileProblem:
    """Parse a memory file's bytes into a document, or say which problem it has."""
    if len(raw) > limits.file_max_bytes:
        return FileProblem(msg.FILE_TOO_LARGE.format(n=limits.file_max_bytes))
    if raw.startswith(BOM):
        raw = raw[3:]
    try:
        content = raw.decode("utf-8")
    except UnicodeDecodeError:
        return FileProblem(msg.FILE_NOT_UTF8)
    return parse_text(content, limits)


def split_frontmatter(content: str) -> tuple[list[str], str] | None:
    """The frontmatter lines and the body after the closing line; None without a block."""
    if "\r" in content:
        content = content.replace("\r\n", "\n")
    first_end = content.find("\n")
    if first_end < 0 or content[:first_end].rstrip(" \t") != "---":
        return None
    start = first_end + 1
    newline = first_end  # the line break before the next candidate closing line
    while True:
        newline = content.find("\n---", newline)
        if newline < 0:
            return None
        pos = newline + 1
        end = content.find("\n", pos + 3)
        line = content[pos:] if end < 0 else content[pos:end]
        if line == "---" or line.rstrip(" \t") == "---":
            fm = content[start:pos]
            body = "" if end < 0 else content[end + 1 :]
            return (fm[:-1].split("\n") if fm else []), body
        newline = pos


def parse_text(content: str, limits: Limits) -> Document | FileProblem:
    """Parse decoded file text (the UTF-8 and size checks already passed)."""
    split = split_frontmatter(content)
    if split is None:
        return FileProblem(msg.FILE_NO_FRONTMATTER)
    fm_lines, body = split
    parsed = parse_fast(fm_lines)
    if parsed is None:
        from store.format.yaml_block import parse_yaml  # the YAML library, only when it is needed

        parsed = parse_yaml(fm_lines)
    if isinstance(parsed, FileProblem):
        return parsed
    fields, spans = parsed
    text = body.strip()
    if len(text) > limits.text_max_chars or len(fields.title) > limits.title_max_chars:
        return FileProblem(msg.FILE_TOO_LONG.format(n=limits.text_max_chars, m=limits.title_max_chars))
    return Document(fields=fields, text=text, fm_lines=fm_lines, spans=spans, body=body)


def parse_content(raw: bytes, limits: Limits) -> Content | FileProblem:
    """A file's fields and text, or its problem: ``parse_bytes`` without the rewrite data.

    Files in the store's own layout take one regular expression; any other goes through
    ``parse_bytes`` (tests/store/test_fast_path.py proves both give the same).
    """
    if len(raw) <= limits.file_max_bytes:
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            content = ""
        found = parse_canonical(content, limits)
        if found is not None:
            return found
    doc = parse_bytes(raw, limits)
    return doc if isinstance(doc, FileProblem) else (doc.fields, doc.text)
