"""The table state machine: the phases of a table, built with `transitions`, and its timers.

Phases (DESIGN.md): offline → idle → shuffling → walls_up → dice_rolled → dealing →
choosing_void → playing{awaiting_draw, awaiting_discard, claim_window, robbing_window} →
deal_over → settled → shuffling …, plus `degraded` (a device is lost) and `paused` (the
referee stopped play); both return to the phase they interrupted.

The machine decides *when* (phases, the claim window, the move clock); the deal judge
(`rules`) decides *what is legal*. Timers run on the injected clock: `tick()` fires what is
due, so tests move a fake clock instead of sleeping. While degraded or paused, timers are
frozen and resume with the time they had left.

`docs/STATE-MACHINE.md` is generated from this module (`python -m tools.gen_state_diagram`).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import transitions

from controller.clock import Clock
from rules import moves as mv
from rules.deal_state import Phase
from rules.melds import MeldKind


def _nesting() -> ModuleType:
    """`transitions.extensions.nesting` without running `transitions.extensions/__init__`,
    which imports every extension and with them asyncio and ssl: 2 MB of the daemon's
    resident memory (7 MB in a bare interpreter) and ~15 ms of its start-up for nothing it
    uses (nesting needs only `transitions.core`). Registered under its own name, so a later `import
    transitions.extensions` (the diagram, `TableMachine.mermaid`) shares its classes. Where
    the package is laid out otherwise, the ordinary import."""
    name = "transitions.extensions.nesting"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(transitions.__file__).parent / "extensions" / "nesting.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None or not path.is_file():
        import transitions.extensions.nesting as module

        return module
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


if TYPE_CHECKING:  # the same classes, for the type checker (it cannot follow `_nesting`)
    from transitions.extensions.nesting import HierarchicalMachine, NestedState
else:
    _nested = _nesting()
    HierarchicalMachine = _nested.HierarchicalMachine
    NestedState = _nested.NestedState


class _DotState(NestedState):
    # transitions' default '_' separator breaks child names that contain '_'.
    separator = "."


class _Machine(HierarchicalMachine):
    state_cls = _DotState


def _graph_machine(**kwargs: Any) -> Any:
    """The same machine with transitions' diagram support, only to draw it: keeping the graph
    up to date on every transition cost the daemon's start-up ~0.1 s (imports excluded)."""
    from transitions.extensions import HierarchicalGraphMachine

    class _GraphMachine(HierarchicalGraphMachine):
        state_cls = _DotState

    return _GraphMachine(
        graph_engine="mermaid", title="mjtable table state machine", show_conditions=False, **kwargs
    )


PLAY = "playing"
AWAITING_DRAW = "playing.awaiting_draw"
AWAITING_DISCARD = "playing.awaiting_discard"
CLAIM_WINDOW = "playing.claim_window"
ROBBING_WINDOW = "playing.robbing_window"
INTERRUPTIONS = ("degraded", "paused")

# the judge's phase -> the table's phase: the one mapping (the live core, a restart's replay)
JUDGE_PHASES: dict[Phase, str] = {
    Phase.CHOOSING_VOID: "choosing_void",
    Phase.DRAW: AWAITING_DRAW,
    Phase.REPLACEMENT: AWAITING_DRAW,
    Phase.DISCARD: AWAITING_DISCARD,
    Phase.CLAIMS: CLAIM_WINDOW,
    Phase.ROBBING: ROBBING_WINDOW,
    Phase.OVER: "deal_over",
}
# an open window closes with no claim taken: the next move (a pass, the close, the next draw)
WINDOW_CLOSES = {CLAIM_WINDOW: "claims_passed", ROBBING_WINDOW: "robbing_closed"}

STATES: list[str | dict[str, Any]] = [
    "offline",
    "idle",
    "shuffling",
    "walls_up",
    "dice_rolled",
    "dealing",
    "choosing_void",
    {
        "name": PLAY,
        "children": ["awaiting_draw", "awaiting_discard", "claim_window", "robbing_window"],
        "initial": "awaiting_draw",
    },
    "deal_over",
    "settled",
    "degraded",
    "paused",
]

# trigger, source(s), destination — events are past-tense facts from devices or the judge.
TRANSITIONS: list[tuple[str, str | list[str], str]] = [
    ("devices_ready", "offline", "idle"),
    # a shuffle may also restart one that did not lead to a deal (no wall scan, a fault)
    (
        "shuffle_started",
        ["idle", "settled", "deal_over", "shuffling", "walls_up", "dice_rolled"],
        "shuffling",
    ),
    ("walls_raised", ["idle", "shuffling"], "walls_up"),
    ("dice_rolled", "walls_up", "dice_rolled"),
    ("dealing_started", "dice_rolled", "dealing"),
    ("deal_complete", "dealing", "choosing_void"),
    # East's first turn starts with 14 tiles: a discard (or kong, or heavenly Hu) is due.
    ("voids_chosen", "choosing_void", AWAITING_DISCARD),
    ("drawn", [AWAITING_DRAW, CLAIM_WINDOW], AWAITING_DISCARD),
    ("discarded", AWAITING_DISCARD, CLAIM_WINDOW),
    ("claims_passed", CLAIM_WINDOW, AWAITING_DRAW),
    ("pung_claimed", CLAIM_WINDOW, AWAITING_DISCARD),
    ("kong_claimed", CLAIM_WINDOW, AWAITING_DRAW),  # the replacement draw is due
    ("hu_claimed", CLAIM_WINDOW, AWAITING_DRAW),
    ("concealed_kong_declared", AWAITING_DISCARD, AWAITING_DRAW),
    ("added_kong_declared", AWAITING_DISCARD, ROBBING_WINDOW),  # promoted / postponed
    ("robbing_closed", ROBBING_WINDOW, AWAITING_DRAW),
    ("kong_robbed", ROBBING_WINDOW, AWAITING_DRAW),
    ("self_drawn_hu", AWAITING_DISCARD, AWAITING_DRAW),
    ("deal_ended", [PLAY, "choosing_void", "dealing"], "deal_over"),
    ("settlement_done", "deal_over", "settled"),
]


