"""Synthetic stores: realistic memory files written the way the store writes them."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from store.format.parse import Fields, render_new

_WORDS = (
    "prefers concise answers project deadline python rust meeting notes review deploy "
    "server client budget design api schema release weekly standup customer invoice "
    "travel family birthday allergy coffee tea editor vim emacs terminal theme dark "
    "light keyboard layout timezone berlin tokyo london language german japanese "
    "english spanish backup database postgres sqlite redis cache queue worker cron "
    "report quarterly goals health running cycling garden recipe vegetarian"
).split()
_PUNCT = (": ", " - ", ", ", " (", ") ", " #", "'s ", " & ", " — ", " ü ", " 日本 ")


def _words(rng: random.Random, low: int, high: int) -> str:
    target = rng.randint(low, high)
    parts: list[str] = []
    size = 0
    while size < target:
        word = rng.choice(_WORDS)
        if parts and rng.random() < 0.08:
            word = rng.choice(_PUNCT).strip() + " " + word
        parts.append(word)
        size += len(word) + 1
    text = " ".join(parts)[:target].strip()
    return text if len(text) >= low else (text + " " + "x" * low)[:low]


def _text(rng: random.Random) -> str:
    # Most memories are short; some are long notes of several paragraphs (20 to 2,000 chars).
    size = int(min(2000, max(20, rng.lognormvariate(5.6, 0.9))))
    text = _words(rng, size, size)
    if size > 300:
        cut = [i for i in range(80, len(text), rng.randint(120, 400)) if text[i] == " "]
        for i in reversed(cut):
            text = text[:i] + "\n\n" + text[i + 1 :]
    return text[:size].strip()  # each break added a character: stay within the limit


def _problem(rng: random.Random, index: int) -> bytes:
    kind = index % 4
    if kind == 0:
        return b"no frontmatter here\n"
    if kind == 1:
        return b"---\ntitle: [unclosed\nenabled: true\nsource: user\n---\nText\n"
    if kind == 2:
        return b"---\ntitle: Missing fields\n---\nText\n"
    return b"\xff\xfe not utf-8 \x80\n"


def generate(
    root: Path, memories: int, workspaces: int, *, seed: int = 1, problems: int = 0
) -> dict[str, int]:
    """Write ``memories`` files (5% global, the rest over ``workspaces`` folders, a few
    large ones) plus ``problems`` problem files; returns counts and the largest workspace."""
    rng = random.Random(seed)
    os.makedirs(root / "global", exist_ok=True)
    keys = [f"ws-{i:04d}" for i in range(workspaces)]
    for key in keys:
        os.makedirs(root / "workspaces" / key, exist_ok=True)
    # Workspace sizes follow a skewed distribution: a few big projects, many small ones.
    weights = [1.0 / (i + 1) ** 0.8 for i in range(workspaces)]
    start = datetime(2024, 1, 1, tzinfo=UTC)
    used: set[str] = set()
    sizes: dict[str, int] = dict.fromkeys(keys, 0)
    n_global = max(1, memories // 20)
    for i in range(memories):
        while True:
            memory_id = f"{rng.getrandbits(32):08x}"
            if memory_id not in used:
                used.add(memory_id)
                break
        if i < n_global:
            folder = root / "global"
        else:
            key = rng.choices(keys, weights)[0]
            sizes[key] += 1
            folder = root / "workspaces" / key
        created = start + timedelta(seconds=rng.randint(0, 60 * 86400), milliseconds=rng.randint(0, 999))
        fields = Fields(
            title=_words(rng, 10, 110),
            enabled=rng.random() < 0.9,
            source="ai" if rng.random() < 0.6 else "user",
            session_id=f"s-{rng.getrandbits(48):012x}" if rng.random() < 0.6 else None,
            created=created,
            updated=created + timedelta(days=rng.randint(0, 30)),
        )
        (folder / f"{memory_id}.md").write_bytes(render_new(fields, _text(rng)).encode("utf-8"))
    for j in range(problems):
        key = keys[j % len(keys)]
        memory_id = f"{rng.getrandbits(32):08x}"
        (root / "workspaces" / key / f"{memory_id}.md").write_bytes(_problem(rng, j))
    largest = max(sizes, key=lambda k: sizes[k])
    return {"memories": memories, "workspaces": workspaces, "problems": problems, "largest": largest}  # type: ignore[dict-item]
