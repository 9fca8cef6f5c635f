// The referee view: the board with every hand, the wall, alerts, the journal tail, and the
// actions that put a deal right (sent as JSON; the daemon journals each as a correction and
// re-judges the deal; every correction listed can be undone).
"use strict";

function localTime(iso) {
  const t = new Date(iso);
  return isNaN(t) ? iso : t.toLocaleTimeString();
}

const SEAT_WORDS = { E: "East", S: "South", W: "West", N: "North" };

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
  const called = document.getElementById("called");
  called.hidden = !view.called;
  called.textContent = view.called ? "Referee called — " + view.called : "";
  const offered = document.getElementById("candidates");
  offered.replaceChildren(
    ...(view.called ? view.candidates || [] : []).map((c) => {
      const li = MJ.el("li", "candidate", c.text + " ");
      if (c.move) {
        const apply = MJ.el("button", "apply", "Enter it");
        apply.type = "button";
        apply.addEventListener("click", () =>
          post({ kind: "move", note: "chosen from the referee call", ...c.move }, null),
        );
        li.appendChild(apply);
      } else if (c.action) {
        const apply = MJ.el("button", "apply", c.action.kind === "cancel" ? "Cancel it" : "Fix it");
        apply.type = "button";
        apply.addEventListener("click", () =>
          post({ note: "chosen from the referee call", ...c.action }, null),
        );
        li.appendChild(apply);
      }
      return li;
    }),
  );
  const list = document.getElementById("corrections");
  list.replaceChildren(
    ...(view.corrections || []).map((c) => {
      const li = MJ.el("li", c.active ? "correction" : "correction undone", c.text + " ");
      if (c.active) {
        const undo = MJ.el("button", "undo", "Undo");
        undo.type = "button";
        undo.addEventListener("click", () => post({ kind: "undo", target_seq: c.seq }, null));
        li.appendChild(undo);
      }
      return li;
    }),
  );
}

const QUESTIONS = {
  penalty: (d) =>
    `${seatWords(d.seat)} pays ${d.points} point${d.points === 1 ? "" : "s"} to ` +
    `${d.paid_to ? seatWords(d.paid_to) : "nobody"} (${d.note}). Apply? ` +
    "It is journalled and can be undone under “Corrections of this deal”.",
  abandon: (d) =>
    `End the deal here? Payments made so far stand (${d.note}). ` +
    "It can be undone under “Corrections of this deal”.",
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
    const result = await reply.json();
    out.className = "action-result " + (result.accepted ? "ok" : "bad");
    out.textContent = result.accepted
      ? "Recorded" + (result.seq !== null ? " as #" + result.seq : "") + "." +
        (result.detail ? " " + result.detail + "." : "") +
        (data.kind === "penalty" || data.kind === "abandon" ? " Undo it below if it was wrong." : "")
      : "Refused: " + (result.detail || result.reason);
    if (result.accepted && form) form.reset();
  } catch (err) {
    out.className = "action-result bad";
    out.textContent = "Not sent: " + err;
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
