"""`mjtable setup` against a scratch root (issue 31 item 3): a Debian root's /etc (passwd,
group, shadow, login.defs) and its systemd units copied into a folder, set up with
`--root`: the user added by the real `useradd --prefix`, the unit enabled by the real
`systemctl --root` and checked by `systemd-analyze verify --root`; run again it changes
nothing (every file's bytes and times), `--uninstall` gives the root back as it was.

The venv step installs from PyPI, which the suite does not reach (only 127.0.0.1): here the
root's /opt/mjtable/venv is made offline as setup leaves it (`venv_holding_this_tree`: a real
venv whose `mjtable` runs this tree), and `.ci/run` runs setup with its venv step for real.
"""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from controller.cli import main
from controller.daemon.config import load_settings
from tools.pi_setup import CONFIG, RULES, STAMP, UNIT_FILE, VENV, source_hash

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "controller" / "systemd"
ETC = ("passwd", "group", "shadow", "gshadow", "login.defs")
WANTS = Path("etc/systemd/system/multi-user.target.wants/mjtable.service")

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("useradd") is None,
    reason="useradd --prefix needs root and the shadow tools",
)
needs_systemctl = pytest.mark.skipif(
    shutil.which("systemctl") is None, reason="no systemctl here (apt-get install systemd)"
)


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A root with this machine's account files and systemd units, nothing of mjtable."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    for name in ETC:
        if Path("/etc", name).exists():
            shutil.copy2(Path("/etc", name), root / "etc" / name)
    units = Path("/usr/lib/systemd/system")
    if units.is_dir():
        shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    (tmp_path / "by-id").mkdir()  # no adapter plugged in
    return root


def venv_holding_this_tree(root: Path) -> Path:
    """/opt/mjtable/venv as setup's venv step leaves it, made offline: a real venv whose
    `mjtable` runs this tree (with the test run's dependencies), and the source stamp."""
    venv = root / VENV
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120
    )
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "mjtable-tree.pth").write_text(f"{ROOT}\n{sysconfig.get_paths()['purelib']}\n")
    script = venv / "bin" / "mjtable"
    script.write_text(
        f"#!{venv}/bin/python\nimport sys\nfrom controller.cli import main\nsys.exit(main())\n"
    )
    script.chmod(0o755)
    (venv / STAMP).write_text(source_hash(ROOT) + "\n")
    return venv


