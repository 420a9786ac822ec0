"""Secret-looking text: what is flagged, what ordinary memory text is not, and the store's refusals."""

from __future__ import annotations

import base64
import random

import pytest

from store import GLOBAL, MemoryStore, StoreError
from store import messages as msg
from store.checks.secrets import (
    CARD_NUMBER,
    PASSWORD,
    PRIVATE_KEY,
    TOKEN,
    describe_kinds,
    find_secrets,
    luhn_ok,
    new_secret_kinds,
)


def found(text: str) -> list[tuple[str, str]]:
    return [(h.kind, text[h.start : h.end]) for h in find_secrets(text)]


def kinds(text: str) -> set[str]:
    return {h.kind for h in find_secrets(text)}


# --- passwords -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("password: hunter2", "hunter2"),
        ("Password: Hunter", "Hunter"),  # a plain word that ends the line
        ("password=abc", "abc"),
        ("DB_PASSWORD=s3cr3t!", "s3cr3t!"),
        ("pwd=letmein", "letmein"),
        ("passwd: Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("pass: 9x!Lq", "9x!Lq"),
        ("pw: abc123", "abc123"),
        ("PIN: 4821", "4821"),
        ("my PIN is 4821", "4821"),
        ("My wifi password is sunshine.", "sunshine"),
        ("The router password is Xk9-pq2 and the name is home", "Xk9-pq2"),
        ("password for the NAS: correcthorse", "correcthorse"),
        ('password: "two words"', "two words"),
        ("passphrase = 'open sesame'", "open sesame"),
        ("The passcode was 7731.", "7731"),
    ],
)
def test_passwords(text: str, value: str) -> None:
    assert found(text) == [(PASSWORD, value)]


@pytest.mark.parametrize(
    "text",
    [
        "Password: stored in the keychain",
        "The password is the same as my email",
        "The password is on the sticker under the router",
        "Passwords: use 1Password for everything",
        "Boarding pass: in the wallet app",
        "Prefers a password manager; never write passwords down.",
        "password: ***",
        "password: <your password>",
        "password=${DB_PASSWORD}",
        "password: $DB_PASS",
        "password: none",
        "password: TBD",
        "PWD=/home/me/projects",
        "run pwd: it prints the folder",
        "Pass the salt",
        "Compass: north",
        "pin: the tab to the left",
        "Password reset: ask IT",
        "bypass: true",
    ],
)
def test_not_passwords(text: str) -> None:
    assert found(text) == []


# --- API keys and tokens -------------------------------------------------------------------


@pytest.mark.parametrize(
    "token",
    [
        "sk-" + "a1B2c3D4e5F6g7H8i9J0k1L2",
        "sk-proj-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn",
        "sk-ant-api03-" + "abcdefghij1234567890ABCD",
        "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
        "ghp_" + "A" * 20 + "b1" * 8,
        "gho_" + "16C7e42F292c6912E7710c838347Ae178B4a",
        "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnop",
        "glpat-" + "xxxxXXXX1234yyyyZZZZ",
        "xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxp-" + "1234-5678-abcd",
        "AKIA" + "IOSFODNN7EXAMPLE",
        "AIza" + "SyA1234567890abcdefghijklmnopqrstuv",
        "hf_" + "abcdefghijklmnopqrstuvwxyz123456",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc123def",
        "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.",  # an unsigned JWT
    ],
)
def test_known_token_shapes(token: str) -> None:
    text = f"Use {token} for the API."
    assert found(text) == [(TOKEN, token)]


def test_prefix_inside_a_word_is_not_a_token() -> None:
    assert found("task-abcdefghijklmnopqrstuvwxyz is a branch name") == []
    assert found("desk-organiser-ideas-for-the-home-office is a note") == []
    assert found("AKIA1234") == []  # too short for an AWS key id


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("api_key = 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
        ("API key: abcd-1234-efgh-5678", "abcd-1234-efgh-5678"),
        ('token: "tok_12345678abcd"', "tok_12345678abcd"),
        ("client_secret=Zm9vYmFyYmF6cXV4MTIz", "Zm9vYmFyYmF6cXV4MTIz"),
        ("Authorization: Bearer abc123def456ghi789jkl", "abc123def456ghi789jkl"),
    ],
)
def test_key_assignments(text: str, value: str) -> None:
    assert found(text) == [(TOKEN, value)]


