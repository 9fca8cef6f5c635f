"""What `mjtable run` shows in its terminal while it plays, and the results when it stops.

On a terminal: one status line, rewritten in place (table, session, deal n of N, the phase
in words, the seats' running scores); each alert printed above it as one short line with
its local time. Not on a terminal (a pipe, a log file): a plain line when a deal starts,
when it settles and for each alert. When the daemon stops: the deals of the sessions this
run played, one line each, and the totals, read from the journal with corrections applied.

Fed from the daemon's core thread with every published view (`RunStatus.view`); writing is
throttled on a terminal so a fast table does not spend its time redrawing. Said in the table's
language (`[table] language`, `mjtable run --lang`), but for "stopped: REASON", the line
scripts read.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from controller.locale import ENGLISH, Said, Translator
from controller.outputs.seat_display import running_score
from controller.outputs.view import AlertView, PublicView
from controller.words import alert_text, local_time, phase_words, table_name, waiting_words

if TYPE_CHECKING:
    from controller.journal.summary import DealSummary

REDRAW_S = 0.2  # the status line is redrawn at most this often (alerts are printed at once)


class RunStatus:
    def __init__(
        self, out: TextIO, tty: bool, clock: Any = None, width: int = 0, tr: Translator = ENGLISH
    ) -> None:
        import time

        self.tr = tr
        self.out = out
        self.tty = tty
        self.clock = clock or time.monotonic
        self.width = width
        self.sessions: list[int] = []  # the sessions seen, in order
        self._alert_seq = 0
        self._line = ""  # the status line as it is now
        self._drawn = ""  # ... and as last drawn
        self._drawn_at = -1e9
        self._deal: tuple[int, int] | None = None  # (session, deal) last announced
        self._settled: tuple[int, int] | None = None
        self._before: tuple[int, ...] | None = None  # session totals when the deal began
        # the core thread draws, any thread logs (`StatusLog`): one line written at a time
        self._lock = threading.RLock()

    # --- fed by the daemon --------------------------------------------------------------

    def view(self, public: PublicView, alerts: Sequence[AlertView]) -> None:
        if public.session and public.session not in self.sessions:
            self.sessions.append(public.session)
        new = [a for a in alerts if a.seq > self._alert_seq]
        if new:
            self._alert_seq = max(a.seq for a in new)
        if self.tty:  # the lines printed above it show the status as it is now
            self._line = fitted(status_lines(public, self.tr), self._columns())
        for a in new:
            self._print(alert_line(a, self.tr))
        settled = self._deals(public)
        if self.tty:
            now = self.clock()
            if new or settled or now - self._drawn_at >= REDRAW_S:
                self._draw(self._line)
                self._drawn_at = now

    def tick(self) -> None:
        """The status line as it is now, when a view came too soon after the last redraw."""
        if self.tty and self._line != self._drawn and self.clock() - self._drawn_at >= REDRAW_S:
            self._draw(self._line)
            self._drawn_at = self.clock()

    def _deals(self, public: PublicView) -> bool:
        """A line when a deal starts (not on a terminal: the status line says it there) and
        when it settles; True when a settlement was printed."""
        key = (public.session, public.deal)
        begun = public.phase in ("dealing", "choosing_void") or public.phase.startswith("playing")
        if public.deal and begun and key != self._deal:
            self._deal = key
            self._before = tuple(s.score for s in public.seats)
            if not self.tty:
                words = deal_words(public, self.tr).capitalize()
                self._print(
                    self.tr.gettext("{deal}: dealer {seat}").format(deal=words, seat=public.dealer)
                )
        if public.phase == "settled" and key != self._settled and public.deal:
            self._settled = key
            totals = "  ".join(f"{s.seat} {s.score:+d}" for s in public.seats)
            words = deal_words(public, self.tr).capitalize()
            if self._before is None:  # started during the deal: its start is not known here
                said = self.tr.gettext("{deal} settled (session: {totals})")
                self._print(said.format(deal=words, totals=totals))
                return True
            # at "settled" the deal's changes are in the session totals already
            scores = "  ".join(
                f"{s.seat} {s.score - b:+d}"
                for s, b in zip(public.seats, self._before, strict=True)
            )
            said = self.tr.gettext("{deal} settled: {scores}  (session: {totals})")
            self._print(said.format(deal=words, scores=scores, totals=totals))
            return True
        return False

    # --- writing --------------------------------------------------------------------------

    def _columns(self) -> int:
        return self.width or shutil.get_terminal_size((100, 24)).columns

    def _draw(self, line: str) -> None:
        with self._lock:
            self._drawn = line
            self.out.write("\r\x1b[2K" + line)
            self.out.flush()

    def _print(self, text: str) -> None:
        with self._lock:
            if self.tty:
                self.out.write("\r\x1b[2K" + cut(text, self._columns() - 1) + "\n")
                if self._line:
                    self.out.write(cut(self._line, self._columns() - 1))
            else:
                self.out.write(text + "\n")
            self.out.flush()

    def print_line(self, text: str) -> None:
        """A line above the status line (a log line): never written onto its end."""
        for line in text.splitlines() or [""]:
            self._print(line)

    def finish(self, reason: str, journal: Path | None) -> None:
        """The stop reason and the results of the sessions played, from the journal."""
        if self.tty:
            self.out.write("\r\x1b[2K")
        self.out.write(f"stopped: {reason}\n")  # a line scripts read, as it always was
        table = (
            results(journal, self.sessions, self.tr)
            if journal is not None and self.sessions
            else ""
        )
        if table:
            self.out.write(table)
        else:  # stopped before the first settlement: say so, and where the record is
            if journal is None:
                said = self.tr.gettext("No deal settled in this run")
            else:
                said = self.tr.gettext("No deal settled in this run; the journal is {path}")
            self.out.write(said.format(path=journal) + "\n")
        self.out.flush()


def status_lines(public: PublicView, tr: Translator = ENGLISH) -> list[str]:
    """The status line, longest first, each shorter one leaving out a little more."""
    phase = waiting_words(public.waiting_for, tr) or phase_words(public.phase, public.turn, tr)
    parts = [table_name(public.table, tr)]
    if public.session:
        parts.append(tr.gettext("Session {n}").format(n=public.session))
    if public.session_deal:
        parts.append(deal_words(public, tr).capitalize())
    parts.append(phase)
    if public.referee_called:
        parts.append(tr.gettext("REFEREE CALLED"))
    left = (
        [
            tr.ngettext("{n} tile left", "{n} tiles left", public.tiles_left).format(
                n=public.tiles_left
            )
        ]
        if public.deal and public.phase.startswith("playing")
        else []
    )
    named = "  ".join(f"{s.seat} {s.player} {running_score(public, s):+d}" for s in public.seats)
    bare = "  ".join(f"{s.seat} {running_score(public, s):+d}" for s in public.seats)
    return [
        " · ".join([*parts, *left]) + "  |  " + named,
        " · ".join([*parts, *left]) + "  |  " + bare,
        " · ".join(parts) + "  |  " + bare,
        " · ".join(parts[1:]) + " | " + bare,
        " ".join(
            [
                *([f"S{public.session}"] if public.session else []),
                *([f"D{public.session_deal}"] if public.session_deal else []),
                phase,
                "|",
                " ".join(f"{s.seat}{running_score(public, s):+d}" for s in public.seats),
            ]
        ),
    ]


def fitted(lines: Sequence[str], columns: int) -> str:
    """The first line that fits the terminal, else the last one cut to fit."""
    for line in lines:
        if width(line) < columns:
            return line
    return cut(lines[-1], max(columns - 1, 0))


def deal_words(public: PublicView, tr: Translator = ENGLISH) -> str:
    """The deal's number in its session, of the session's deals: deal 3 of 10."""
    n, limit = public.session_deal, public.session_deals
    if 0 < n <= limit:
        return tr.gettext("deal {n} of {total}").format(n=n, total=limit)
    return tr.gettext("deal {n}").format(n=n)


def alert_line(a: AlertView, tr: Translator = ENGLISH) -> str:
    """An alert as one short line in local time: ! 14:02:07 Stalled: West holds 15 tiles, in
    the table's language (an alert with no sentence: its title so, its message as written)."""
    mark = {"error": "!!", "warning": "!"}.get(a.level, "-")
    text = Said.from_json(a.words).say(tr) if a.words else alert_text(a.text, tr)
    return f"{mark} {local_time(a.t_wall)} {text}"


