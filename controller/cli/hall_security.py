"""`mjtable hall broker-config` and `mjtable hall key`: a hall's security (docs/MQTT.md
"Securing a hall"), actions of `mjtable hall` (controller/cli/hall.py).

    mjtable hall broker-config --hall H --table T1 --table T2 --out DIR   the broker's files
    mjtable hall key make [--config F | --key F]     a table's signing key (on the table)
    mjtable hall key show --key F                     the public key of a table's key
    mjtable hall key trust --keys F --hall H --table T ed25519:...   the hub trusts it
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from controller.daemon.config import ConfigError, find_config, load_settings
from controller.hub.broker_config import BrokerConfigError, hall_broker, write
from controller.hub.signing import TableKey, TableKeyError, public_text
from controller.hub.trust import trust_key

KEY_NAME = "table.key"  # beside the table's config


def add_actions(sub: Any) -> None:
    """`broker-config` and `key` among `mjtable hall`'s actions."""
    bc = sub.add_parser(
        "broker-config",
        help="write the hall broker's Mosquitto drop-in, password file, ACL and credentials",
        description="Write, into DIR, a Mosquitto 2.0 configuration for the hall: anonymous "
        "access off, one user and password per table, the hub and the viewers, and an ACL "
        "(each table writes only mjtable/HALL/TABLE/#; the hub reads the hall and writes "
        "mjtable-hub/HALL/#; viewers read the tables' status, view and event). Run again "
        "with more tables: the passwords already made are kept.",
    )
    bc.add_argument("--hall", required=True, help="the hall's name (the tables' [mqtt] hall)")
    bc.add_argument(
        "--table",
        action="append",
        required=True,
        metavar="NAME",
        help="a table's name (its [table] name); once per table",
    )
    bc.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder to write")
    bc.add_argument(
        "--installed-at",
        type=Path,
        metavar="DIR",
        help="where the folder will be on the broker's machine (default: DIR): the drop-in "
        "names its password file and ACL there",
    )
    bc.add_argument(
        "--listen",
        metavar="[HOST:]PORT",
        help="the broker's listener (default: every address, port 1883, or 8883 with TLS)",
    )
    bc.add_argument("--tls-cert", type=Path, help="the broker's certificate: TLS only")
    bc.add_argument("--tls-key", type=Path, help="the certificate's private key")

    key = sub.add_parser("key", help="the tables' signing keys").add_subparsers(
        dest="key_action", metavar="KEY_ACTION", required=True
    )
    make = key.add_parser(
        "make",
        help="make this table's signing key (mode 0600, beside its config)",
        description="Make the table's Ed25519 signing key, a new file of mode 0600 (by "
        f"default {KEY_NAME} beside the table's config), and print its public key and the "
        "command that gives it to the hub.",
    )
    make.add_argument("--config", help="the table's config file (default: the one `run` reads)")
    make.add_argument("--key", type=Path, help=f"where to write it (default: {KEY_NAME} beside)")
    show = key.add_parser("show", help="print the public key of a table's key")
    show.add_argument("--key", type=Path, required=True, help="the table's key file")
    trust = key.add_parser(
        "trust",
        help="give the hub a table's public key (its keys file)",
        description="Add a table's public key to the hub's keys file (`mjtable hub --keys`): "
        "from then on the hub refuses that table's deals unless they are signed with it. "
        "A running hub reads the file again when it changes.",
    )
    trust.add_argument("--keys", type=Path, required=True, help="the hub's keys file")
    trust.add_argument("--hall", required=True)
    trust.add_argument("--table", required=True)
    trust.add_argument("public", help="the public key, ed25519:... (`mjtable hall key show`)")
    trust.add_argument(
        "--replace",
        action="store_true",
        help="replace the key held for the table (its key was lost or made again)",
    )


def run(args: argparse.Namespace) -> int:
    """`broker-config` or `key ...`: one line on bad input, exit 2."""
    try:
        if args.action == "broker-config":
            return _broker_config(args)
        if args.key_action == "make":
            return _make(args)
        if args.key_action == "show":
            print(public_text(TableKey.read(args.key).public))
            return 0
        print(trust_key(args.keys, args.hall, args.table, args.public, args.replace))
        return 0
    except (BrokerConfigError, TableKeyError, ConfigError) as err:
        print(f"mjtable hall: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"mjtable hall: {err.filename}: {err.strerror or err}", file=sys.stderr)
        return 2


def _broker_config(args: argparse.Namespace) -> int:
    broker = hall_broker(args.hall, args.table, args.listen, args.tls_cert, args.tls_key)
    files = write(broker, args.out, args.installed_at)
    print(f"written: {args.out}/mjtable-hall.conf, passwd, acl, credentials/")
    print(f"the hub: mjtable hub --hall {broker.hall} --username {broker.hub_user} "
          f"--password-file {files[broker.hub_user]} --keys hall.keys ...")  # fmt: skip
    for table in broker.tables:
        user = broker.table_user(table)
        print(f"table {table}: [mqtt] hall = \"{broker.hall}\", username = \"{user}\", "
              f"password = the line in {files[user]}")  # fmt: skip
    return 0


def _make(args: argparse.Namespace) -> int:
    config = find_config(args.config)
    settings = load_settings(config)
    path = args.key
    if path is None:
        if config is None:
            raise ConfigError("no table config found: name the key file with --key PATH")
        path = config.parent / KEY_NAME
    if path.exists():
        raise TableKeyError(
            f"{path} exists: a table keeps its key (remove it first only to replace it, and "
            "then give the hub the new one with `mjtable hall key trust --replace`)"
        )
    key = TableKey.make()
    key.write(path)
    public = public_text(key.public)
    print(f"table key written: {path} (mode 0600, key {key.fingerprint})")
    if config is not None and path.parent == config.parent:
        print(f'in {config}, section [mqtt]: key = "{path.name}"')
    else:
        print(f'in the table\'s config, section [mqtt]: key = "{path.resolve()}"')
    hall, table = settings.mqtt.hall, settings.table.name
    print(f"on the hub: mjtable hall key trust --keys hall.keys --hall {hall} --table {table} "
          f"{public}")  # fmt: skip
    return 0