class Timer(Enum):
    CLAIM = "claim"  # the claim window after a discard (rule set: play.claim_seconds)
    ROBBING = "robbing"  # the window to rob a promoted/postponed kong
    MOVE = "move"  # the per-move clock (rule set: play.move_seconds; 0 = none)


@dataclass(frozen=True, slots=True)
class TimerFired:
    timer: Timer
    phase: str
    t: float


class TableMachine:
    """Phases and timers of one table.

    `on_timer(TimerFired)` is called from `tick()` when a window closes on time or the move
    clock runs out (once per move). The owner (the daemon) then asks the judge what follows
    and triggers the next transition.
    """

    def __init__(
        self,
        clock: Clock,
        claim_seconds: float,
        move_seconds: float = 0.0,
        on_timer: Callable[[TimerFired], None] | None = None,
        initial: str = "offline",
        graph: bool = False,
    ) -> None:
        self.clock = clock
        self.claim_seconds = claim_seconds
        self.move_seconds = move_seconds
        self.on_timer = on_timer or (lambda fired: None)
        self._deadlines: dict[Timer, float] = {}
        self._frozen: dict[Timer, float] = {}
        self._resume: str | None = None
        self._held = False  # a referee call stands: the timers do not run
        self._ticked = clock.monotonic()
        self.state: str = initial
        build = _graph_machine if graph else _Machine
        self._machine = build(model=self, states=STATES, initial=initial, auto_transitions=False)
        for trigger, source, dest in TRANSITIONS:
            self._machine.add_transition(trigger, source, dest, after="_arm_timers")
        interruptible = [s for s in _leaf_states() if s not in INTERRUPTIONS]
        playing_phases = [s for s in interruptible if s != "offline"]
        self._machine.add_transition("device_lost", playing_phases, "degraded", before="_interrupt")
        self._machine.add_transition("device_back", "degraded", "=", after="_restore")
        self._machine.add_transition(
            "referee_paused", [*interruptible, "degraded"], "paused", before="_interrupt"
        )
        self._machine.add_transition("referee_resumed", "paused", "=", after="_restore")

    # --- queries -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.state

    @property
    def interrupted_phase(self) -> str | None:
        """The phase a degraded/paused table returns to."""
        return self._resume

    def can(self, trigger: str) -> bool:
        return bool(getattr(self, f"may_{trigger}")())

    def resync(self, target: str) -> None:
        """Put the table at the judge's phase `target` (a phase of play, or choosing the
        voids) when no table event led there: a restart whose replayed moves a kill cut off
        from their phase records, a referee's corrections that rebuilt the deal. The
        phase's timers start afresh."""
        if target not in _RESYNC:
            raise ValueError(f"resync only to a phase of play, not {target}")
        self._machine.set_state(target, model=self)
        self._arm_timers()

    def rearm(self) -> None:
        """Start the current phase's timers afresh (after a restart rebuilt the phase)."""
        self._arm_timers()

    def remaining(self, timer: Timer) -> float | None:
        """Seconds left on a running (or frozen) timer, None if it is not set."""
        if timer in self._frozen:
            return self._frozen[timer]
        deadline = self._deadlines.get(timer)
        if deadline is None:
            return None
        return max(0.0, deadline - self.clock.monotonic())

    # --- time ----------------------------------------------------------------------
    def hold(self, on: bool) -> None:
        """While `on` (a referee call stands) the timers stand still: the claim window does
        not close on time and no seat runs over time while the table waits for the
        referee; they run on with the time they had left (issue 27 item 4)."""
        self._held = on

    def tick(self) -> list[TimerFired]:
        """Fire every timer that is due; returns what fired (also passed to on_timer)."""
        now = self.clock.monotonic()
        if self._held:  # the time since the last tick does not count
            waited = now - self._ticked
            self._deadlines = {t: d + waited for t, d in self._deadlines.items()}
        self._ticked = now
        fired = []
        for timer, deadline in sorted(self._deadlines.items(), key=lambda kv: kv[1]):
            if now >= deadline:
                del self._deadlines[timer]
                event = TimerFired(timer, self.state, now)
                fired.append(event)
                self.on_timer(event)
        return fired

    def _arm_timers(self) -> None:
        now = self.clock.monotonic()
        self._deadlines.clear()
        if self.state == CLAIM_WINDOW:
            self._deadlines[Timer.CLAIM] = now + self.claim_seconds
        elif self.state == ROBBING_WINDOW:
            self._deadlines[Timer.ROBBING] = now + self.claim_seconds
        elif self.state in (AWAITING_DRAW, AWAITING_DISCARD) and self.move_seconds > 0:
            self._deadlines[Timer.MOVE] = now + self.move_seconds

    # --- interruptions ---------------------------------------------------------------
    def _interrupt(self) -> None:
        if self.state not in INTERRUPTIONS:
            self._resume = self.state
            now = self.clock.monotonic()
            self._frozen = {t: max(0.0, d - now) for t, d in self._deadlines.items()}
            self._deadlines.clear()

    def _restore(self) -> None:
        target = self._resume or "idle"
        self._resume = None
        self._machine.set_state(target, model=self)
        now = self.clock.monotonic()
        self._deadlines = {t: now + left for t, left in self._frozen.items()}
        self._frozen = {}

    # --- documentation -----------------------------------------------------------------
    def mermaid(self) -> str:
        """The diagram of the machine, generated from its definition."""
        if not hasattr(self._machine, "get_graph"):
            drawn = TableMachine(self.clock, self.claim_seconds, self.move_seconds, graph=True)
            return drawn.mermaid()
        return self._machine.get_graph().draw(None)


