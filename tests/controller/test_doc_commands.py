"""Every `mjtable` command line the README and docs/*.md show runs as written (issue 16: the
README's first two examples were refused).

The lines are read from the documents themselves, so a new example is tested the day it is
written:

- a line of a code block or an indented block (`$ ` prompt, `# comment`, `\\` continuation and
  `cmd && cmd` handled; not a `mermaid`, `json` or `python` block), and an inline code span
  holding a whole command line, is **concrete**: it parses with the command's own argument
  parser, and the quick offline commands (score, waits, judge, journal, replay, report,
  correct, probe, `--help`) run in a folder holding the files the docs name (`table3.journal`,
  a journal of four bot deals; `deal.json`, `deal4.json`, deal records from it) and exit 0;
- an inline span with placeholders (`JOURNAL`, `N`, `[--json]`, `a|b`, `…`) is a **synopsis**,
  and a span of command names only (`mjtable bench daemon`) a **mention**: every command,
  action and option they name must exist (each of `a|b|c`), and a synopsis that leaves
  nothing out (no `...`) shows every option its command requires; a synopsis whose optional
  parts dropped leave a command line (`mjtable probe [--port PATH]`) is run as one too.

Concrete lines that are only parsed, and why (`PARSED_ONLY`): they need hardware, a broker
or minutes. A failure names the document, the line and what went wrong.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import pytest

from controller.cli import COMMANDS, command_parser, main
from rules.seats import Seat
from tests.tools.test_referee import bot_journal

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROGRAM = re.compile(
    r"^(?:\$ )?(?:sudo )?(?:(?:\.venv/bin/)?mjtable|python3? -m controller)(?= |$)"
)
# A fenced block in one of these languages holds no command lines.
NOT_SHELL = {"mermaid", "json", "python", "toml"}
# A word standing for a value: JOURNAL, N, FILE.html, SEQ:HASH, HOST:PORT, <set>, …
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(?::[A-Z]+)?(?:\.html)?$|<|…|\.\.\.")

# Commands shown but only parsed here, with the reason; the tests named run them for real.
PARSED_ONLY = {
    "run": "the table daemon plays real-time sessions (or until Ctrl-C); "
    "tests/e2e/test_run_cli.py runs it",
    "sim": "the simulator waits for a daemon on its ptys; tests/tools/test_sim.py runs it",
    "bench": "benchmarks take minutes as written; tests/tools/test_bench_*.py run them small",
    "calibrate": "needs a tile reader (or a capture); tests/tools/test_calibrate.py",
    "enroll": "needs a tile reader; tests/tools/test_enroll.py",
    "hub": "needs an MQTT broker and runs until stopped; tests/integration/test_live_hub.py",
    "setup": "needs root and sets up this machine; tests/controller/test_setup.py runs it "
    "against a scratch root",
}
# Actions of a command that are only parsed, and why.
PARSED_ONLY_ACTIONS = {
    ("hall", "export"): "reads the hall broker; tests/controller/hall/test_export.py runs it",
}
# `mjtable probe --port PATH` asks the device at PATH: only where one is plugged in.
HARDWARE_PATHS = re.compile(r"/dev/")


class Kind(Enum):
    CONCRETE = "a command line"
    SYNOPSIS = "a synopsis"
    MENTION = "a command named"


@dataclass(frozen=True)
class DocCommand:
    where: str  # "docs/REFEREE.md:157"
    text: str
    argv: tuple[str, ...]  # after the program name
    kind: Kind

    def __str__(self) -> str:
        return f"{self.where}: {self.text}"


def _spans(text: str) -> list[tuple[int, str, bool]]:
    """(line number, command text, from a block) for every command line of a document."""
    found: list[tuple[int, str, bool]] = []
    lines = text.splitlines()
    fence: str | None = None
    i = 0
    while i < len(lines):
        line, number = lines[i], i + 1
        i += 1
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip() or "sh"
            continue
        block = (fence is not None and fence not in NOT_SHELL) or (
            fence is None and line.startswith("    ") and not stripped.startswith(("-", "|"))
        )
        if fence in NOT_SHELL:
            continue
        if block:
            while stripped.endswith("\\") and i < len(lines):
                stripped = stripped[:-1] + " " + lines[i].strip()
                i += 1
            for part in stripped.split("&&"):
                command = re.sub(r"\s+#.*$", "", part.strip())
                if PROGRAM.match(command):
                    found.append((number, command, True))
            continue
        for span in re.findall(r"`([^`]+)`", line):
            span = span.replace("\\|", "|").strip()
            if PROGRAM.match(span):
                found.append((number, span, False))
    return found


def _command_names() -> set[str]:
    return {name for name, _, _ in COMMANDS}


def _kind(argv: list[str], from_block: bool) -> Kind:
    if from_block:
        return Kind.CONCRETE
    if any(PLACEHOLDER.search(t) or re.search(r"[\[\](|]", t) for t in argv):
        return Kind.SYNOPSIS
    if all(re.fullmatch(r"[a-z]+", t) for t in argv):
        return Kind.MENTION
    return Kind.CONCRETE


def _without_options(text: str) -> str:
    """A synopsis without its optional parts: `mjtable probe [--port PATH]` → `mjtable probe`."""
    while (shorter := re.sub(r"\[[^\[\]]*\]…?", "", text)) != text:
        text = shorter
    return " ".join(text.split())


def doc_commands() -> list[DocCommand]:
    out = []
    for path in DOCUMENTS:
        for number, text, from_block in _spans(path.read_text()):
            where = f"{path.relative_to(ROOT)}:{number}"
            words = shlex.split(PROGRAM.sub("", text, count=1))
            kind = _kind(words, from_block)
            out.append(DocCommand(where, text, tuple(words), kind))
            if kind is Kind.SYNOPSIS:
                # its shortest form may be a command line as written: run that too
                least = shlex.split(PROGRAM.sub("", _without_options(text), count=1))
                if _kind(least, False) is not Kind.SYNOPSIS and least != words:
                    shown = f"{text} (without its optional parts)"
                    out.append(DocCommand(where, shown, tuple(least), Kind.CONCRETE))
    return out


COMMANDS_SHOWN = doc_commands()


def _ids(commands: list[DocCommand]) -> list[str]:
    return [f"{c.where} {' '.join(c.argv)[:60]}" for c in commands]


def test_the_docs_show_commands_of_each_kind() -> None:
    """The extraction itself: it finds the README's table and the docs' blocks."""
    kinds = {c.kind for c in COMMANDS_SHOWN}
    assert kinds == set(Kind)
    shown = {c.argv[0] for c in COMMANDS_SHOWN if c.argv}
    assert {"score", "waits", "judge", "journal", "replay", "report", "run", "bench"} <= shown
    assert any(
        c.where.startswith("docs/REFEREE.md") and c.kind is Kind.CONCRETE for c in COMMANDS_SHOWN
    )


# --- names: every command, action and option a line names exists ------------------------


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse has no public way to list them
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _name_problems(argv: tuple[str, ...], kind: Kind = Kind.MENTION) -> list[str]:
    """What a line names that the command line does not have; for a synopsis that leaves
    nothing out (no `...`), also the options the command requires and it does not show."""
    elided = any(w in ("...", "…", "[...]") for w in argv)
    words = [w.strip("[]()…") for w in argv]
    words = [w for w in words if w and w not in ("...", "|")]
    if not words or words[0] in ("--help", "--version"):
        return []
    if words[0] == "COMMAND":  # `mjtable COMMAND --help`: test_every_help_runs
        return []
    if words[0] not in _command_names():
        return [f"no command {words[0]!r}"]
    _, parser = command_parser(words[0])
    return _problems_in(parser, words[1:], kind is Kind.SYNOPSIS and not elided)


def _problems_in(parser: argparse.ArgumentParser, rest: list[str], whole: bool) -> list[str]:
    choices = _subparsers(parser)
    if choices and rest and not rest[0].startswith("-"):
        names = rest[0].split("|")  # `verify|export|summary`: each one
        unknown = [n for n in names if n not in choices]
        if unknown:
            return [f"no {' or '.join(unknown)} in {sorted(choices)}"]
        return [p for n in names for p in _problems_in(choices[n], rest[1:], whole)]
    named = {w.split("=")[0] for w in rest if w.startswith("-")}
    problems = [f"no option {o} ({parser.prog})" for o in sorted(named)
                if o not in parser._option_string_actions]  # fmt: skip
    if whole:
        for action in parser._actions:
            if action.required and action.option_strings and not named & set(action.option_strings):
                problems.append(f"{parser.prog} needs {action.option_strings[-1]}, not shown")
        for group in parser._mutually_exclusive_groups:
            options = {o for a in group._group_actions for o in a.option_strings}
            if group.required and not named & options:
                problems.append(f"{parser.prog} needs one of {sorted(options)}, not shown")
    return problems


@pytest.mark.parametrize("shown", COMMANDS_SHOWN, ids=_ids(COMMANDS_SHOWN))
def test_what_a_line_names_exists(shown: DocCommand) -> None:
    problems = _name_problems(shown.argv, shown.kind)
    assert not problems, f"{shown}: {problems}"


def test_the_name_check_can_fail() -> None:
    """What the README once showed: `journal ...|record JOURNAL` without the --deal that
    `record` needs, `enroll` without --set; a mention or an elided synopsis needs nothing."""
    record = ("journal", "verify|record", "JOURNAL")
    assert _name_problems(record, Kind.SYNOPSIS) == [
        "mjtable journal record needs --deal, not shown"
    ]
    assert _name_problems(("journal", "record"), Kind.MENTION) == []
    assert _name_problems(("enroll", "--reader", "PATH", "..."), Kind.SYNOPSIS) == []
    assert _name_problems(("judge", "--randm", "N"), Kind.SYNOPSIS) == [
        "no option --randm (mjtable judge)"
    ]
    assert _name_problems(("journal", "verfy"), Kind.MENTION)[0].startswith("no verfy in")


# --- concrete lines: parsed, and the quick ones run ---------------------------------------

CONCRETE = [c for c in COMMANDS_SHOWN if c.kind is Kind.CONCRETE]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the docs' examples name: a journal of four settled bot deals, deal
    records of its first and fourth deals, a hall's roster of 32 players and a seating plan."""
    path = tmp_path_factory.mktemp("docs")
    (path / "players.csv").write_text(
        "id,name\n" + "".join(f"P{i:02d},Player {i}\n" for i in range(1, 33))
    )
    assert main(["hall", "seat", "--roster", str(path / "players.csv"), "--sessions", "7",
                 "--out", str(path / "seating.csv")]) == 0  # fmt: skip
    bot_journal(path / "table3.journal", [3, 4, 5, 6], dealer=Seat.W)
    for deal, name in ((1, "deal.json"), (4, "deal4.json")):
        argv = ["journal", "record", str(path / "table3.journal"), "--deal", str(deal)]
        assert main([*argv, "-o", str(path / name)]) == 0
    return path


