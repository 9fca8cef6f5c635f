"""`mjtable hall key make|show|trust` and `mjtable hub --keys`: a table's key made once, beside
its config, mode 0600; bad input gets one clear line and changes nothing."""

from __future__ import annotations

import re
import stat
from pathlib import Path

from controller.cli import main
from controller.hub.signing import TableKey, public_text
from controller.hub.trust import read_keys


def test_a_key_is_made_beside_the_config_and_given_to_the_hub(tmp_path: Path, capsys) -> None:
    config = tmp_path / "mjtable.toml"
    config.write_text('[table]\nname = "7"\n[mqtt]\nhall = "h1"\n')
    assert main(["hall", "key", "make", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    key = tmp_path / "table.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert f'in {config}, section [mqtt]: key = "table.key"' in out
    public = public_text(TableKey.read(key).public)
    assert f"mjtable hall key trust --keys hall.keys --hall h1 --table 7 {public}" in out
    assert main(["hall", "key", "show", "--key", str(key)]) == 0
    assert capsys.readouterr().out.strip() == public
    # made once: a second make keeps the key
    before = key.read_bytes()
    assert main(["hall", "key", "make", "--config", str(config)]) == 2
    assert "exists: a table keeps its key" in capsys.readouterr().err
    assert key.read_bytes() == before
    keys = tmp_path / "hall.keys"
    argv = ["hall", "key", "trust", "--keys", str(keys), "--hall", "h1", "--table", "7"]
    assert main([*argv, public]) == 0
    assert re.search(r"key [0-9a-f]{16} trusted", capsys.readouterr().out)
    assert list(read_keys(keys)) == [("h1", "7")]
    other = public_text(TableKey.make().public)
    assert main([*argv, other]) == 2
    assert "has another key" in capsys.readouterr().err
    assert public in keys.read_text()
    assert main([*argv, "ed25519:xyz"]) == 2
    assert "not an Ed25519 public key" in capsys.readouterr().err


def test_the_hub_refuses_a_bad_keys_file_in_one_line(tmp_path: Path, capsys) -> None:
    keys = tmp_path / "hall.keys"
    keys.write_text("h1 7 ed25519:nope\n")
    assert main(["hub", "--keys", str(keys), "--http", "off"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mjtable hub: {keys}:1: not an Ed25519 public key")
    assert len(err.strip().splitlines()) == 1
    assert main(["hub", "--keys", str(tmp_path / "absent.keys"), "--http", "off"]) == 2
    assert "cannot read the keys file" in capsys.readouterr().err
