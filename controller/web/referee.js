// The referee view: the board with every hand, the wall, alerts, the journal tail, and the
// actions that put a deal right (sent as JSON; the daemon journals each as a correction and
// re-judges the deal; every correction listed can be undone).
"use strict";

function localTime(iso) {
  const t = new Date(iso);
  return isNaN(t) ? iso : t.toLocaleTimeString();
}

const { t, tn, say } = MJ;

// Every phrase this page writes itself, said in the page's own language (picked apart from
// the board's: `data-words` on the body); the call's sentences come from the daemon
// (controller/daemon/referee_call.py) and are said here with `say`.
const WORDS = {
  recorded: (seq) => (seq !== null ? t("Recorded as #{seq}.", { seq: seq }) : t("Recorded.")),
  // an undo names the row it struck through (its own record is no row of "Corrections")
  undone: (seq) => t("#{seq} undone: it no longer counts.", { seq: seq }),
  undoBelow: () => t("Undo it under “Corrections” if it was wrong."),
  refused: (why) => t("Refused: {why}", { why: why }),
  notSent: () =>
    t("Not sent: the table cannot be reached, nothing was recorded. Try again once the page says it is live."),
  gone: (status) =>
    status === 429
      ? t("Too many wrong tokens from this device: wait a minute and log in again.")
      : t("Your login has ended (the table restarted, or its token changed): this page no longer shows the table."),
  undo: () => t("Undo"),
  settled: (deal) => t("Deal {n} (settled)", { n: deal }),
  loggedOut: () => t("Not recorded: your login has ended (wrong token, or the table restarted). Log in again: "),
  tooMany: () => t("Not recorded: too many wrong tokens from this device; wait a minute and log in again."),
  failed: (status) => t("Not recorded: the table answered {status}.", { status: status }),
};
// the note journalled with an answer taken from the call: the record's words, not the page's
const FROM_CALL = "chosen from the referee call";
const HEADLINE_MAX = 120; // characters, as the daemon cuts its own (referee_call.py)

function seatWords(seat) {
  return seat ? MJ.seatWords(seat) : t("nobody");
}

// An alert as the daemon words it, "Stalled: West holds 15 tiles": its title (a catalog
// message, controller/words.py ALERT_TITLES) said in the page's language, the message as
// written
function alertWords(text) {
  const i = text.indexOf(": ");
  if (i < 0) return t(text);
  return t("{title}: {message}", { title: t(text.slice(0, i)), message: text.slice(i + 2) });
}

// a headline said in a language other than the daemon's, cut at a word as the daemon cuts
function shorten(text) {
  text = text.split(/\s+/).join(" ").trim();
  if (text.length <= HEADLINE_MAX) return text;
  const cut = text.slice(0, HEADLINE_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return (space > HEADLINE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[,;:—\- ]+$/, "") + "…";
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

// a journal panel line: "seq<TAB>wall time<TAB>the record in words<TAB>the same as a
// sentence (JSON)" (controller/daemon/contracts.py tail_line), said in the page's language
function journalLine(line) {
  const parts = line.split("\t");
  const li = MJ.el("li", "");
  if (parts.length < 3) {
    li.textContent = line;
    return li;
  }
  let words = parts.slice(2).join(" ");
  if (parts.length > 3 && parts[parts.length - 1].startsWith("{")) {
    try {
      words = say(JSON.parse(parts[parts.length - 1]));
    } catch (e) {
      words = parts.slice(2, -1).join(" ");
    }
  }
  li.appendChild(MJ.el("span", "muted", "#" + parts[0] + " " + localTime(parts[1]) + " "));
  li.appendChild(MJ.el("span", "", words));
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
  if (box.dataset.id !== String(call.id)) {
    manual.open = !call.candidates.some(answerOf);
    // a new call starts a clean form: the last call's seat, move and why were sent again by
    // a referee in a hurry (a form being typed in is left alone)
    for (const form of document.querySelectorAll("form[data-kind]")) {
      if (!form.contains(document.activeElement)) form.reset();
    }
  }
  box.dataset.id = String(call.id);
  box.classList.toggle("answered", !!call.answered);
  // the call's sentences in the page's language (`words`), else as the daemon wrote them
  const words = call.words || {};
  const said = (key, english) => (words[key] ? say(words[key]) : english);
  document.getElementById("call-status").textContent = said("status", call.status);
  document.getElementById("call-headline").textContent = words.headline ? shorten(say(words.headline)) : call.headline;
  document.getElementById("candidates").replaceChildren(
    ...call.candidates.map((c, i) => {
      const li = MJ.el("li", "candidate");
      const action = answerOf(c);
      const w = (words.candidates || [])[i];
      const text = w ? say(w.text) : c.text;
      if (action) {
        const apply = MJ.el("button", i === 0 ? "apply best" : "apply", text);
        apply.type = "button";
        apply.addEventListener("click", () => answer(call.id, action));
        li.appendChild(apply);
      } else {
        li.appendChild(MJ.el("p", "hint", text));
      }
      return li;
    }),
  );
  const details = words.details ? words.details.map(say) : call.details;
  document.getElementById("call-diffs").replaceChildren(...details.map((d) => MJ.el("li", "", d)));
  document.getElementById("call-cause").textContent = said("cause", call.cause);
}

// a candidate's button tapped: its action sent as the answer to the call; one that ends the
// deal (or charges points) asks first, as its form does, and is sent confirmed
function answer(id, action) {
  const data = { note: FROM_CALL, call: id, ...action };
  const ask = QUESTIONS[action.kind];
  if (ask) {
    if (!window.confirm(ask({ ...data, note: t(FROM_CALL) }))) return;
    data.confirmed = true;
  }
  post(data, null);
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
      li.appendChild(MJ.el("span", "", a.words ? say(a.words) : alertWords(a.text)));
      return li;
    }),
  );
  const left = view.wall_remaining.length;
  document.getElementById("wall-count").textContent = tn("{n} tile", "{n} tiles", left);
  document.getElementById("wall").replaceChildren(...view.wall_remaining.map((t) => MJ.tile(t, "small")));
  const journal = document.getElementById("journal");
  journal.replaceChildren(...view.journal_tail.slice().reverse().map(journalLine));
  // deals named as the board names them, in the session ("Deal 3"), not by the journal's count
  const heads = (view.heads || []).map((h) =>
    t("deal {n} — {anchor}", { n: h.session_deal || h.deal, anchor: h.seq + ":" + h.hash }),
  );
  document.getElementById("heads").replaceChildren(...heads.map((line) => MJ.el("li", "", line)));
  drawCall(view.call);
  // a chow is offered only where the rules have chows (Wellness), never in Sichuan
  const chow = document.querySelector("#move-form option[value=chow]");
  chow.hidden = chow.disabled = !view.chows;
  document.getElementById("corrections").replaceChildren(...(view.corrections || []).map(correctionItem));
  // the last settled deal's corrections stay undoable until dismissed (this tab remembers)
  const settled = view.settled_deal || 0;
  const shown = settled && (view.settled_corrections || []).length && sessionStorage.getItem("dismissed") !== String(settled);
  document.getElementById("settled-box").hidden = !shown;
  document.getElementById("settled-title").textContent = shown ? WORDS.settled(view.settled_number || settled) : "";
  document.getElementById("settled").replaceChildren(...(shown ? view.settled_corrections : []).map(correctionItem));
  document.getElementById("dismiss").dataset.deal = String(settled);
}

