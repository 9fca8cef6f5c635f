"""The referee's first commands, as the README shows them, run as written (a README
example that failed: three suits to `score`, ten tiles to `waits`)."""

import re
import shlex
from pathlib import Path

import pytest

from controller.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"
EXAMPLES = re.findall(r"`(mjtable (?:score|waits) [^`]+)`", README.read_text())


def test_the_readme_shows_examples():
    assert {e.split()[1] for e in EXAMPLES} == {"score", "waits"}


@pytest.mark.parametrize("command", EXAMPLES)
def test_a_readme_example_runs(command, capsys):
    assert main(shlex.split(command)[1:]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "not a win" not in out and out.strip()
