"""`mjtable setup`: a table's Raspberry Pi set up in one command, and undone in one.

Each part is a step that first looks at what is there and says what it would change, so the
same plan is what `--dry-run` prints, what a second run finds already right (and leaves), and
what `--uninstall` reverses:

| part    | what                                                                         |
|---------|------------------------------------------------------------------------------|
| user    | the system user `mjtable`, in the groups `dialout` (serial) and `plugdev` (USB) |
| venv    | /opt/mjtable/venv with Debian's python3, the project installed in it (again when its source changed) |
| config  | /etc/mjtable/mjtable.toml from controller/systemd/mjtable.toml with the table's name; one already there is kept, checked with the daemon's own loader |
| udev    | /etc/udev/rules.d/90-mjtable.rules from the adapters `mjtable probe` finds (tools/udev_rules.py) |
| unit    | /etc/systemd/system/mjtable.service (controller/systemd/), enabled     |
| service | restarted when anything above changed (a deal in progress resumes from the journal) |

Everything is written under `root` (default /); with another root (a scratch folder, an
image being built) the user is added with `useradd --prefix`, the unit enabled with
`systemctl --root`, and nothing running is touched (no udevadm, no restart). The journal
(/var/lib/mjtable, the unit's StateDirectory) and the config live outside the venv: an
upgrade replaces the venv's contents only, and `--uninstall` keeps both.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from controller.daemon.config import ConfigError, load_settings
from controller.errors import TableError
from tools.udev_rules import placeholders, written_by_setup

SHIPPED = Path(__file__).resolve().parents[1] / "controller" / "systemd"
USER = "mjtable"
GROUPS = ("dialout", "plugdev")
UNIT = "mjtable.service"
VENV = Path("opt/mjtable/venv")
CONFIG = Path("etc/mjtable/mjtable.toml")
RULES = Path("etc/udev/rules.d/90-mjtable.rules")
UNIT_FILE = Path("etc/systemd/system") / UNIT
STATE = Path("var/lib/mjtable")
STAMP = "mjtable-source.sha256"  # in the venv: the hash of the source installed in it
TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
# what the project's wheel is built from: a change here is a new install
SOURCE_PARTS = ("pyproject.toml", "controller", "rules", "tools", "hw_profiles")


class SetupError(TableError):
    """Something setup cannot do, said in one line."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where and what to set up."""

    root: Path = Path("/")
    table: str = ""  # the table's name ("" : the existing config's)
    python: str = "/usr/bin/python3"  # the interpreter the venv is made with
    source: Path | None = None  # the project folder installed into the venv

    @property
    def live(self) -> bool:
        """The running system: udev and systemd are told, the service (re)started."""
        return self.root == Path("/")

    def path(self, rel: Path) -> Path:
        return self.root / rel

    def shown(self, rel: Path) -> str:
        """A path as the operator reads it (under the root when it is not /)."""
        return str(self.path(rel)) if not self.live else f"/{rel}"


class Part(Enum):
    USER = "user"
    VENV = "venv"
    CONFIG = "config"
    UDEV = "udev"
    UNIT = "unit"
    SERVICE = "service"


@dataclass(frozen=True, slots=True)
class Planned:
    """One part: what is there, what would change, and how."""

    part: Part
    says: str  # what is there, or what will be done
    todo: Callable[[], None] | None = None  # None: already right / nothing to do
    problem: str = ""  # a fault kept as it is (setup exits 1)
    notes: tuple[str, ...] = ()  # what the operator does next

    def line(self, done: bool) -> str:
        if self.todo is None:
            state = "ok" if not self.problem else "KEPT"
        else:
            state = "done" if done else "to do"
        return f"  {self.part.value:<8}{state:<7}{self.says}"


@dataclass(slots=True)
class Plan:
    items: list[Planned] = field(default_factory=list)

    @property
    def changes(self) -> list[Planned]:
        return [p for p in self.items if p.todo is not None]


def run(cmd: Sequence[str], what: str) -> None:
    """A command setup runs; its failure is one line naming it."""
    try:
        out = subprocess.run(list(cmd), capture_output=True, text=True, check=False)
    except OSError as err:
        raise SetupError(f"{what}: cannot run {cmd[0]}: {err.strerror or err}") from None
    if out.returncode != 0:
        said = (out.stderr or out.stdout).strip().splitlines()
        raise SetupError(f"{what}: {' '.join(cmd)} failed: {said[-1] if said else out.returncode}")


