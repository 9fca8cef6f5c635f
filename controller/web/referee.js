// The referee view: the board with every hand, the wall, alerts, the journal tail, and the
// penalty and correction forms (sent as JSON; the daemon journals them).
"use strict";

function drawSide(view) {
  const alerts = document.getElementById("alerts");
  alerts.replaceChildren(
    ...view.alerts.map((a) => {
      const li = MJ.el("li", "alert " + a.level);
      li.appendChild(MJ.el("span", "muted", "#" + a.seq + " " + a.t_wall + " "));
      li.appendChild(MJ.el("span", "", a.text));
      return li;
    }),
  );
  document.getElementById("wall-count").textContent = view.wall_remaining.length + " tiles";
  document.getElementById("wall").replaceChildren(...view.wall_remaining.map((t) => MJ.tile(t, "small")));
  const journal = document.getElementById("journal");
  journal.replaceChildren(...view.journal_tail.map((line) => MJ.el("li", "", line)));
}

async function sendAction(form, kind) {
  const data = { kind: kind };
  for (const [key, value] of new FormData(form).entries()) {
    if (value === "") continue;
    data[key] = key === "points" || key === "target_seq" ? Number(value) : value;
  }
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
      ? "Recorded" + (result.seq !== null ? " as #" + result.seq : "") + "."
      : "Refused: " + (result.detail || result.reason);
    if (result.accepted) form.reset();
  } catch (err) {
    out.className = "action-result bad";
    out.textContent = "Not sent: " + err;
  }
}

for (const [id, kind] of [["penalty-form", "penalty"], ["correction-form", "correction"]]) {
  document.getElementById(id).addEventListener("submit", (ev) => {
    ev.preventDefault();
    sendAction(ev.target, kind);
  });
}

MJ.loadSprite().finally(() => {
  MJ.follow("/referee/events", "/referee/api/view", (view) => {
    MJ.render(view.public, { hands: view.hands, note: "referee" });
    drawSide(view);
  });
});
