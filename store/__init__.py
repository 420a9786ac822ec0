"""The Oda memory file store: read and write memory files exactly as Oda's spec says.

Pure Python, no UI: a chat runtime can import it as it is.

One ``MemoryStore`` may be called from several threads: its picture of the disk is guarded by
``DiskSync.picture_lock``, and every change holds the store-wide ``flock`` on ``<root>/.lock``
(``DiskSync.disk_lock``) against every other writer. A caller that needs several calls to see
one state adds its own lock around them, as the app's session does (``oda_tui.session`` says
which of the three locks protects what).
"""

from store.checks.chat import build_chat_memory, change_note, entry_tokens, estimate_tokens
from store.checks.fingerprint import fingerprint, memory_fingerprint
from store.checks.search import Haystacks, matches, query_words
from store.checks.secrets import SecretHit, SecretWarning
from store.disk.atomic import write_atomic
from store.disk.config_files import (
    FileRefused,
    load_json_config,
    load_yaml_config,
    parse_json_config,
    parse_yaml_config,
    read_config_file,
)
from store.disk.layout import GLOBAL_DIR, SETTINGS_FILE, WORKSPACES_DIR, is_valid_id, is_valid_key
from store.disk.safe_io import TooLarge, Unsafe, read_head, read_regular
from store.errors import (
    ChangedSinceRead,
    CouldNotChange,
    LooksSecret,
    MissingField,
    NoSuchVersion,
    NothingToChange,
    NothingToUndo,
    OverChatLimit,
    StoreError,
    TooLong,
    UnknownMemory,
)
from store.format.fields import normalize_text, normalize_title
from store.format.timestamps import format_moment, format_timestamp, parse_moment, parse_timestamp
from store.limits import Limits
from store.memory_store import MemoryStore
from store.messages import describe_kinds
from store.model import (
    GLOBAL,
    Change,
    ChatEntry,
    ChatMemory,
    Deleted,
    Ignored,
    Memory,
    Problem,
    ReviewItem,
    Scope,
    UnreadableFolder,
    Version,
    scope_label,
)
from store.read.followed import ChangeFeed
from store.read.watch_list import changes_folders, folders_to_watch

__all__ = [
    "Change",
    "ChangedSinceRead",
    "ChangeFeed",
    "ChatEntry",
    "ChatMemory",
    "CouldNotChange",
    "Deleted",
    "FileRefused",
    "GLOBAL",
    "GLOBAL_DIR",
    "Haystacks",
    "Ignored",
    "Limits",
    "LooksSecret",
    "Memory",
    "MemoryStore",
    "MissingField",
    "NoSuchVersion",
    "NothingToChange",
    "NothingToUndo",
    "OverChatLimit",
    "Problem",
    "ReviewItem",
    "Scope",
    "SecretHit",
    "SecretWarning",
    "SETTINGS_FILE",
    "StoreError",
    "TooLarge",
    "TooLong",
    "UnknownMemory",
    "Unsafe",
    "UnreadableFolder",
    "Version",
    "WORKSPACES_DIR",
    "build_chat_memory",
    "change_note",
    "changes_folders",
    "describe_kinds",
    "entry_tokens",
    "estimate_tokens",
    "fingerprint",
    "folders_to_watch",
    "format_moment",
    "format_timestamp",
    "parse_moment",
    "parse_timestamp",
    "is_valid_id",
    "is_valid_key",
    "load_json_config",
    "load_yaml_config",
    "matches",
    "memory_fingerprint",
    "normalize_text",
    "normalize_title",
    "parse_json_config",
    "parse_yaml_config",
    "query_words",
    "read_config_file",
    "read_head",
    "read_regular",
    "scope_label",
    "write_atomic",
]