def write(path: Path, text: str, mode: int = 0o644, group: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(text, encoding="utf-8")
    os.chmod(tmp, mode)
    if group is not None:
        os.chown(tmp, 0, group)
    os.replace(tmp, path)


# --------------------------------------------------------------------------- user


def _entries(path: Path) -> dict[str, list[str]]:
    """name → fields of /etc/passwd or /etc/group under the root."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    return {ln.split(":")[0]: ln.split(":") for ln in lines if ln and not ln.startswith("#")}


def group_id(target: Target, name: str) -> int | None:
    entry = _entries(target.path(Path("etc/group"))).get(name)
    return int(entry[2]) if entry and len(entry) > 2 and entry[2].isdigit() else None


def _prefix(target: Target) -> list[str]:
    return [] if target.live else ["--prefix", str(target.root)]


def plan_user(target: Target) -> Planned:
    passwd = _entries(target.path(Path("etc/passwd")))
    groups = _entries(target.path(Path("etc/group")))
    missing_groups = [g for g in GROUPS if g not in groups]
    member = [g for g in GROUPS if USER in (groups.get(g, []) + [""] * 4)[3].split(",")]
    if USER in passwd and len(member) == len(GROUPS):
        return Planned(Part.USER, f"{USER}, in {', '.join(GROUPS)}")

    def todo() -> None:
        for g in missing_groups:
            run(["groupadd", *_prefix(target), "--system", g], f"group {g}")
        if USER not in passwd:
            run(
                [
                    "useradd",
                    *_prefix(target),
                    "--system",
                    "--home-dir",
                    f"/{STATE}",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    "--groups",
                    ",".join(GROUPS),
                    USER,
                ],
                f"user {USER}",
            )
        else:
            run(["usermod", *_prefix(target), "-a", "-G", ",".join(GROUPS), USER], f"user {USER}")

    verb = "add" if USER not in passwd else "add to groups:"
    says = f"{verb} {USER} (system user, groups {', '.join(GROUPS)})"
    if missing_groups:
        says += f"; add the groups {', '.join(missing_groups)}"
    return Planned(Part.USER, says, todo)


def unplan_user(target: Target) -> Planned:
    if USER not in _entries(target.path(Path("etc/passwd"))):
        return Planned(Part.USER, f"no user {USER}")
    return Planned(
        Part.USER,
        f"remove the user {USER}",
        lambda: run(["userdel", *_prefix(target), USER], f"user {USER}"),
    )


# --------------------------------------------------------------------------- venv


def source_files(source: Path) -> Iterator[Path]:
    for part in SOURCE_PARTS:
        top = source / part
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path


def source_hash(source: Path) -> str:
    """What identifies an install: the project files a wheel is built from."""
    digest = hashlib.sha256()
    for path in source_files(source):
        digest.update(str(path.relative_to(source)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def is_source(folder: Path) -> bool:
    pyproject = folder / "pyproject.toml"
    return pyproject.is_file() and 'name = "mjtable"' in pyproject.read_text(encoding="utf-8")


def has_venv(python: str) -> bool:
    check = [python, "-c", "import ensurepip, venv"]
    try:
        return subprocess.run(check, capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def plan_venv(target: Target) -> Planned:
    venv = target.path(VENV)
    installed = (venv / "bin" / "mjtable").is_file()
    stamp = venv / STAMP
    have = stamp.read_text(encoding="utf-8").strip() if stamp.is_file() else ""
    if target.source is None:
        if installed:
            return Planned(Part.VENV, f"{target.shown(VENV)} (no project folder given: kept)")
        raise SetupError(
            f"{target.shown(VENV)} holds no mjtable and no project folder was given: run "
            "setup from the project folder, or name it with --source DIR"
        )
    want = source_hash(target.source)
    if installed and have == want:
        return Planned(Part.VENV, f"{target.shown(VENV)}, holding {target.source} as it is")
    if not (venv / "bin" / "python").exists() and not has_venv(target.python):
        raise SetupError(
            f"{target.python} cannot make a venv (no ensurepip): sudo apt install python3-venv"
        )

    def todo() -> None:
        if target.live and running():
            # stopped while its code is replaced (it imports some modules on first use);
            # the service step starts it again and the journal resumes the deal
            run(["systemctl", "stop", UNIT], "venv")
        if not (venv / "bin" / "python").exists():
            run([target.python, "-m", "venv", str(venv)], f"venv {venv}")
        # pip reinstalls a project folder even at the same version number
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(target.source)]
        run(pip, f"install {target.source}")
        write(stamp, want + "\n")

    made = "install into" if installed else f"make (with {target.python}) and install into"
    return Planned(Part.VENV, f"{made} {target.shown(VENV)}: {target.source}", todo)


def unplan_venv(target: Target) -> Planned:
    top = target.path(VENV).parent
    if not top.exists():
        return Planned(Part.VENV, f"no {target.shown(VENV.parent)}")
    return Planned(Part.VENV, f"remove {target.shown(VENV.parent)}", lambda: shutil.rmtree(top))


# --------------------------------------------------------------------------- config


def config_text(table: str) -> str:
    """The shipped example with the table's name and its journal's."""
    text = (SHIPPED / "mjtable.toml").read_text(encoding="utf-8")
    text = text.replace('name = "table1"', f'name = "{table}"', 1)
    return text.replace("/var/lib/mjtable/table1.journal", f"/{STATE}/{table}.journal", 1)


def existing_table(target: Target) -> str:
    """The table name in the config already there ("" if none, or it does not load)."""
    try:
        return load_settings(target.path(CONFIG)).table.name
    except (ConfigError, FileNotFoundError):
        return ""


def plan_config(target: Target) -> Planned:
    path = target.path(CONFIG)
    shown = target.shown(CONFIG)
    if path.exists():
        try:
            settings = load_settings(path)
        except ConfigError as err:
            # a mistake in a file the operator wrote: name it, never overwrite it
            return Planned(
                Part.CONFIG,
                f"{shown}, left as it is",
                problem=str(err).replace(str(path), shown, 1),
                notes=(f"fix {shown}, then run setup again",),
            )
        named = settings.table.name
        notes: tuple[str, ...] = ()
        if target.table and target.table != named:
            notes = (
                f'{shown} names the table "{named}", not "{target.table}": edit [table] name '
                "and journal there to rename it (setup never rewrites a config)",
            )
        return Planned(Part.CONFIG, f'{shown}, table "{named}"', notes=notes)
    text = config_text(target.table)
    load_settings_text(text, shown)  # the daemon's own checks, before anything is written

    def todo() -> None:
        write(path, text, 0o640, group_id(target, USER))

    return Planned(
        Part.CONFIG,
        f'write {shown}, table "{target.table}" (journal /{STATE}/{target.table}.journal)',
        todo,
        notes=(f"profiles, players and rules: edit {shown} (docs/PROFILES.md)",),
    )


def load_settings_text(text: str, where: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mjtable.toml"
        path.write_text(text, encoding="utf-8")
        try:
            load_settings(path)
        except ConfigError as err:
            raise SetupError(str(err).replace(str(path), where)) from None


def unplan_config(target: Target) -> Planned:
    path = target.path(CONFIG)
    shown = target.shown(CONFIG)
    if not path.exists():
        return Planned(Part.CONFIG, f"no {shown}")
    table = existing_table(target)
    if table and path.read_text(encoding="utf-8") == config_text(table):

        def todo() -> None:
            path.unlink()
            if not any(path.parent.iterdir()):
                path.parent.rmdir()

        return Planned(Part.CONFIG, f"remove {shown} (as setup wrote it)", todo)
    return Planned(Part.CONFIG, f"{shown} kept: changed since setup wrote it (remove it by hand)")


# --------------------------------------------------------------------------- udev


def plan_rules(target: Target, rules_text: str, found_says: str) -> Planned:
    path = target.path(RULES)
    shown = target.shown(RULES)
    notes = tuple(
        f"/dev/mjtable-{role.value}: no adapter found; plug it in and run setup again, or fill "
        f"in the placeholder in {shown}"
        for role in placeholders(rules_text)
    )
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old == rules_text:
        return Planned(Part.UDEV, f"{shown}: {found_says}", notes=notes)
    if old is not None and not written_by_setup(old):
        return Planned(
            Part.UDEV,
            f"{shown} kept: not written by setup (move it away to have it written)",
            notes=notes,
        )

    def todo() -> None:
        write(path, rules_text)
        if target.live:
            run(["udevadm", "control", "--reload"], "udev")
            run(["udevadm", "trigger", "--subsystem-match=tty", "--subsystem-match=usb"], "udev")

    return Planned(Part.UDEV, f"write {shown}: {found_says}", todo, notes=notes)


def unplan_rules(target: Target) -> Planned:
    path = target.path(RULES)
    shown = target.shown(RULES)
    if not path.exists():
        return Planned(Part.UDEV, f"no {shown}")
    if not written_by_setup(path.read_text(encoding="utf-8")):
        return Planned(Part.UDEV, f"{shown} kept: not written by setup")

    def todo() -> None:
        path.unlink()
        if target.live:
            run(["udevadm", "control", "--reload"], "udev")

    return Planned(Part.UDEV, f"remove {shown}", todo)


# --------------------------------------------------------------------------- unit


def _systemctl(target: Target, *args: str) -> list[str]:
    return ["systemctl", *([] if target.live else [f"--root={target.root}"]), *args]


def enabled(target: Target) -> bool:
    wants = target.path(Path("etc/systemd/system/multi-user.target.wants") / UNIT)
    return wants.is_symlink() or wants.exists()


def plan_unit(target: Target) -> Planned:
    path = target.path(UNIT_FILE)
    shown = target.shown(UNIT_FILE)
    text = (SHIPPED / UNIT).read_text(encoding="utf-8")
    same = path.is_file() and path.read_text(encoding="utf-8") == text
    if same and enabled(target):
        return Planned(Part.UNIT, f"{shown}, enabled")

    def todo() -> None:
        if not same:
            write(path, text)
        if target.live:
            run(_systemctl(target, "daemon-reload"), "unit")
        run(_systemctl(target, "enable", UNIT), "unit")

    says = ("write " + shown + ", " if not same else shown + ": ") + "enable"
    return Planned(Part.UNIT, says, todo)


def unplan_unit(target: Target) -> Planned:
    path = target.path(UNIT_FILE)
    shown = target.shown(UNIT_FILE)
    if not path.exists() and not enabled(target):
        return Planned(Part.UNIT, f"no {shown}")

    def todo() -> None:
        run(_systemctl(target, "disable", *(["--now"] if target.live else []), UNIT), "unit")
        path.unlink(missing_ok=True)
        if target.live:
            run(_systemctl(target, "daemon-reload"), "unit")

    return Planned(Part.UNIT, f"stop, disable and remove {shown}", todo)


def running() -> bool:
    active = ["systemctl", "is-active", "--quiet", UNIT]
    try:
        return subprocess.run(active, capture_output=True, check=False).returncode == 0
    except OSError:
        return False


def plan_service(target: Target, changed: bool, blocked: bool) -> Planned | None:
    if not target.live:
        return None
    if blocked:
        return Planned(Part.SERVICE, f"{UNIT}: not restarted until the config loads")
    if not changed:
        return Planned(Part.SERVICE, f"{UNIT}: nothing changed, not restarted")
    return Planned(
        Part.SERVICE,
        f"(re)start {UNIT} (a deal in progress resumes from the journal)",
        lambda: run(["systemctl", "restart", UNIT], "service"),
    )


# --------------------------------------------------------------------------- plans


def install_plan(target: Target, rules_text: str, found_says: str) -> Plan:
    if not target.table and not target.path(CONFIG).exists():
        raise SetupError("name the table: --table NAME")
    plan = Plan(
        [
            plan_user(target),
            plan_venv(target),
            plan_config(target),
            plan_rules(target, rules_text, found_says),
            plan_unit(target),
        ]
    )
    blocked = any(p.problem for p in plan.items)
    service = plan_service(target, bool(plan.changes), blocked)
    if service is not None:
        plan.items.append(service)
    return plan


def uninstall_plan(target: Target) -> Plan:
    return Plan(
        [
            unplan_unit(target),
            unplan_rules(target),
            unplan_venv(target),
            unplan_config(target),
            unplan_user(target),
        ]
    )


def default_python() -> str:
    """Debian's interpreter where there is one (the venv outlives any other), else this one's."""
    debian = Path("/usr/bin/python3")
    return str(debian) if debian.exists() else getattr(sys, "_base_executable", sys.executable)
