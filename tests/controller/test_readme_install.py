"""The README's two commands install where they run (issue 31): each makes or reuses a venv in
the project folder and runs from it, so Debian's own Python (PEP 668: its pip refuses to
install outside a venv) runs them as any other does; `.ci/run` runs both as written — the
first with Debian's /usr/bin/python3 on a clean copy (it installs from PyPI, so there and not
here: the suite reaches no network but 127.0.0.1)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_PYTHON = Path("/usr/bin/python3")


def _readme_commands() -> list[str]:
    """The README's indented command lines that start with `python3`, in order."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.startswith("    python3 ")]


def _first_and_test() -> tuple[str, str]:
    commands = _readme_commands()
    first = next(c for c in commands if c.endswith("mjtable run"))
    test = next(c for c in commands if "pytest" in c)
    return first, test


def test_both_commands_run_from_a_venv_in_the_project_folder():
    for command in _first_and_test():
        parts = [p.strip() for p in command.split("&&")]
        assert parts[0] == "python3 -m venv .venv", command
        # nothing after it reaches for the interpreter's own pip or a `mjtable` on PATH
        assert all(p.startswith(".venv/bin/") for p in parts[1:]), command


def test_ci_runs_the_readme_commands_as_written():
    first, test = _first_and_test()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in [ln.strip() for ln in ci]
    # the first command with options after `run`, in the step that runs Debian's Python
    runs = [ln.strip() for ln in ci if ln.strip().startswith(first + " ")]
    assert runs and "--deals 1 --fast" in runs[0]
    step = "\n".join(ci)
    assert 'export PATH="/usr/bin:$PATH"' in step and "journal verify" in step


def test_the_pi_is_set_up_by_one_line_from_the_same_venv():
    """README "On a Raspberry Pi" and docs/DAEMON.md show the same line: the first command's
    venv, then setup run from it with sudo (tests/controller/test_setup.py runs setup)."""
    first, _ = _first_and_test()
    pi = next(c for c in _readme_commands() if " setup" in c)
    install = first.rsplit("&&", 1)[0].strip()
    assert pi.startswith(install + " && sudo .venv/bin/mjtable setup ")
    daemon_doc = (ROOT / "docs" / "DAEMON.md").read_text(encoding="utf-8")
    assert f"\n    {pi}\n" in daemon_doc


def _debian_venv() -> bool:
    if not DEBIAN_PYTHON.exists():
        return False
    probe = [str(DEBIAN_PYTHON), "-c", "import ensurepip, venv"]
    return subprocess.run(probe, capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(
    not _debian_venv(),
    reason="no /usr/bin/python3 with its venv module (Debian: apt install python3-venv)",
)
def test_debian_python_makes_the_venv_both_commands_start_with(tmp_path):
    """The offline half of the first command with Debian's Python: the venv, with its own
    pip, where the interpreter's own pip refuses (PEP 668)."""
    env = {**os.environ, "PATH": f"/usr/bin:{os.environ.get('PATH', '')}"}
    first, _ = _first_and_test()
    make_venv = first.split("&&")[0].strip()
    subprocess.run(make_venv, shell=True, cwd=tmp_path, env=env, check=True, timeout=120)
    pip = tmp_path / ".venv" / "bin" / "pip"
    out = subprocess.run([pip, "--version"], capture_output=True, text=True, check=True, timeout=60)
    assert str(tmp_path / ".venv") in out.stdout
    # Debian 12 (its python3-pip installed): the interpreter's own pip refuses
    refused = subprocess.run(
        [DEBIAN_PYTHON, "-m", "pip", "install", "--no-index", "nothing-at-all"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode != 0
    if list(Path("/usr/lib").glob("python3*/EXTERNALLY-MANAGED")) and "No module" not in (
        refused.stderr
    ):
        assert "externally-managed" in refused.stderr
    # run again: the venv is reused, not an error
    subprocess.run(make_venv, shell=True, cwd=tmp_path, env=env, check=True, timeout=120)
