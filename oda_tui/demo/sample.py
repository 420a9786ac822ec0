"""A realistic sample store for ``oda-tui --demo``, built in a temporary folder."""

from __future__ import annotations

import tempfile
from pathlib import Path

from store import GLOBAL, MemoryStore

WORKSPACE_WEB = "acme-web"
WORKSPACE_THESIS = "thesis-2025"

GLOBAL_MEMORIES = [
    ("Reply language", "Reply in English, in short bullet points unless I ask for prose.", "user"),
    (
        "About me",
        "I am a backend developer in Lisbon (UTC+0/+1). I mostly write Python and Go, "
        "and I read Rust. Assume I know the basics; skip beginner explanations.",
        "user",
    ),
    (
        "Code style",
        "- Python: type hints, ruff defaults, f-strings.\n- Prefer small pure functions.\n"
        "- Never add comments that repeat the code.",
        "user",
    ),
    (
        "Prefers uv over pip",
        "The user manages Python projects with uv (uv add, uv run); suggest uv commands instead of pip.",
        "ai",
    ),
    (
        "Regex: escape [ and ] in patterns",
        "When I ask for a regex, remember that [ and ] must be escaped as \\[ and \\] inside "
        "character classes. Titles like [this] are plain text, not markup.",
        "user",
    ),
]

#: The list's first row (Global, created first): what a start waits for to be on screen.
FIRST_TITLE = GLOBAL_MEMORIES[0][0]

WEB_MEMORIES = [
    (
        "Stack",
        "acme-web is a Django 5 app with HTMX on the front end, PostgreSQL 16, and Celery "
        "with Redis for background jobs. Deployed on Fly.io.",
        "user",
    ),
    (
        "Tests run with pytest-django",
        "Run tests with `uv run pytest -q`; the settings module is acme.settings.test. "
        "Factories live in tests/factories.py (factory_boy).",
        "ai",
    ),
    (
        "Migrations",
        "Never edit a migration that has been merged to main; add a new one.",
        "user",
    ),
    (
        "Feature flags",
        "Flags are read from django-waffle. New flags default to off in production.",
        "ai",
    ),
    # The same text as the global "Prefers uv over pip", written differently: a duplicate.
    (
        "Use uv, not pip",
        "the user manages Python projects with UV (uv add / uv run): suggest uv commands instead of pip!",
        "user",
    ),
]

THESIS_MEMORIES = [
    (
        "Thesis topic",
        "Master's thesis on energy use of LLM inference on edge devices. Supervisor: "
        "Prof. Marques. Deadline: end of September.",
        "user",
    ),
    (
        "Citation style",
        "Use IEEE citation style. Bibliography is in refs.bib (BibLaTeX, biber backend).",
        "user",
    ),
    (
        "Writes in British English",
        "The thesis is written in British English (optimise, colour, modelling).",
        "ai",
    ),
    # Contains the global "Reply language" and adds to it: similar, not a duplicate.
    (
        "Reply language",
        "Reply in English, in short bullet points unless I ask for prose. In thesis chats, "
        "prefer full paragraphs for drafts.",
        "user",
    ),
]

# Clearly fake, but shaped like an API key: the store flags it (saved with allow_secret=True).
FAKE_KEY_TEXT = (
    "Staging OpenAI key for acme-web (a fake one, for the demo): sk-demoFAKEkey0000NotReal1111DoNotUse"
)


