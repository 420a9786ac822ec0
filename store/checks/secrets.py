"""Secret-looking text: passwords, API keys and tokens, private keys, card numbers. Pure.

A memory is sent to the model with every message of every chat that receives it, so text that
looks like a secret is flagged: ``MemoryStore.create`` and ``change`` refuse it unless the
caller passes ``allow_secret=True``, and existing memories with it are listed as warnings.

What is flagged (``find_secrets`` returns each hit's kind and span):

- **private key**: a ``-----BEGIN … PRIVATE KEY-----`` (or ``PRIVATE KEY BLOCK``) line, through
  its ``-----END …-----`` line or, without one, to the end of the text.
- **API key or token**: well-known prefixes (``sk-``, ``sk_live_``/``rk_live_``…, ``ghp_``,
  ``gho_``, ``ghu_``, ``ghs_``, ``ghr_``, ``github_pat_``, ``glpat-``, ``xoxb-``/``xoxp-``/``xoxa-``/
  ``xoxs-``/``xapp-``, ``AKIA``/``ASIA`` + 16, ``AIza`` + 35, ``hf_``, ``npm_``) with enough
  characters after them; JWTs (``eyJ….eyJ….…``); ``api_key=``/``token:``/``secret:``/
  ``Bearer …`` followed by a value of 12+ key characters that is not a word; a URL query value
  named like a key (``?token=``, ``&api_key=``, ``&sig=``…); and long high-entropy strings
  (below).
- **password**: ``password``/``passwd``/``passphrase``/``passcode``/``pwd`` followed by ``:``,
  ``=``, ``is`` or ``was`` and a value (``pass``, ``pw`` and ``pin`` only with ``:`` or ``=``), and
  the ``user:password@`` part of a URL. A value that reads as prose is not a password: a plain
  word followed by more words (``password: stored in the keychain``, ``the password is on the
  sticker``) and placeholders (``***``, ``<password>``, ``${PASS}``, ``none``, ``redacted``…) are
  not flagged; a value with a digit, symbol or inner capital, a quoted value, a ``key=value``
  without spaces, or a plain word that ends the sentence (``my wifi password is sunshine.``) is.
- **card number**: a run of 13–19 digits, optionally grouped by single spaces or hyphens, whose
  digits as a whole pass the Luhn check. Only whole runs are checked: a run of 20 digits is not
  checked as its 16-digit parts, and a run that touches a letter (part of an identifier) is not
  a run of digits.

**High-entropy strings.** A run of 32 or more characters from ``A-Z a-z 0-9 + / _ = -`` that
has upper case letters, lower case letters and digits, a Shannon entropy of at least 3.8 bits
per character, and at most 60% of its characters in word-like stretches (``[a-z]{4,}``,
``[A-Z][a-z]{3,}``, ``[A-Z]{5,}``). Words never reach 32 characters, long identifiers and paths
are mostly word-like (``AbstractSingletonProxyFactoryBean``, ``/Users/Alice/Documents/…``),
random keys are not. Judgment calls, documented here:

- strings of hex digits only (git commit ids, SHA-256 sums, UUIDs with or without hyphens)
  are not flagged as high-entropy: they are usually hashes and ids, not secrets; a hex key is
  still flagged after ``api_key=``, ``token:`` and the like;
- inside a URL, only the ``user:password@`` part, query values named like keys and the
  well-known prefixes are flagged: document ids, commit hashes and video ids in URL paths are
  not secrets;
- dates, times, phone numbers, version numbers, IP addresses and UUIDs are not flagged.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from store import messages as msg
from store.checks.secret_patterns import (
    BEARER_RE,
    CANDIDATE_RE,
    DIGIT_RUN_RE,
    HEX_RE,
    JWT_RE,
    KEY_ASSIGN_RE,
    MAX_WORDY_SHARE,
    MIN_ENTROPY_BITS,
    MIN_ENTROPY_LENGTH,
    PASSWORD_RE,
    PLACEHOLDER_RE,
    PLACEHOLDER_WORDS,
    PREFIXED_RE,
    PRIVATE_KEY_RE,
    SECRET_PARAM_RE,
    STRONG_KEYWORDS,
    TRAILING,
    URL_PARAM_RE,
    URL_RE,
    URL_USERINFO_RE,
    WORDY_RE,
)
from store.messages import CARD_NUMBER, KINDS, PASSWORD, PRIVATE_KEY, TOKEN, describe_kinds
from store.model import Memory, Scope

__all__ = [
    "CARD_NUMBER",
    "KINDS",
    "PASSWORD",
    "PRIVATE_KEY",
    "TOKEN",
    "SecretHit",
    "SecretWarning",
    "describe_kinds",
    "find_secrets",
    "luhn_ok",
    "new_secret_kinds",
    "secret_kinds",
    "secret_warnings",
]


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One stretch of text that looks like a secret: its kind (in words) and where it is."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class SecretWarning:
    """A saved memory whose title or text looks like it contains a secret (still sent)."""

    memory: Memory
    kinds: tuple[str, ...]
    message: str


def secret_kinds(*texts: str) -> tuple[str, ...]:
    """The kinds of secret found in any of the texts, in ``KINDS`` order."""
    found = {kind for text in texts for kind in _kinds_in(text)}
    return tuple(k for k in KINDS if k in found)


# Memoised: the warnings are found again after any change, and the texts mostly have not changed.
@lru_cache(maxsize=1 << 16)
def _kinds_in(text: str) -> frozenset[str]:
    return frozenset(hit.kind for hit in find_secrets(text))


def luhn_ok(digits: str) -> bool:
    """Whether a string of digits passes the Luhn check."""
    total = 0
    for i, char in enumerate(reversed(digits)):
        d = ord(char) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _entropy(text: str) -> float:
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def _looks_random(token: str) -> bool:
    core = token.rstrip("=")
    if len(core) < MIN_ENTROPY_LENGTH or HEX_RE.match(core):
        return False
    if not (any(c.isupper() for c in core) and any(c.islower() for c in core)):
        return False
    if not any(c.isdigit() for c in core):
        return False
    if _entropy(core) < MIN_ENTROPY_BITS:
        return False
    wordy = sum(len(m) for m in WORDY_RE.findall(core))
    return wordy <= MAX_WORDY_SHARE * len(core)


def _is_placeholder(value: str) -> bool:
    return bool(PLACEHOLDER_RE.fullmatch(value)) or value.casefold() in PLACEHOLDER_WORDS


def _key_value_ok(value: str) -> bool:
    """A value after ``api_key=``/``token:``: 12+ key characters, not a word or placeholder."""
    value = value.rstrip(TRAILING)
    if len(value) < 12 or _is_placeholder(value) or " " in value:
        return False
    return any(c.isdigit() for c in value) or _looks_random(value) or not value.isalpha()


class _Hits:
    """Collects hits; a later (lower priority) hit that overlaps a kept one is dropped."""

    def __init__(self) -> None:
        self.hits: list[SecretHit] = []

    def add(self, kind: str, start: int, end: int) -> None:
        if end <= start:
            return
        if any(h.start < end and start < h.end for h in self.hits):
            return
        self.hits.append(SecretHit(kind, start, end))

    def covers(self, start: int, end: int) -> bool:
        return any(h.start < end and start < h.end for h in self.hits)


def _password_value(m: re.Match[str], text: str) -> tuple[int, int] | None:
    """The span of a password value this match shows, or None when it reads as prose."""
    keyword = m.group("kw").casefold()
    if m.group("is") is not None and keyword not in STRONG_KEYWORDS and keyword != "pin":
        return None  # "the pass is valid"
    group = "dq" if m.group("dq") is not None else "sq" if m.group("sq") is not None else None
    if group is not None:
        quoted = m.group(group).strip()
        return None if not quoted or _is_placeholder(quoted) else (m.start(group), m.end(group))
    value = m.group("plain")
    if value is None or _is_placeholder(value):
        return None  # <your password>, ${DB_PASSWORD}
    return _plain_password(m, text, keyword)


def _plain_password(m: re.Match[str], text: str, keyword: str) -> tuple[int, int] | None:
    """The span of an unquoted password value, or None when it reads as prose."""
    value, start = m.group("plain"), m.start("plain")
    stripped = value.rstrip(TRAILING) or value
    span = (start, start + len(stripped))
    if _not_a_password(keyword, stripped):
        return None
    if keyword == "pin":
        return span if stripped.isdigit() and 4 <= len(stripped) <= 12 else None
    if any(not c.isalpha() for c in stripped) or any(c.isupper() for c in stripped[1:]):
        # A symbol, a digit or an inner capital: not a word.
        return span if len(stripped) >= 3 or any(c.isdigit() for c in stripped) else None
    if keyword not in STRONG_KEYWORDS:
        return None  # "pass: in the wallet", "pw: see above"
    if m.group("assign") in ("=", ":"):
        return span if len(stripped) >= 3 else None  # password=hunter, in code style
    # A plain word: a password when it ends the sentence, prose when more words follow.
    after = text[start + len(value) :].lstrip(" \t")
    ends_clause = value != stripped or not after or after[0] in "\n\r" + TRAILING
    return span if ends_clause and len(stripped) >= 3 else None


def _not_a_password(keyword: str, value: str) -> bool:
    """A placeholder, a web address, or the working directory (``PWD=/home/me``)."""
    if _is_placeholder(value) or value.startswith(("http://", "https://")):
        return True
    return keyword == "pwd" and value.startswith(("/", "~"))


def _touches_word(text: str, at: int, beyond: int) -> bool:
    """Whether a digit run's neighbour at ``at`` makes it part of a word or a decimal number."""
    if not 0 <= at < len(text):
        return False
    char = text[at]
    if char.isalpha() or char == "_":
        return True
    return char in ".," and 0 <= beyond < len(text) and text[beyond].isdigit()