@pytest.mark.parametrize(
    "text",
    [
        "token: the one from the dashboard",
        "API key: ask Sam",
        "secret: keep it short",
        "The token expires after an hour.",
        "api_key=<your key here>",
    ],
)
def test_key_words_without_a_key(text: str) -> None:
    assert found(text) == []


def test_high_entropy_strings() -> None:
    b64 = "FJM8V76sXTDCMnMPdqx9+3nNb42nWMTkZFNUrjqf"
    assert found(f"x {b64} y") == [(TOKEN, b64)]
    rng = random.Random(11)
    tokens = [base64.urlsafe_b64encode(rng.randbytes(32)).decode().rstrip("=") for _ in range(300)]
    flagged = sum(found(f"the deploy key {t} here") == [(TOKEN, t)] for t in tokens)
    assert flagged >= 290  # random keys: a few lack a digit or a capital, or look wordy


def test_high_entropy_needs_length_and_mixture() -> None:
    assert found("Ab1" * 10) == []  # 30 characters: too short
    assert found("aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF") != []  # 32 characters, mixed
    assert found("abcdefghijklmnopqrstuvwxyz0123456789") == []  # no capitals
    assert found("ThisIsAVeryLongCamelCaseIdentifierName2024") == []  # word-like


# --- private keys --------------------------------------------------------------------------


def test_private_key_blocks() -> None:
    block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----"
    assert found(f"my key:\n{block}\nthanks") == [(PRIVATE_KEY, block)]
    openssh = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n"
    text = f"key {openssh}"
    assert found(text) == [(PRIVATE_KEY, openssh)]  # no END line: to the end of the text
    pgp = "-----BEGIN PGP PRIVATE KEY BLOCK-----\nxyz\n-----END PGP PRIVATE KEY BLOCK-----"
    assert found(pgp) == [(PRIVATE_KEY, pgp)]
    assert found("-----BEGIN PRIVATE KEY-----") == [(PRIVATE_KEY, "-----BEGIN PRIVATE KEY-----")]


def test_public_keys_and_certificates_are_not_private() -> None:
    assert found("-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----") == []
    assert found("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----") == []
    assert found("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 alice@laptop") == []


# --- card numbers --------------------------------------------------------------------------


def test_luhn() -> None:
    assert luhn_ok("4111111111111111")
    assert luhn_ok("79927398713")
    assert not luhn_ok("4111111111111112")


@pytest.mark.parametrize(
    "card",
    [
        "4111111111111111",
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111 1111-1111 1111",
        "378282246310005",  # Amex, 15 digits
        "3782 822463 10005",
        "6011111111111117",
        "4222222222222",  # 13 digits
        "6304000000000000018",  # 19 digits (Maestro test number, Luhn-valid)
    ],
)
def test_card_numbers(card: str) -> None:
    assert luhn_ok(card.replace(" ", "").replace("-", ""))
    assert found(f"Card {card}, exp 12/29") == [(CARD_NUMBER, card)]


@pytest.mark.parametrize(
    "text",
    [
        "Card 4111 1111 1111 1112",  # fails Luhn
        "4111 1111 1111 1111 2024",  # a 20-digit run is not checked as its 16-digit parts
        "41111111111111111111",  # 20 digits in one piece
        "4111  1111  1111  1111",  # double spaces: four short runs, none checked
        "4111111111",  # too short
        "order A4111111111111111",  # part of an identifier
        "pi is 3.4111111111111111",  # decimals of a number
    ],
)
def test_not_card_numbers(text: str) -> None:
    assert CARD_NUMBER not in kinds(text)


# --- URLs ----------------------------------------------------------------------------------


