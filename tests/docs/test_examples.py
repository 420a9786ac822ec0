"""Every example in the README and the docs runs, against a fresh sample store, and prints what it
shows. A failure names the page and the line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.doc_examples import (
    PROJECT,
    Example,
    commands_and_outputs,
    examples,
    make_example_home,
    shown_matches,
)

EXAMPLES = examples()


def run(command: str, home: Path, root: Path) -> subprocess.CompletedProcess[str]:
    """One command as a person's shell runs it, in ``~/code/my-project``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("ODA_", "XDG_"))}
    environ.update(
        HOME=str(home),
        ODA_HOME=str(root),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{environ.get('PATH', '')}",
        PYTHONPATH=str(PROJECT),
        COLUMNS="200",
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
        TMPDIR=str(home),
    )
    return subprocess.run(
        ["bash", "-c", command],
        cwd=home / "code" / "my-project",
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_pages_have_examples_and_few_are_not_run() -> None:
    not_run = [example for example in EXAMPLES if example.not_run]
    assert len(EXAMPLES) >= 15
    assert len(not_run) * 4 < len(EXAMPLES), [str(example) for example in not_run]


def test_contributing_states_how_many_examples_run() -> None:
    ran = sum(1 for example in EXAMPLES if not example.not_run)
    text = (PROJECT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert f"Today {ran} blocks are run" in text


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_example_runs_and_prints_what_it_shows(example: Example, tmp_path: Path) -> None:
    if example.not_run:
        pytest.skip(f"{example}: not run: {example.not_run}")
    home = tmp_path / "home"
    root = make_example_home(home)
    if not example.shows_output:
        done = run(example.body, home, root)
        assert done.returncode == example.exit_code, f"{example}: exit {done.returncode}\n{done.stdout}"
        return
    pairs = commands_and_outputs(example.body)
    for number, (command, shown) in enumerate(pairs, start=1):
        done = run(command, home, root)
        expected_code = example.exit_code if number == len(pairs) else 0
        assert done.returncode == expected_code, (
            f"{example}: {command}: exit {done.returncode}\n{done.stdout}"
        )
        assert shown_matches(shown, done.stdout), f"{example}: {command} printed:\n{done.stdout}"
