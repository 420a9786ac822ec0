"""The README's and CONTRIBUTING's links into the docs lead to a page and a heading that exist
(`mkdocs build --strict` checks the links inside `docs/`)."""

from __future__ import annotations

import re

import pytest

from oda_tui.screens.help import docs_anchor
from tests.support.doc_examples import PROJECT

LINKS = [
    (f"{page}:{text.count(chr(10), 0, match.start()) + 1}", page, match.group(1))
    for page in ("README.md", "CONTRIBUTING.md")
    for text in [(PROJECT / page).read_text(encoding="utf-8")]
    for match in re.finditer(r"\]\(([^)\s]+)\)", text)
    if not match.group(1).startswith(("http://", "https://"))
]


def test_the_readme_links_into_the_docs() -> None:
    assert sum(1 for _, page, _ in LINKS if page == "README.md") >= 8


@pytest.mark.parametrize(("where", "page", "link"), LINKS, ids=[where for where, _, _ in LINKS])
def test_a_link_leads_somewhere(where: str, page: str, link: str) -> None:
    target, _, anchor = link.partition("#")
    path = (PROJECT / page).parent / target
    assert path.is_file(), f"{where}: {link}: no such file"
    if anchor:
        headings = re.findall(r"^#{1,6} (.+)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        assert anchor in {docs_anchor(title) for title in headings}, f"{where}: {link}: no such heading"