def _raw(store: MemoryStore, scope: str | None, memory_id: str, data: bytes) -> None:
    """Write a file as another program would (the store would refuse these)."""
    path = store.memory_path(scope, memory_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def build_demo_store(root: Path | None = None) -> Path:
    """Fill ``root`` (a new temporary folder by default) with the sample and return it."""
    if root is None:
        root = Path(tempfile.mkdtemp(prefix="oda-demo-")) / "memory"
    store = MemoryStore(root)
    created = {}
    for scope, items in (
        (GLOBAL, GLOBAL_MEMORIES),
        (WORKSPACE_WEB, WEB_MEMORIES),
        (WORKSPACE_THESIS, THESIS_MEMORIES),
    ):
        for title, text, source in items:
            if source == "ai":
                memory = store.create(scope, title, text, source="ai", session_id="chat-7f3a9c", via="chat")
            else:
                memory = store.create(scope, title, text)
            created[(scope, title)] = memory

    # History: a memory changed several times, from Settings and from a chat.
    style = created[(GLOBAL, "Code style")]
    store.change(
        GLOBAL,
        style.id,
        text="- Python: type hints, ruff defaults, f-strings.\n- Prefer small pure functions.\n"
        "- Never add comments that repeat the code.\n- Tests next to the code they test.",
    )
    store.change(
        GLOBAL,
        style.id,
        text="- Python: type hints, ruff defaults, f-strings.\n- Prefer small pure functions.\n"
        "- Comments explain why, never what.\n- Tests next to the code they test.",
        via="chat",
    )
    stack = created[(WORKSPACE_WEB, "Stack")]
    store.change(
        WORKSPACE_WEB,
        stack.id,
        text="acme-web is a Django 5 app with HTMX on the front end, PostgreSQL 16, and Celery "
        "with Redis for background jobs. Deployed on Fly.io (region: mad).",
    )
    # An edit made outside the app, picked up and then changed again in Settings.
    stack_path = store.memory_path(WORKSPACE_WEB, stack.id)
    stack_path.write_text(
        stack_path.read_text(encoding="utf-8").replace("region: mad", "regions: mad, cdg"),
        encoding="utf-8",
    )
    store.refresh([stack_path])
    store.change(WORKSPACE_WEB, stack.id, title="Stack and hosting")

    # Hygiene (issue 7): a secret-looking memory, and an agent change waiting for review with
    # a diff (the agent wrote it, the person edited it, then a chat changed it again).
    store.create(WORKSPACE_WEB, "Staging API key", FAKE_KEY_TEXT, allow_secret=True)
    tests = created[(WORKSPACE_WEB, "Tests run with pytest-django")]
    store.change(WORKSPACE_WEB, tests.id, text=tests.text + " Use --reuse-db locally.")
    british = created[(WORKSPACE_THESIS, "Writes in British English")]
    store.change(
        WORKSPACE_THESIS,
        british.id,
        text="The thesis is written in British English (optimise, colour, modelling). "
        "Use -ise spellings throughout.",
    )
    store.change(
        WORKSPACE_THESIS,
        british.id,
        text="The thesis is written in British English (optimise, colour, modelling). "
        "Use Oxford -ize spellings (organize, realize) as the department asks.",
        via="chat",
    )

    # One memory turned off, one recently deleted.
    store.set_enabled(WORKSPACE_WEB, created[(WORKSPACE_WEB, "Feature flags")].id, False)
    old = store.create(GLOBAL, "Old employer", "I work at Initech on the billing team.")
    store.delete(GLOBAL, old.id)

    # One file for each kind of problem, as another program might leave them.
    good = "---\ntitle: {title}\nenabled: true\nsource: user\n---\n\n{text}\n"
    _raw(
        store,
        GLOBAL,
        "a1b2c3d4",
        good.format(title="Huge paste", text="log line\n" * 8000).encode("utf-8"),
    )
    _raw(
        store,
        GLOBAL,
        "b2c3d4e5",
        b"---\ntitle: Caf\xe9 notes\nenabled: true\nsource: user\n---\n\nLatin-1, not UTF-8.\n",
    )
    _raw(store, WORKSPACE_WEB, "c3d4e5f6", b"Deploy checklist: run migrations before restart.\n")
    _raw(
        store,
        WORKSPACE_WEB,
        "d4e5f6a7",
        b"---\ntitle: [unclosed\nenabled: true\nsource: user\n---\n\nBroken YAML above.\n",
    )
    _raw(
        store,
        WORKSPACE_THESIS,
        "e5f6a7b8",
        b"---\ntitle: Chapter plan\nenabled: maybe\n---\n\n1. Intro 2. Method 3. Results\n",
    )
    _raw(
        store,
        WORKSPACE_THESIS,
        "f6a7b8c9",
        good.format(title="Full literature notes", text="Notes. " * 400).encode("utf-8"),
    )
    # Not a memory at all: the name is not an id.
    (store.memory_path(GLOBAL, "00000000").parent / "todo.md").write_text(
        "remember to buy milk\n", encoding="utf-8"
    )
    # Not read back here: the app reads the folder as it finds it (the store this made goes).
    return root