function correctionItem(c) {
  const li = MJ.el("li", c.active ? "correction" : "correction undone", (c.words ? say(c.words) : c.text) + " ");
  if (c.active) {
    const undo = MJ.el("button", "undo", WORDS.undo());
    undo.type = "button";
    undo.addEventListener("click", () => post({ kind: "undo", target_seq: c.seq }, null));
    li.appendChild(undo);
  }
  // a settled deal's correction: what its Undo does now (the daemon's words)
  if (c.undo_means) li.appendChild(MJ.el("small", "undo-means", c.undo_words ? say(c.undo_words) : c.undo_means));
  return li;
}

document.getElementById("dismiss").addEventListener("click", (ev) => {
  sessionStorage.setItem("dismissed", ev.target.dataset.deal || "");
  document.getElementById("settled-box").hidden = true;
});

const QUESTIONS = {
  penalty: (d) =>
    tn(
      "{seat} pays {n} point to {payee} ({note}). Apply? It is journalled and can be undone under “Corrections”.",
      "{seat} pays {n} points to {payee} ({note}). Apply? It is journalled and can be undone under “Corrections”.",
      d.points,
      { seat: seatWords(d.seat), payee: seatWords(d.paid_to), note: d.note },
    ),
  abandon: (d) =>
    t("End the deal here? Payments made so far stand ({note}). It can be undone under “Corrections”.", {
      note: d.note,
    }),
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
      out.textContent = reply.status === 401 ? WORDS.loggedOut() : WORDS.tooMany();
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
    // the daemon's detail: its sentence (`words`) said in the page's language, else the
    // catalog's words for it when it has them
    const detail = result.words ? say(result.words) : result.detail ? t(result.detail) : "";
    out.textContent = result.accepted
      ? (data.kind === "undo" ? WORDS.undone(data.target_seq) : WORDS.recorded(result.seq)) +
        (detail ? " " + detail + "." : "") +
        (data.kind === "penalty" || data.kind === "abandon" ? " " + WORDS.undoBelow() : "")
      : WORDS.refused(detail || t(result.reason));
    if (result.accepted && form) form.reset();
  } catch {
    out.className = "action-result bad";
    out.textContent = WORDS.notSent();
  }
}

// a void chosen by the table's button lays no tile: the form asks its suit instead
const moveForm = document.getElementById("move-form");
const voidSuit = document.getElementById("void-suit");
moveForm.elements.move.addEventListener("change", () => {
  voidSuit.hidden = moveForm.elements.move.value !== "void";
  if (voidSuit.hidden) moveForm.elements.suit.value = "";
});
moveForm.addEventListener("reset", () => (voidSuit.hidden = true));

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

let lastView = null;
// the language picked again on the page: the page's own parts said in it at once
document.addEventListener("mj:words", () => {
  if (lastView) drawSide(lastView);
});

Promise.allSettled([MJ.loadSprite(), MJ.loadWords()]).finally(() => {
  MJ.follow(
    "/referee/events",
    "/referee/api/view",
    (view) => {
      lastView = view;
      MJ.render(view.public, { hands: view.hands, note: t("referee") });
      drawSide(view);
    },
    null,
    (status) => {
      // nothing of the old table stays to be tapped: only why, and the way back in
      for (const id of ["call", "no-call", "manual"]) document.getElementById(id).hidden = true;
      document.getElementById("gone-why").textContent = WORDS.gone(status);
      document.getElementById("gone").hidden = false;
    },
  );
});
