"""The patterns ``store.secrets`` looks for, and the words and shapes it lets pass (see there
for what is flagged and why). Pure data.

Each pattern is compiled the first time it is used: every start of the app imports the store,
and compiling them all took a few milliseconds of it, before any text was checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class LazyPattern:
    """A regular expression compiled on its first use (the methods ``store.secrets`` calls)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern."""
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled.match(text)

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.compiled.fullmatch(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text)

    def findall(self, text: str) -> list[str]:
        return self.compiled.findall(text)


# --- private keys ----------------------------------------------------------------------------

PRIVATE_KEY_RE = LazyPattern(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
    re.DOTALL,
)

# --- tokens with a known shape ---------------------------------------------------------------

_B = r"(?<![A-Za-z0-9_\-])"  # the token starts here, not inside a longer word
_E = r"(?![A-Za-z0-9_\-])"
PREFIXED_RE = LazyPattern(
    "|".join(
        [
            _B + r"sk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_\-]{20,}" + _E,  # OpenAI, Anthropic (sk-ant-…)
            _B + r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}" + _E,  # Stripe secret / restricted
            _B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E,  # GitHub
            _B + r"github_pat_[A-Za-z0-9_]{22,}" + _E,
            _B + r"glpat-[A-Za-z0-9_\-]{20,}" + _E,  # GitLab
            _B + r"xox[abprs]-[A-Za-z0-9\-]{10,}" + _E,  # Slack
            _B + r"xapp-[A-Za-z0-9\-]{10,}" + _E,
            r"(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])",  # AWS access key id
            _B + r"AIza[0-9A-Za-z_\-]{35}" + _E,  # Google API key
            _B + r"hf_[A-Za-z0-9]{30,}" + _E,  # Hugging Face
            _B + r"npm_[A-Za-z0-9]{36}" + _E,
        ]
    )
)
JWT_RE = LazyPattern(_B + r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*" + _E)

_KEY_WORDS = (
    r"api[_ \-]?key|apikey|access[_ \-]?key(?:[_ \-]?id)?|secret[_ \-]?(?:access[_ \-]?)?key|"
    r"client[_ \-]?secret|secret|access[_ \-]?token|auth[_ \-]?token|refresh[_ \-]?token|token"
)
KEY_ASSIGN_RE = LazyPattern(
    r"(?<![A-Za-z])(?:" + _KEY_WORDS + r")(?![A-Za-z])\s*[:=]\s*"
    r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<plain>[A-Za-z0-9_\-+/=.~]+))",
    re.IGNORECASE,
)
BEARER_RE = LazyPattern(r"(?<![A-Za-z])bearer\s+(?P<plain>[A-Za-z0-9_\-+/=.~]+)", re.IGNORECASE)

# --- URLs ------------------------------------------------------------------------------------

URL_RE = LazyPattern(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9+.\-]*://[^\s<>\"'`]+")
URL_USERINFO_RE = LazyPattern(r"://(?P<user>[^\s/:@?#]*):(?P<pw>[^\s/@?#]+)@")
URL_PARAM_RE = LazyPattern(r"[?&#;](?P<name>[A-Za-z0-9_.\-]+)=(?P<value>[^&#\s]*)")
SECRET_PARAM_RE = LazyPattern(
    r"(?:.*[_\-.])?(?:token|access_token|id_token|refresh_token|api_?key|key|secret|client_secret|"
    r"sig|signature|password|passwd|pwd|pass|auth|credential|credentials|x-amz-signature|"
    r"x-amz-credential|x-amz-security-token)\Z",
    re.IGNORECASE,
)

# --- passwords -------------------------------------------------------------------------------

_VALUE = r"(?:\"(?P<dq>[^\"\n]+)\"|'(?P<sq>[^'\n]+)'|(?P<ph><[^<>\n]*>)|(?P<plain>\S+))"
PASSWORD_RE = LazyPattern(
    r"(?<![A-Za-z])(?P<kw>password|passwd|passphrase|passcode|pwd|pass|pw|pin)(?![A-Za-z])"
    r"(?P<for>\s+(?:for|to|of|on|at)\s+[^:=\n]{1,40}?)?"
    r"(?:(?P<assign>\s*[:=]\s*)|(?P<is>\s+(?:is|was)\s+))" + _VALUE,
    re.IGNORECASE,
)
STRONG_KEYWORDS = {"password", "passwd", "passphrase", "passcode", "pwd"}
PLACEHOLDER_WORDS = {
    "none", "null", "nil", "empty", "redacted", "hidden", "removed", "unknown", "unset", "n/a",
    "na", "tbd", "todo", "required", "optional", "same", "see", "ask", "changed", "reset",
    "secret", "password", "yes", "no", "true", "false", "set", "not", "the", "a", "an", "my",
    "your", "their", "our", "his", "her", "its", "in", "on", "at", "from", "stored", "saved",
    "kept", "managed", "generated", "random", "blank",
}  # fmt: skip
PLACEHOLDER_RE = LazyPattern(
    r"[*xX•·.\-_#?]+|<[^<>]*>|\[[^\[\]]*\]|\{[^{}]*\}|\$\{[^{}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|"
    r"%\(?[A-Za-z_]*\)?s|\{\{[^{}]*\}\}"
)
TRAILING = ".,;:)]}'\""  # sentence punctuation after a value (not ! or ?: passwords end so)

# --- card numbers ----------------------------------------------------------------------------

DIGIT_RUN_RE = LazyPattern(r"\d+(?:[ \-]\d+)*")

# --- high entropy ----------------------------------------------------------------------------

CANDIDATE_RE = LazyPattern(r"[A-Za-z0-9+/_=\-]{32,}")
WORDY_RE = LazyPattern(r"[a-z]{4,}|[A-Z][a-z]{3,}|[A-Z]{5,}")
HEX_RE = LazyPattern(r"[0-9a-fA-F\-]+\Z")
MIN_ENTROPY_LENGTH = 32
MIN_ENTROPY_BITS = 3.8
MAX_WORDY_SHARE = 0.6
