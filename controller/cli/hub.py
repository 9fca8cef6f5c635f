"""`mjtable hub`: subscribe to a hall's tables on the MQTT broker, keep the standings,
serve them as a live page (and, with --json, print them as one JSON line per change)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from controller.hub.page import HubPage, LinkState
from controller.hub.signing import TableKeyError
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.trust import Gate
from controller.hub.wire import BrokerOptions, SettledDeal
from controller.outputs.http import WebServer

PASSWORD_ENV = "MJTABLE_MQTT_PASSWORD"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--broker", default="127.0.0.1:1883", help="MQTT broker host[:port] (default %(default)s)"
    )
    parser.add_argument("--hall", help="only this hall's tables (default: every hall)")
    parser.add_argument(
        "--http",
        default="127.0.0.1:8090",
        help="serve the standings page at host:port (default %(default)s; 'off' for none)",
    )
    parser.add_argument("--username", help="MQTT user name")
    parser.add_argument(
        "--password-file", type=Path, help=f"file holding the MQTT password (or ${PASSWORD_ENV})"
    )
    parser.add_argument("--tls-ca", type=Path, help="CA certificate: connect with TLS")
    parser.add_argument(
        "--tls-insecure", action="store_true", help="with TLS, do not check the broker's host name"
    )
    parser.add_argument("--client-id", default="mjtable-hub", help="MQTT client id")
    parser.add_argument(
        "--json", action="store_true", help="print the standings as one JSON line per change"
    )
    parser.add_argument(
        "--plan",
        type=Path,
        metavar="CSV",
        help="the hall's seating plan (`mjtable hall seat`): each table is sent, retained, "
        "the seating of the session it plays next (needs --roster and --hall)",
    )
    parser.add_argument("--roster", type=Path, metavar="CSV", help="the players: id,name[,club]")
    parser.add_argument(
        "--heads",
        type=Path,
        metavar="FILE",
        help="append each settled deal's chain head (table, seq, hash) to FILE, one JSON "
        "line each: `mjtable journal verify --anchors FILE --table T` checks a journal",
    )
    parser.add_argument(
        "--keys",
        type=Path,
        metavar="FILE",
        help="the tables' public keys (`mjtable hall key trust`): a table named there must "
        "sign its deals, or they are refused; read again when it changes",
    )


def _options(args: argparse.Namespace) -> BrokerOptions:
    password = os.environ.get(PASSWORD_ENV)
    if args.password_file is not None:
        password = args.password_file.read_text(encoding="utf-8").strip()
    return BrokerOptions.parse_address(
        args.broker,
        username=args.username,
        password=password,
        tls_ca=args.tls_ca,
        tls_insecure=args.tls_insecure,
    )


class HeadLog:
    """The chain heads the hub keeps, off the tables' disks (issue 15 item 5): a JSON line
    per settled deal `{"hall", "table", "session", "deal", "seq", "hash"}`, fsync'd."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def add(self, hall: str, table: str, deal: SettledDeal) -> None:
        if not deal.head:
            return  # a table from before chain heads were published
        line = json.dumps(
            {"hall": hall, "table": table, "session": deal.session, "deal": deal.deal,
             "seq": deal.seq, "hash": deal.head},
            sort_keys=True,
        )  # fmt: skip
        with self._lock, self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())


def _first_seatings(subscriber: HubSubscriber, standings: Standings, feed, stop) -> None:
    """Once the broker has handed over what it retains (the tables' statuses and ledgers:
    no message for half a second after the subscription), send every planned table its
    seating, tables never heard from included. Later changes send them as they come."""
    while not stop.is_set() and not subscriber.wait_until(lambda: subscriber.connected, 1.0):
        pass
    heard = -1
    while not stop.is_set() and heard != subscriber.stats.messages:
        heard = subscriber.stats.messages
        stop.wait(0.5)
    if not stop.is_set():
        feed.update(standings.snapshot())


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        options = _options(args)
    except (ValueError, OSError) as err:
        print(f"mjtable hub: {err}", file=sys.stderr)
        return 2
    feed = seated = None
    if args.plan is not None or args.roster is not None:
        from controller.hall.feed import SeatingFeed
        from controller.hall.roster import RosterError, read_roster
        from controller.hall.seating import PlanSeats, read_plan

        if args.plan is None or args.roster is None or args.hall is None:
            print("mjtable hub: a seating plan needs --plan, --roster and --hall", file=sys.stderr)
            return 2
        try:
            roster = read_roster(args.roster)
            plan = read_plan(args.plan, roster)
        except RosterError as err:
            print(f"mjtable hub: {err}", file=sys.stderr)
            return 2
        feed = SeatingFeed(options, args.hall, plan, roster, f"{args.client_id}-seating")
        seated = PlanSeats(args.hall, plan, roster)
    heads = HeadLog(args.heads) if args.heads is not None else None
    if heads is not None:
        try:
            heads.path.open("a", encoding="utf-8").close()
        except OSError as err:
            print(
                f"mjtable hub: {heads.path}: cannot write: {err.strerror or err}", file=sys.stderr
            )
            return 2
    try:
        gate = Gate(args.keys)  # without a keys file every table is "unsigned"
    except TableKeyError as err:
        print(f"mjtable hub: {err}", file=sys.stderr)
        return 2
    standings = Standings(seated=seated)
    stop = threading.Event()
    server = page = None
    subscriber: HubSubscriber | None = None
    broker = f"{options.host}:{options.port}"

    def link() -> LinkState:
        sub = subscriber
        if sub is None:
            return LinkState(broker, False, False, "")
        return LinkState(broker, sub.connected, sub.ever_connected, sub.link_since, sub.last_lost)

    if args.http != "off":
        host, _, port = args.http.rpartition(":")
        server = WebServer(host or "127.0.0.1", int(port))
        page = HubPage(standings, server, args.hall, link, gate.trust)
        server.start()
        print(f"standings page: {server.url}", file=sys.stderr, flush=True)

    def changed() -> None:
        if feed is not None:
            feed.update(standings.snapshot())
        if page is not None:
            page.changed()
        if args.json:
            print(json.dumps(standings.snapshot().to_json()), flush=True)

    def linked(up: bool) -> None:  # the page shows the banner, or takes it away
        if page is not None:
            page.changed()

    subscriber = HubSubscriber(
        options,
        standings,
        args.hall,
        args.client_id,
        changed,
        linked,
        heads.add if heads else None,
        gate,
    )
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    if feed is not None:
        feed.start()
    subscriber.start()
    if feed is not None:
        threading.Thread(
            target=_first_seatings, args=(subscriber, standings, feed, stop), daemon=True
        ).start()
    try:
        stop.wait()
    finally:
        subscriber.stop()
        if feed is not None:
            feed.stop()
        if page is not None:
            page.close()
        if server is not None:
            server.close()
    return 0