def _leaf_states() -> list[str]:
    names: list[str] = []
    for state in STATES:
        if isinstance(state, dict):
            names.extend(f"{state['name']}.{child}" for child in state["children"])
        else:
            names.append(str(state))
    return names


def _sources(source: str | list[str]) -> frozenset[str]:
    names = [source] if isinstance(source, str) else source
    leaves = _leaf_states()
    out: set[str] = set()
    for name in names:
        out.update(leaf for leaf in leaves if leaf == name or leaf.startswith(f"{name}."))
    return frozenset(out)


# (trigger, leaf sources, destination) of the phase transitions, for `follow`
_EDGES: tuple[tuple[str, frozenset[str], str], ...] = tuple(
    (trigger, _sources(source), dest) for trigger, source, dest in TRANSITIONS
)
_RESYNC = frozenset(JUDGE_PHASES.values()) - {"deal_over"}


def _dest(phase: str, trigger: str) -> str | None:
    """Where `trigger` leads from `phase`; None when it does not leave it."""
    return next((d for t, srcs, d in _EDGES if t == trigger and phase in srcs), None)


def fact_trigger(result: mv.Accepted) -> str | None:
    """The table's transition a move the judge accepted stands for: a window's answer read
    from the facts (a Hu, a claimed meld: whichever move closed the window), else the move's
    own (`_MOVE_TRIGGERS`; a kong by its kind). None: no transition of its own (a pass, a
    claim waiting for the window's close, a void, a penalty)."""
    for fact in result.facts:
        if isinstance(fact, mv.Won):
            if isinstance(result.move, mv.SelfDrawnHu):
                return "self_drawn_hu"
            robbed = any(isinstance(f, mv.Robbed) for f in result.facts)
            return "kong_robbed" if robbed else "hu_claimed"
        if isinstance(fact, mv.Melded) and fact.from_seat is not None:
            return "kong_claimed" if fact.meld.is_kong else "pung_claimed"  # pung or chow
    move = result.move
    if isinstance(move, mv.Kong) and move.kind is not MeldKind.KONG:
        concealed = move.kind is MeldKind.CONCEALED_KONG
        return "concealed_kong_declared" if concealed else "added_kong_declared"
    return _MOVE_TRIGGERS.get(type(move))


_MOVE_TRIGGERS: dict[type, str] = {
    mv.Draw: "drawn",
    mv.ReplacementDraw: "drawn",
    mv.Discard: "discarded",
}


def follow(phase: str, result: mv.Accepted, judge: Phase) -> list[str] | None:
    """The triggers that take the table from `phase` to the judge's phase after `result`:
    the deal's start the table did not say (the judge plays, so the hands were dealt and
    the voids chosen), the window the move closed with no claim, the move's own transition
    (`fact_trigger`), or the deal's end. None when they do not lead there."""
    target = JUDGE_PHASES[judge]
    if target == "deal_over":
        return ["deal_ended"] if _dest(phase, "deal_ended") else ([] if phase == target else None)
    steps: list[str] = []

    def fire(trigger: str) -> bool:
        nonlocal phase
        dest = _dest(phase, trigger)
        if dest is not None:
            steps.append(trigger)
            phase = dest
        return dest is not None

    if phase == "dealing":
        fire("deal_complete")
    if phase == "choosing_void" and target != "choosing_void":
        fire("voids_chosen")
    trigger = fact_trigger(result)
    closes = trigger is None or _dest(phase, trigger) is None  # not the window's own answer
    if phase in WINDOW_CLOSES and phase != target and closes:
        fire(WINDOW_CLOSES[phase])
    if trigger is not None and not fire(trigger):
        return None
    return steps if phase == target else None