def setup(root: Path, *args: str) -> int:
    by_id = root.parent / "by-id"
    return main(["setup", "--root", str(root), "--source", str(ROOT), "--by-id", str(by_id), *args])


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and link under the root but the copied units: what, bytes, mode, times."""
    out: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if rel.startswith("usr/lib/systemd"):
            continue
        st = path.lstat()
        target = os.readlink(path) if path.is_symlink() else ""
        body = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
        out[rel] = (st.st_mode, st.st_mtime_ns, target, body)
    return out


def accounts(root: Path) -> dict[str, str]:
    return {name: (root / "etc" / name).read_text() for name in ("passwd", "group")}


@needs_root
@needs_systemctl
def test_set_up_twice_verified_then_undone(scratch: Path, capsys) -> None:
    before = accounts(scratch)
    venv_holding_this_tree(scratch)
    assert (
        subprocess.run([scratch / VENV / "bin/mjtable", "--version"], check=False).returncode == 0
    )

    assert setup(scratch, "--table", "table3") == 0
    out = capsys.readouterr().out
    assert "user    done" in out and "unit    done" in out and "venv    ok" in out
    passwd = (scratch / "etc/passwd").read_text().splitlines()
    user = next(ln.split(":") for ln in passwd if ln.startswith("mjtable:"))
    assert user[5] == "/var/lib/mjtable" and user[6] == "/usr/sbin/nologin"
    groups = {ln.split(":")[0]: ln.split(":")[3] for ln in accounts(scratch)["group"].splitlines()}
    assert "mjtable" in groups["dialout"].split(",") and "mjtable" in groups["plugdev"].split(",")
    settings = load_settings(scratch / CONFIG)
    assert settings.table.name == "table3"
    assert settings.table.journal == "/var/lib/mjtable/table3.journal"
    assert (scratch / CONFIG).stat().st_mode & 0o777 == 0o640  # the token, MQTT password
    assert (scratch / UNIT_FILE).read_text() == (SHIPPED / "mjtable.service").read_text()
    assert os.readlink(scratch / WANTS) == "/etc/systemd/system/mjtable.service"
    # no adapter plugged in: a placeholder for each, and how to fill it
    rules = (scratch / RULES).read_text()
    assert rules.count('ATTRS{idVendor}=="VENDOR"') == 2
    assert "then: /dev/mjtable-reader: no adapter found; plug it in and run setup again" in out

    if shutil.which("systemd-analyze"):
        verify = subprocess.run(
            ["systemd-analyze", "verify", "--man=no", f"--root={scratch}", f"/{UNIT_FILE}"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            env={**os.environ, "SYSTEMD_LOG_LEVEL": "err"},
        )
        assert verify.returncode == 0, verify.stderr

    # again: nothing changes, not a byte nor a time
    set_up = snapshot(scratch)
    assert setup(scratch) == 0  # the table's name from the config now
    assert "nothing to change" in capsys.readouterr().out
    assert snapshot(scratch) == set_up

    assert setup(scratch, "--uninstall") == 0
    out = capsys.readouterr().out
    assert "kept: the journals in /var/lib/mjtable" in out
    assert accounts(scratch) == before
    for rel in (VENV, CONFIG, RULES, UNIT_FILE, WANTS):
        assert not (scratch / rel).exists() and not (scratch / rel).is_symlink(), rel
    assert setup(scratch, "--uninstall") == 0
    assert "nothing to change" in capsys.readouterr().out


def test_dry_run_shows_the_plan_and_writes_nothing(scratch: Path, capsys) -> None:
    before = snapshot(scratch)
    assert setup(scratch, "--table", "table3", "--dry-run", "--python", sys.executable) == 0
    out = capsys.readouterr().out
    assert "(dry run)" in out
    for part in ("user", "venv", "config", "udev", "unit"):
        assert f"  {part:<8}to do  " in out, part
    assert f"make (with {sys.executable}) and install into {scratch / VENV}: {ROOT}" in out
    assert snapshot(scratch) == before


def test_a_dry_run_on_this_machine_plans_the_running_system_too(tmp_path: Path, capsys) -> None:
    """Root / is the running system: udev and systemd told, the service (re)started; a dry
    run only reads it."""
    args = ["setup", "--dry-run", "--table", "t3", "--source", str(ROOT), "--by-id", str(tmp_path)]
    assert main([*args, "--python", sys.executable]) in (
        0,
        1,
    )  # 1: this machine's own config has a mistake
    out = capsys.readouterr().out
    assert out.startswith("mjtable setup: set up the table daemon (dry run)\n")
    assert "  config  " in out and " /etc/mjtable/mjtable.toml" in out
    assert "  service " in out


def test_without_root_one_line_says_what_needs_it(scratch: Path) -> None:
    cmd = [sys.executable, "-m", "controller", "setup", "--root", str(scratch), "--table", "t"]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("no setpriv to drop root with")
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert out.stderr.startswith("mjtable setup: needs root (sudo): it adds the mjtable user")


@needs_root
def test_a_config_with_a_mistake_is_named_and_kept(scratch: Path, capsys) -> None:
    config = scratch / CONFIG
    config.parent.mkdir(parents=True)
    text = (SHIPPED / "mjtable.toml").read_text().replace("[http]", "[http]\nlisten-on = 1")
    config.write_text(text)
    assert setup(scratch, "--dry-run") == 1  # no name given: the mistake, not the name
    err = capsys.readouterr().err
    assert err == f"mjtable setup: {config}: [http] key 'listen-on': unknown key (known: " + (
        "broadcast-delay, header-timeout, idle-timeout, listen, max-connections, referee-token)\n"
    )
    assert config.read_text() == text
    venv_holding_this_tree(scratch)
    assert setup(scratch, "--table", "table3") == 1
    out, err = capsys.readouterr()
    assert "config  KEPT   " in out and "key 'listen-on': unknown key" in err
    assert f"then: fix {config}, then run setup again" in out
    assert config.read_text() == text  # never overwritten
    # the rest is set up all the same
    assert "mjtable:" in (scratch / "etc/passwd").read_text()
    assert (scratch / UNIT_FILE).exists()


@needs_root
def test_a_config_for_another_table_is_kept_and_uninstall_keeps_it_when_edited(
    scratch: Path, capsys
) -> None:
    venv_holding_this_tree(scratch)
    assert setup(scratch, "--table", "table3") == 0
    capsys.readouterr()
    assert setup(scratch, "--table", "table9") == 0
    out = capsys.readouterr().out
    assert 'names the table "table3", not "table9"' in out
    assert load_settings(scratch / CONFIG).table.name == "table3"
    edited = (scratch / CONFIG).read_text().replace('"East"', '"Ann"')
    (scratch / CONFIG).write_text(edited)
    assert setup(scratch, "--uninstall") == 0
    assert "changed since setup wrote it" in capsys.readouterr().out
    assert (scratch / CONFIG).read_text() == edited


def test_a_table_name_is_needed_and_checked(scratch: Path, capsys) -> None:
    assert setup(scratch, "--dry-run") == 1  # no terminal to ask on, no config to read
    assert "name the table: --table NAME" in capsys.readouterr().err
    assert setup(scratch, "--dry-run", "--table", "table 3") == 1
    assert "--table: letters, digits" in capsys.readouterr().err


def test_a_python_without_venv_is_named(scratch: Path, tmp_path: Path, capsys) -> None:
    fake = tmp_path / "python-without-venv"  # an interpreter that cannot import ensurepip
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    assert setup(scratch, "--table", "t3", "--dry-run", "--python", str(fake)) == 1
    assert "sudo apt install python3-venv" in capsys.readouterr().err


def test_help_says_how(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["setup", "--help"])
    out = capsys.readouterr().out
    assert "--dry-run" in out and "--uninstall" in out and "--root DIR" in out


def test_the_table_name_is_asked_for_on_a_terminal(scratch: Path) -> None:
    controller, terminal = pty.openpty()
    try:
        os.write(controller, b"table7\n")
        by_id = str(scratch.parent / "by-id")
        cmd = [sys.executable, "-m", "controller", "setup", "--root", str(scratch), "--dry-run"]
        out = subprocess.run(
            [*cmd, "--source", str(ROOT), "--by-id", by_id],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(terminal)
        os.close(controller)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("table name (it names the journal, e.g. table3): ")
    assert f'write {scratch / CONFIG}, table "table7"' in out.stdout
