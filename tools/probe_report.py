"""What `mjtable probe` prints (tools/probe.py finds the devices and the profiles that fit):
each device with its answer, the readers of a line by address, the profiles that fit and
those that do not with the reason, and the `mjtable run` line to start with."""

from __future__ import annotations

from collections.abc import Sequence

from tools.probe import FEIG_BAUD, FeigBus, Finding, Pn53x, TableBoard, UhfBus


def run_line(reader: Finding, table: Finding | None) -> str:
    parts = [
        "mjtable run",
        f"--reader {reader.reader_arg}",
        f"--reader-profile {reader.profiles[0]}",
    ]
    if table is not None:
        parts += [f"--table {table.reader_arg}", f"--profile {table.profiles[0]}"]
    else:
        # no board answered: a table with no serial link reads the shuffle, walls and
        # dice off the reader, and the players declare by cards (no seat buttons)
        parts += ["--table none"]
    return " ".join([*parts, "--tags TAG-MAP"])


def report(findings: Sequence[Finding]) -> list[str]:
    """The text `mjtable probe` prints."""
    lines = []
    for f in findings:
        lines.append(f"{f.what}" + (f"  [{f.label}]" if f.label else ""))
        if isinstance(f.identity, UhfBus):
            answered = ", ".join(str(a) for a in sorted(f.identity.addresses))
            lines.append(f"    asked: UHF readers answered at addresses {answered}")
            for r in f.identity.readers:
                layout, how = f.identity.layout_of(r.adr)
                lines.append(f"      address {r.adr}: {r}")
                lines.append(f"        inventory layout: {layout.value if layout else '?'} ({how})")
        elif isinstance(f.identity, FeigBus):
            answered = ", ".join(str(a) for a in sorted(f.identity.addresses))
            lines.append(
                f"    asked: FEIG readers answered at COM-ADR {answered} "
                f"({FEIG_BAUD} baud, parity {f.identity.parity.value})"
            )
            for r in f.identity.readers:
                other = "" if r.profiled else " (not a model the shipped profiles were written for)"
                lines.append(f"      COM-ADR {r.adr}: {r}{other}")
        else:
            lines.append(f"    {'asked: ' if f.asked else ''}{f.note}")
        if f.identity is not None:
            names = [n + " (simulator)" if n.startswith("sim-") else n for n in f.profiles]
            lines.append(f"    fits: {', '.join(names) or 'none of the shipped profiles'}")
        for why in f.mismatches:
            lines.append(f"    not {why}")
        if isinstance(f.identity, UhfBus) and not f.profiles and f.mismatches:
            lines.append(
                "    (a profile of another variant: copy it and set inventory-layout and "
                "select-antenna as above, docs/PROFILES.md)"
            )
        elif isinstance(f.identity, UhfBus) and not f.profiles:
            lines.append(
                "    (a bus profile needs readers at addresses 0, 1, 2 …: antenna n is on "
                "address (n-1) div 8; set each reader's address, docs/PROFILES.md)"
            )
        elif isinstance(f.identity, FeigBus) and not f.profiles and not f.mismatches:
            lines.append(
                "    (a FEIG profile needs a reader at each COM-ADR 0, 1, 2 …: antenna n is the "
                "reader at n - 1; set each reader's address, docs/PROFILES.md)"
            )
    readers = [f for f in findings if f.profiles and not isinstance(f.identity, TableBoard)]
    tables = [f for f in findings if isinstance(f.identity, TableBoard)]
    # the table board's port: a USB serial port that is no reader (a bare UART rarely is)
    others = [f.what for f in findings if f.identity is None and f.label and f.what[:4] != "USB "]
    lines.append("")
    if not readers:
        if any(isinstance(f.identity, UhfBus | FeigBus | Pn53x) for f in findings):
            lines.append(
                "no shipped reader profile fits the readers that answered (docs/PROFILES.md)"
            )
        else:
            lines.append("no reader identified (name a port to ask it: mjtable probe --port PATH)")
        return lines
    for f in readers:
        lines.append("start with:")
        lines.append(f"    {run_line(f, tables[0] if tables else None)}")
    if not tables:
        lines.append(
            "no table board answered: --table none runs a table without a serial link (the "
            "reader's profile says how players declare; --declarations cards or tiles where "
            "it says buttons); a table with a board: --table PORT --profile TABLE-PROFILE"
        )
    if not tables and others:
        lines.append(
            f"the table board may be on: {', '.join(others)} (name it with --port to ask it "
            "with the table profiles' identify command)"
        )
    lines.append("TAG-MAP: your tiles' tag map (mjtable enroll writes one)")
    lines.append("then: mjtable calibrate (docs/PROFILES.md) before the first session")
    return lines