def find_secrets(text: str) -> list[SecretHit]:
    """Every stretch of ``text`` that looks like a secret, in text order (never overlapping)."""
    hits = _Hits()
    urls = [(m.start(), m.end()) for m in URL_RE.finditer(text)]
    for find in _FINDERS:  # by priority: a later hit that overlaps a kept one is dropped
        find(text, urls, hits)
    return sorted(hits.hits, key=lambda h: (h.start, h.end))


Spans = list[tuple[int, int]]


def _in_any(spans: Spans, at: int) -> bool:
    return any(s <= at < e for s, e in spans)


def _find_shaped(text: str, urls: Spans, hits: _Hits) -> None:
    """Private keys, then tokens with a known prefix, then JWTs (anywhere, URLs too)."""
    for m in PRIVATE_KEY_RE.finditer(text):
        hits.add(PRIVATE_KEY, m.start(), m.end())
    for pattern in (PREFIXED_RE, JWT_RE):
        for m in pattern.finditer(text):
            hits.add(TOKEN, m.start(), m.end())


def _find_in_urls(text: str, urls: Spans, hits: _Hits) -> None:
    """The ``user:password@`` part of a URL, and its query values named like keys."""
    for start, end in urls:
        url = text[start:end]
        info = URL_USERINFO_RE.search(url)
        if info is not None and not _is_placeholder(info.group("pw")):
            hits.add(PASSWORD, start + info.start("pw"), start + info.end("pw"))
        for p in URL_PARAM_RE.finditer(url):
            value = p.group("value")
            if SECRET_PARAM_RE.match(p.group("name")) and len(value) >= 8 and not _is_placeholder(value):
                name = p.group("name").casefold()
                kind = PASSWORD if name.endswith(("password", "passwd", "pwd", "pass")) else TOKEN
                hits.add(kind, start + p.start("value"), start + p.end("value"))


