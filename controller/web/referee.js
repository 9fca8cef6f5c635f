// The referee view: the board with every hand, the wall, alerts, the journal tail, and the
// actions that put a deal right (sent as JSON; the daemon journals each as a correction and
// re-judges the deal; every correction listed can be undone).
"use strict";

function localTime(iso) {
  const t = new Date(iso);
  return isNaN(t) ? iso : t.toLocaleTimeString();
}

const SEAT_WORDS = { E: "East", S: "South", W: "West", N: "North" };

// every phrase this page writes itself (the call's own words come from the daemon:
// controller/daemon/referee_call.py)
const WORDS = {
  fromCall: "chosen from the referee call",
  recorded: "Recorded",
  undoBelow: " Undo it under “Corrections” if it was wrong.",
  refused: "Refused: ",
  notSent: "Not sent: ",
  undo: "Undo",
  settled: (deal) => "Deal " + deal + " (settled)",
  loggedOut: "Not recorded: your login has ended (wrong token, or the table restarted). Log in again: ",
  tooMany: "Not recorded: too many wrong tokens from this device; wait a minute and log in again.",
  failed: (status) => "Not recorded: the table answered " + status + ".",
};

function seatWords(seat) {
  return SEAT_WORDS[seat] || seat || "nobody";
}

// "E · Ann" in the seat pickers (the value stays the seat letter)
function nameSeats(players) {
  for (const select of document.querySelectorAll("select[name=seat], select[name=paid_to]")) {
    for (const option of select.options) {
      const seat = option.value || (option.text.length === 1 ? option.text : "");
      if (!players[seat]) continue;
      option.value = seat;
      const label = seat + " · " + players[seat];
      if (option.text !== label) option.text = label;
    }
  }
}

// a journal panel line: "seq<TAB>wall time<TAB>the record in words" (controller/daemon/contracts.py)
function journalLine(line) {
  const parts = line.split("\t");
  const li = MJ.el("li", "");
  if (parts.length < 3) {
    li.textContent = line;
    return li;
  }
  li.appendChild(MJ.el("span", "muted", "#" + parts[0] + " " + localTime(parts[1]) + " "));
  li.appendChild(MJ.el("span", "", parts.slice(2).join(" ")));
  return li;
}

// the call fills the top: its headline, the candidates as large buttons (best first), the
// details folded; all from the one `call` value the daemon sends
function drawCall(call) {
  const box = document.getElementById("call");
  box.hidden = !call;
  document.getElementById("no-call").hidden = !!call;
  const manual = document.getElementById("manual");
  if (!call) {
    box.dataset.id = "";
    return;
  }
  if (box.dataset.id !== String(call.id)) manual.open = !call.candidates.some(answerOf);
  box.dataset.id = String(call.id);
  box.classList.toggle("answered", !!call.answered);
  document.getElementById("call-status").textContent = call.status;
  document.getElementById("call-headline").textContent = call.headline;
  document.getElementById("candidates").replaceChildren(
    ...call.candidates.map((c, i) => {
      const li = MJ.el("li", "candidate");
      const action = answerOf(c);
      if (action) {
        const apply = MJ.el("button", i === 0 ? "apply best" : "apply", c.text);
        apply.type = "button";
        apply.addEventListener("click", () => post({ note: WORDS.fromCall, call: call.id, ...action }, null));
        li.appendChild(apply);
      } else {
        li.appendChild(MJ.el("p", "hint", c.text));
      }
      return li;
    }),
  );
  document.getElementById("call-diffs").replaceChildren(...call.details.map((d) => MJ.el("li", "", d)));
  document.getElementById("call-cause").textContent = call.cause;
}

// the referee action a candidate's button sends (null: it only says what to look at)
function answerOf(c) {
  if (c.move) return { kind: "move", ...c.move };
  return c.action || null;
}