def results(journal: Path, sessions: Sequence[int], tr: Translator = ENGLISH) -> str:
    """A table per session: each deal's deltas (corrections applied) and the totals."""
    from controller.journal.records import JournalError
    from controller.journal.store import Journal
    from controller.referee.session import with_corrections

    try:
        with Journal.open_readonly(journal) as j:
            summaries = with_corrections(j)
    except JournalError as err:
        return tr.gettext("the results cannot be read: {error}").format(error=err) + "\n"
    out: list[str] = []
    for session in sessions:
        deals = [s for s in summaries if s.session == session and s.deltas is not None]
        if deals:
            out += session_table(session, deals, tr)
    return "".join(line + "\n" for line in out)


HEAD_COLUMNS = 12  # a player's column head, "E Ann", cut to this many terminal columns


def session_table(
    session: int, deals: Sequence[DealSummary], tr: Translator = ENGLISH
) -> list[str]:
    """One session's lines: its title, a head row of seats and players, a row per deal (its
    deltas, * when corrected), the totals. `deals`: settled deal summaries
    with deltas, in order. Columns are padded by terminal columns
    (`width` below): a Chinese name or word takes two a character."""
    names = deals[-1].players
    heads = [cut(f"{seat} {name}", HEAD_COLUMNS) for seat, name in zip("ESWN", names, strict=True)]
    widths = [max(6, width(h)) for h in heads]
    settled = tr.ngettext("{n} deal settled", "{n} deals settled", len(deals))
    deal, total = tr.gettext("deal"), tr.gettext("total")
    # the label column: "deal" and the deal numbers in it, "total" one column into the gap
    # after it (as the English table has always been), all widened for a longer word
    first = max(4, width(deal), width(total) - 1, len(str(len(deals))))

    def row(label: str, cells: Sequence[str], mark: str = "") -> str:
        """`label` with the gap after it (first + 2 columns), then the cells."""
        said = "  ".join(rjust(c, w) for c, w in zip(cells, widths, strict=True))
        return f"{label}{said}{mark}"

    out = [tr.gettext("Session {n}").format(n=session) + ": " + settled.format(n=len(deals))]
    out.append(row(ljust(deal, first) + "  ", heads))
    totals = [0, 0, 0, 0]
    for n, d in enumerate(deals, start=1):
        deltas = d.deltas or (0, 0, 0, 0)
        for i, v in enumerate(deltas):
            totals[i] += v
        cells = [f"{v:+d}" for v in deltas]
        out.append(row(rjust(str(n), first) + "  ", cells, " *" if d.corrected else ""))
    out.append(row(rjust(total, first + 1) + " ", [f"{v:+d}" for v in totals]))
    if any(d.corrected for d in deals):
        out.append(tr.gettext("* corrected by the referee"))
    return out


