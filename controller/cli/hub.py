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
from controller.hub.standings import Standings
from controller.hub.subscriber import HubSubscriber
from controller.hub.wire import BrokerOptions
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


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        options = _options(args)
    except (ValueError, OSError) as err:
        print(f"mjtable hub: {err}", file=sys.stderr)
        return 2
    standings = Standings()
    stop = threading.Event()
    server = page = None
    subscriber: HubSubscriber | None = None
    broker = f"{options.host}:{options.port}"

    def link() -> LinkState:
        sub = subscriber
        if sub is None:
            return LinkState(broker, False, False, "")
        return LinkState(broker, sub.connected, sub.ever_connected, sub.link_since)

    if args.http != "off":
        host, _, port = args.http.rpartition(":")
        server = WebServer(host or "127.0.0.1", int(port))
        page = HubPage(standings, server, args.hall, link)
        server.start()
        print(f"standings page: {server.url}", file=sys.stderr, flush=True)

    def changed() -> None:
        if page is not None:
            page.changed()
        if args.json:
            print(json.dumps(standings.snapshot().to_json()), flush=True)

    def linked(up: bool) -> None:  # the page shows the banner, or takes it away
        if page is not None:
            page.changed()

    subscriber = HubSubscriber(options, standings, args.hall, args.client_id, changed, linked)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    subscriber.start()
    try:
        stop.wait()
    finally:
        subscriber.stop()
        if page is not None:
            page.close()
        if server is not None:
            server.close()
    return 0