def _parse(shown: DocCommand, capsys: pytest.CaptureFixture[str]) -> None:
    argv = list(shown.argv)
    if not argv or argv[0] in ("--help", "--version"):
        return
    _, parser = command_parser(argv[0])
    try:
        parser.parse_args(argv[1:])
    except SystemExit as stop:
        if stop.code:
            pytest.fail(f"{shown}: does not parse: {capsys.readouterr().err.strip()}")


def _runs_here(shown: DocCommand) -> bool:
    if not shown.argv or shown.argv[0] in ("--help", "--version") or "--help" in shown.argv:
        return True
    if tuple(shown.argv[:2]) in PARSED_ONLY_ACTIONS:
        return False
    return shown.argv[0] not in PARSED_ONLY and not any(
        HARDWARE_PATHS.search(w) for w in shown.argv
    )


@pytest.mark.parametrize("shown", CONCRETE, ids=_ids(CONCRETE))
def test_a_command_line_shown_runs_as_written(
    shown: DocCommand, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.chdir(folder)
    _parse(shown, capsys)
    if not _runs_here(shown):
        return
    try:
        status = main(list(shown.argv))
    except SystemExit as stop:  # --help, --version
        status = stop.code or 0
    out, err = capsys.readouterr()
    # probe says "no reader identified" (exit 1) where none is plugged in: it ran
    allowed = (0, 1) if shown.argv[0] == "probe" else (0,)
    assert status in allowed, f"{shown}: exit {status}: {err.strip()}"
    assert out.strip(), f"{shown}: printed nothing"
    if shown.argv[0] == "score":
        assert "not a win" not in out, f"{shown}: {out}"


def test_every_help_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """`mjtable --help` and `mjtable COMMAND --help` (every command and action) as the
    README says."""
    helps = [["--help"]]
    for name in sorted(_command_names()):
        helps.append([name, "--help"])
        _, parser = command_parser(name)
        helps += [[name, action, "--help"] for action in _subparsers(parser)]
    for argv in helps:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        out = capsys.readouterr().out
        assert stop.value.code == 0 and "usage: mjtable" in out, f"mjtable {' '.join(argv)}"
    assert len(helps) > len(COMMANDS)