# --- text in a terminal's columns: a wide character (Chinese, fullwidth forms; Unicode's East
# Asian Width W and F) takes two columns, a combining mark none, so padding and cutting go by
# columns, not characters (a table padded by str.rjust leans wherever a Chinese name is)


def char_width(ch: str) -> int:
    import unicodedata  # only once text is measured: not among the daemon's start-up imports

    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """The columns `text` takes on a terminal."""
    return sum(char_width(ch) for ch in text)


def cut(text: str, columns: int) -> str:
    """The longest start of `text` that fits in `columns` (a wide character is not split)."""
    used = 0
    for i, ch in enumerate(text):
        used += char_width(ch)
        if used > columns:
            return text[:i]
    return text


def rjust(text: str, columns: int) -> str:
    return " " * max(columns - width(text), 0) + text


def ljust(text: str, columns: int) -> str:
    return text + " " * max(columns - width(text), 0)


class StatusLog(logging.Handler):
    """Log lines through the status's printer, above the status line: written straight to
    the terminal they landed on the end of it ("…N North -56 2026-11-28 04:06:26 WARNING")."""

    def __init__(self, status: RunStatus) -> None:
        super().__init__()
        self.status = status

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.status.print_line(self.format(record))
        except Exception:  # a log line must not stop the daemon
            self.handleError(record)