def _find_passwords(text: str, urls: Spans, hits: _Hits) -> None:
    """``password: …`` and the like, outside URLs."""
    for m in PASSWORD_RE.finditer(text):
        if _in_any(urls, m.start("kw")):
            continue
        span = _password_value(m, text)
        if span is not None:
            hits.add(PASSWORD, *span)


def _find_key_values(text: str, urls: Spans, hits: _Hits) -> None:
    """``api_key=…``, ``token: …``, ``Bearer …`` with a value that is not a word, outside URLs."""
    for pattern in (KEY_ASSIGN_RE, BEARER_RE):
        for m in pattern.finditer(text):
            group = next(g for g in ("dq", "sq", "plain") if g in m.groupdict() and m.group(g) is not None)
            if _in_any(urls, m.start()):
                continue
            value = m.group(group)
            if _key_value_ok(value):
                hits.add(TOKEN, m.start(group), m.start(group) + len(value.rstrip(TRAILING)))


def _find_cards(text: str, urls: Spans, hits: _Hits) -> None:
    """Whole runs of 13 to 19 digits that pass the Luhn check."""
    for m in DIGIT_RUN_RE.finditer(text):
        start, end = m.span()
        if _touches_word(text, start - 1, start - 2) or _touches_word(text, end, end + 1):
            continue
        digits = m.group().replace(" ", "").replace("-", "")
        if 13 <= len(digits) <= 19 and luhn_ok(digits):
            hits.add(CARD_NUMBER, start, end)


def _find_random(text: str, urls: Spans, hits: _Hits) -> None:
    """Long high-entropy strings no other finder took, outside URLs."""
    for m in CANDIDATE_RE.finditer(text):
        if _in_any(urls, m.start()) or hits.covers(m.start(), m.end()):
            continue
        if _looks_random(m.group()):
            hits.add(TOKEN, m.start(), m.end())


_FINDERS = (_find_shaped, _find_in_urls, _find_passwords, _find_key_values, _find_cards, _find_random)


def new_secret_kinds(after: tuple[str, ...], before: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The kinds of secret in the texts ``after`` that ``before`` does not already have.

    A hit counts as already there when ``before`` has a hit of the same kind with the same
    characters, so editing a memory that already holds a secret is not blocked by it.
    """
    old = {hit for t in before or () for hit in _hits_in(t)}
    found = {kind for t in after for kind, seen in _hits_in(t) if (kind, seen) not in old}
    return tuple(k for k in KINDS if k in found)


@lru_cache(maxsize=256)
def _hits_in(text: str) -> frozenset[tuple[str, str]]:
    """Each hit in ``text`` by its kind and characters: a change looks at the text it replaces,
    which is the text the change before it wrote."""
    return frozenset((h.kind, text[h.start : h.end]) for h in find_secrets(text))


def secret_warnings(memories_by_scope: Mapping[Scope, Iterable[Memory]]) -> list[SecretWarning]:
    """One warning per memory whose title or text looks like it contains a secret."""
    found: list[SecretWarning] = []
    for memories in memories_by_scope.values():
        for memory in memories:
            kinds = secret_kinds(memory.title, memory.text)
            if kinds:
                template = msg.SECRET_WARNING_ON if memory.enabled else msg.SECRET_WARNING_OFF
                found.append(SecretWarning(memory, kinds, template.format(what=describe_kinds(kinds))))
    return sorted(found, key=lambda w: (w.memory.scope is not None, w.memory.scope or "", w.memory.id))