def test_urls() -> None:
    assert found("https://alice:s3cret@example.com/x") == [(PASSWORD, "s3cret")]
    assert found("https://api.example.com/v1?api_key=abcd1234efgh5678&page=2") == [
        (TOKEN, "abcd1234efgh5678")
    ]
    assert found("see https://x.example/cb?access_token=ya29.a0AfH6SMB") == [(TOKEN, "ya29.a0AfH6SMB")]
    assert found("https://db.example/login?password=hunter22") == [(PASSWORD, "hunter22")]


def test_url_paths_and_hashes_are_not_secrets() -> None:
    assert (
        found(
            "The spec: https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit"
        )
        == []
    )
    assert found("Fixed in https://github.com/org/repo/commit/f7ccadd1d6974e4c61efee42c55e89288d108469") == []
    assert found("Watch https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42") == []
    assert found("https://example.com/search?q=password&page=2") == []
    assert found("https://alice@example.com/") == []
    assert found("https://user:<password>@example.com/") == []


# --- ordinary memory text ------------------------------------------------------------------

ORDINARY = [
    "Prefers answers in British English.",
    "Birthday is 1984-03-15; anniversary 2012-06-30.",
    "Meeting every Tuesday at 10:30 (UTC+2), room 4.12.",
    "Phone: +1 (555) 123-4567, office +44 20 7946 0958.",
    "Phone +1 555 123 4567 on weekdays",
    "Uses Python 3.12.1, Node 20.11.0 and Postgres 16.2.",
    "Project id 550e8400-e29b-41d4-a716-446655440000 in the tracker.",
    "UUID without dashes: 550e8400e29b41d4a716446655440000",
    "Last deploy was commit f7ccadd1d6974e4c61efee42c55e89288d108469.",
    "SHA-256 of the release: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Server at 192.168.1.10, port 8080; IPv6 fe80::1ff:fe23:4567:890a.",
    "Invoice number 2024-000123, amount 1 234,56 EUR.",
    "ISBN 978-0-306-40615-7 is the book she likes.",
    "Works on /Users/Alice/Documents/Projects2024/MyApp and src/components/UserProfileCard/index.test.tsx",
    "The class is AbstractSingletonProxyFactoryBean2024Config.",
    "Call me at 555 0100 or email alice@example.com",
    "Likes the token economy talk; keys are on the hook by the door.",
    "Always use `uv run pytest -x` before pushing.",
    "Timestamp 2026-11-29T21:52:34.123Z is when it started.",
    "Her pass is valid until June.",
    "The secret to good bread is time.",
    "Uses a PIN pad at the door.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_memory_text_is_not_flagged(text: str) -> None:
    assert found(text) == []


# --- wording -------------------------------------------------------------------------------


def test_describe_kinds() -> None:
    assert describe_kinds([PASSWORD]) == "a password"
    assert describe_kinds([TOKEN]) == "an API key or token"
    assert describe_kinds([CARD_NUMBER, PASSWORD]) == "a password and a card number"
    assert describe_kinds([PRIVATE_KEY, TOKEN, PASSWORD]) == (
        "a password, an API key or token and a private key"
    )


def test_new_secret_kinds_ignores_secrets_already_there() -> None:
    before = ("Wifi", "password: hunter2")
    assert new_secret_kinds(("Wifi", "password: hunter2 (home)"), before) == ()
    assert new_secret_kinds(("Wifi", "password: hunter3"), before) == (PASSWORD,)
    assert new_secret_kinds(("Wifi", "card 4111 1111 1111 1111"), before) == (CARD_NUMBER,)


def test_hits_never_overlap_and_are_in_order() -> None:
    text = "api_key=sk-abcdefghijklmnopqrstuvwxyz12 and password: hunter2 and 4111111111111111"
    hits = find_secrets(text)
    assert [(h.kind, text[h.start : h.end]) for h in hits] == [
        (TOKEN, "sk-abcdefghijklmnopqrstuvwxyz12"),
        (PASSWORD, "hunter2"),
        (CARD_NUMBER, "4111111111111111"),
    ]


# --- the store -----------------------------------------------------------------------------

LOOKS_PASSWORD = (
    "This text looks like it contains a password; it would be sent to the model with every message. "
    "Save it anyway only if you are sure."
)


def test_create_refuses_secret_text(store: MemoryStore) -> None:
    with pytest.raises(StoreError) as info:
        store.create(GLOBAL, "Wifi", "The wifi password is Xk9-pq2.")
    assert str(info.value) == LOOKS_PASSWORD
    assert store.memories(GLOBAL) == []
    assert not (store.root / "global").exists() or list((store.root / "global").iterdir()) == []


def test_create_refuses_secret_in_the_title(store: MemoryStore) -> None:
    with pytest.raises(StoreError) as info:
        store.create(GLOBAL, "card 4111 1111 1111 1111", "Visa")
    assert str(info.value) == msg.LOOKS_SECRET.format(what="a card number")


def test_create_with_allow_secret_saves(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Wifi", "The wifi password is Xk9-pq2.", allow_secret=True)
    assert store.get(GLOBAL, memory.id).text == "The wifi password is Xk9-pq2."


def test_message_names_every_kind(store: MemoryStore) -> None:
    with pytest.raises(StoreError) as info:
        store.create(GLOBAL, "Keys", "password: hunter2, key AKIAIOSFODNN7EXAMPLE")
    assert str(info.value) == (
        "This text looks like it contains a password and an API key or token; it would be sent "
        "to the model with every message. Save it anyway only if you are sure."
    )


def test_change_refuses_new_secret_text(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Wifi", "Home network is called Oda")
    with pytest.raises(StoreError) as info:
        store.change(GLOBAL, memory.id, text="Home network Oda, password: hunter2")
    assert str(info.value) == LOOKS_PASSWORD
    assert store.get(GLOBAL, memory.id).text == "Home network is called Oda"
    assert len(store.versions(GLOBAL, memory.id)) == 1
    changed = store.change(GLOBAL, memory.id, text="Home network Oda, password: hunter2", allow_secret=True)
    assert changed.changed and changed.memory.text == "Home network Oda, password: hunter2"


def test_change_of_a_memory_that_already_holds_a_secret(store: MemoryStore) -> None:
    memory = store.create(GLOBAL, "Wifi", "password: hunter2", allow_secret=True)
    # the secret was already there: a title change is not blocked by it
    assert store.change(GLOBAL, memory.id, title="Home wifi").changed
    assert store.change(GLOBAL, memory.id, text="password: hunter2 (upstairs)").changed
    with pytest.raises(StoreError):
        store.change(GLOBAL, memory.id, text="password: hunter3")


def test_other_refusals_come_first(store: MemoryStore) -> None:
    with pytest.raises(StoreError) as info:
        store.create(GLOBAL, "", "password: hunter2")
    assert str(info.value) == msg.NEEDS_TITLE


def test_secret_warnings(store: MemoryStore) -> None:
    plain = store.create(GLOBAL, "Tea", "Likes green tea")
    wifi = store.create("proj", "Wifi", "password: hunter2", allow_secret=True)
    aws = store.create(GLOBAL, "AWS", "AKIAIOSFODNN7EXAMPLE", allow_secret=True, enabled=False)
    warnings = store.secret_warnings()
    assert [(w.memory.id, w.kinds) for w in warnings] == sorted(
        [(aws.id, (TOKEN,)), (wifi.id, (PASSWORD,))], key=lambda x: (x[0] == wifi.id, x[0])
    )
    by_id = {w.memory.id: w for w in warnings}
    assert by_id[wifi.id].message == (
        "This memory looks like it contains a password; it is sent to the model with every message."
    )
    assert by_id[aws.id].message == msg.SECRET_WARNING_OFF.format(what="an API key or token")
    assert plain.id not in by_id
    # warnings are still sent
    assert "hunter2" in store.chat_memory("proj").text
    store.change("proj", wifi.id, text="password is in the manager")
    assert [w.memory.id for w in store.secret_warnings()] == [aws.id]