function drawSide(view) {
  const players = {};
  for (const s of view.public.seats) players[s.seat] = s.player;
  nameSeats(players);
  const alerts = document.getElementById("alerts");
  alerts.replaceChildren(
    ...view.alerts.map((a) => {
      const li = MJ.el("li", "alert " + a.level);
      li.appendChild(MJ.el("span", "muted", "#" + a.seq + " " + localTime(a.t_wall) + " "));
      li.appendChild(MJ.el("span", "", a.text));
      return li;
    }),
  );
  document.getElementById("wall-count").textContent = view.wall_remaining.length + " tiles";
  document.getElementById("wall").replaceChildren(...view.wall_remaining.map((t) => MJ.tile(t, "small")));
  const journal = document.getElementById("journal");
  journal.replaceChildren(...view.journal_tail.slice().reverse().map(journalLine));
  const heads = (view.heads || []).map((h) => "deal " + h.deal + " — " + h.seq + ":" + h.hash);
  document.getElementById("heads").replaceChildren(...heads.map((line) => MJ.el("li", "", line)));
  drawCall(view.call);
  document.getElementById("corrections").replaceChildren(...(view.corrections || []).map(correctionItem));
  // the last settled deal's corrections stay undoable until dismissed (this tab remembers)
  const settled = view.settled_deal || 0;
  const shown = settled && (view.settled_corrections || []).length && sessionStorage.getItem("dismissed") !== String(settled);
  document.getElementById("settled-box").hidden = !shown;
  document.getElementById("settled-title").textContent = shown ? WORDS.settled(settled) : "";
  document.getElementById("settled").replaceChildren(...(shown ? view.settled_corrections : []).map(correctionItem));
  document.getElementById("dismiss").dataset.deal = String(settled);
}

function correctionItem(c) {
  const li = MJ.el("li", c.active ? "correction" : "correction undone", c.text + " ");
  if (c.active) {
    const undo = MJ.el("button", "undo", WORDS.undo);
    undo.type = "button";
    undo.addEventListener("click", () => post({ kind: "undo", target_seq: c.seq }, null));
    li.appendChild(undo);
  }
  // a settled deal's correction: what its Undo does now (the daemon's words)
  if (c.undo_means) li.appendChild(MJ.el("small", "undo-means", c.undo_means));
  return li;
}

document.getElementById("dismiss").addEventListener("click", (ev) => {
  sessionStorage.setItem("dismissed", ev.target.dataset.deal || "");
  document.getElementById("settled-box").hidden = true;
});

const QUESTIONS = {
  penalty: (d) =>
    `${seatWords(d.seat)} pays ${d.points} point${d.points === 1 ? "" : "s"} to ` +
    `${d.paid_to ? seatWords(d.paid_to) : "nobody"} (${d.note}). Apply? ` +
    "It is journalled and can be undone under “Corrections”.",
  abandon: (d) =>
    `End the deal here? Payments made so far stand (${d.note}). ` +
    "It can be undone under “Corrections”.",
};

async function post(data, form) {
  const out = document.getElementById("action-result");
  try {
    const reply = await fetch("/referee/api/action", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
    });
    if (reply.status === 401 || reply.status === 429) {
      out.className = "action-result bad";
      out.textContent = reply.status === 401 ? WORDS.loggedOut : WORDS.tooMany;
      const again = MJ.el("a", "", "/referee/login");
      again.href = "/referee/login";
      if (reply.status === 401) out.appendChild(again);
      return;
    }
    const result = await reply.json().catch(() => null);
    if (!result) {
      out.className = "action-result bad";
      out.textContent = WORDS.failed(reply.status);
      return;
    }
    out.className = "action-result " + (result.accepted ? "ok" : "bad");
    out.textContent = result.accepted
      ? WORDS.recorded + (result.seq !== null ? " as #" + result.seq : "") + "." +
        (result.detail ? " " + result.detail + "." : "") +
        (data.kind === "penalty" || data.kind === "abandon" ? WORDS.undoBelow : "")
      : WORDS.refused + (result.detail || result.reason);
    if (result.accepted && form) form.reset();
  } catch (err) {
    out.className = "action-result bad";
    out.textContent = WORDS.notSent + err;
  }
}

for (const form of document.querySelectorAll("form[data-kind]")) {
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const data = { kind: form.dataset.kind };
    for (const [key, value] of new FormData(form).entries()) {
      if (value === "") continue;
      data[key] = ["points", "target_seq", "count"].includes(key) ? Number(value) : value;
    }
    const ask = QUESTIONS[form.dataset.confirm];
    if (ask) {
      if (!window.confirm(ask(data))) return;
      data.confirmed = true;
    }
    post(data, form);
  });
}

Promise.allSettled([MJ.loadSprite(), MJ.loadWords()]).finally(() => {
  MJ.follow("/referee/events", "/referee/api/view", (view) => {
    MJ.render(view.public, { hands: view.hands, note: "referee" });
    drawSide(view);
  });
});
