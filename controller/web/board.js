// The scoreboard's shared drawing code: tiles from the SVG sprite, seat panels, the status bar,
// the claim countdown and the live feed (server-sent events). Plain JS, no build step, nothing
// loaded from outside the table's computer. Data is written with textContent only (player
// names come from the operator), never parsed as HTML.
"use strict";

const MJ = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const WIND = { E: "East", S: "South", W: "West", N: "North" };
  const SUIT = { m: "Characters", p: "Dots", s: "Bamboo", z: "Honours" };
  const PHASES = {
    offline: "Table offline",
    idle: "Idle",
    shuffling: "Shuffling",
    walls_up: "Walls up",
    dice_rolled: "Dice rolled",
    dealing: "Dealing",
    choosing_void: "Choosing void suits",
    "playing.awaiting_draw": "Draw",
    "playing.awaiting_discard": "Discard",
    "playing.claim_window": "Claim window",
    "playing.robbing_window": "Robbing window",
    deal_over: "Deal over",
    settled: "Settled",
    degraded: "Device lost — waiting",
    paused: "Paused by the referee",
  };

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  async function loadSprite() {
    const reply = await fetch("/tiles/sprite.svg");
    const text = await reply.text();
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const sprite = document.importNode(doc.documentElement, true);
    sprite.setAttribute("class", "sprite");
    document.body.prepend(sprite);
  }

  // One tile: name "5p" or null for a face-down tile.
  function tile(name, extra) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 60 84");
    svg.setAttribute("class", "tile" + (extra ? " " + extra : ""));
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", name || "face-down");
    if (name) svg.dataset.tile = name;
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#t-" + (name || "back"));
    svg.appendChild(use);
    return svg;
  }

  function tiles(names, cls, extra) {
    const row = el("div", "tiles " + (cls || ""));
    for (const n of names) row.appendChild(tile(n, extra));
    return row;
  }

  // "pung 5s" → three 5s; a concealed kong is laid with its outer tiles face down.
  function meld(text) {
    const [kind, spec] = text.split(" ");
    const group = el("div", "meld meld-" + kind);
    group.title = text;
    let names;
    if (kind === "chow") {
      const suit = spec.slice(-1);
      names = spec.slice(0, -1).split("").map((r) => r + suit);
    } else if (kind.endsWith("kong")) {
      names = [spec, spec, spec, spec];
      if (kind === "concealed-kong") names = [null, spec, spec, null];
    } else {
      names = [spec, spec, spec];
    }
    for (const n of names) group.appendChild(tile(n));
    return group;
  }

  function signed(n) {
    return n > 0 ? "+" + n : String(n);
  }

  function ordinal(n) {
    return ["", "1st", "2nd", "3rd"][n] || n + "th";
  }

  function seatPanel(seat, view, hand) {
    const panel = el("section", "seat");
    panel.dataset.seat = seat.seat;
    if (view.turn === seat.seat) panel.classList.add("turn");
    if (seat.hu_order) panel.classList.add("won");

    const head = el("header", "seat-head");
    const wind = el("div", "wind", seat.seat);
    wind.title = WIND[seat.seat] || seat.seat;
    if (view.dealer === seat.seat) wind.classList.add("dealer");
    head.appendChild(wind);
    const who = el("div", "who");
    who.appendChild(el("div", "player", seat.player));
    const badges = el("div", "badges");
    if (view.dealer === seat.seat) badges.appendChild(el("span", "badge dealer-badge", "dealer"));
    if (seat.void) {
      const v = el("span", "badge void", "void " + (SUIT[seat.void] || seat.void));
      v.dataset.void = seat.void;
      badges.appendChild(v);
    }
    if (seat.hu_order) {
      badges.appendChild(el("span", "badge hu", "Hu " + ordinal(seat.hu_order)));
    }
    if (seat.hu_pattern) {
      // Wellness: the one pattern scored and the hand value, bonuses in the tooltip
      const p = el("span", "badge pattern", seat.hu_pattern + " " + seat.hu_value);
      p.title = (seat.hu_bonuses || []).join(", ") || "no bonus";
      badges.appendChild(p);
    }
    who.appendChild(badges);
    head.appendChild(who);
    const score = el("div", "score");
    score.appendChild(el("div", "total", seat.score));
    const delta = el("div", "delta", seat.deal_delta ? signed(seat.deal_delta) : "±0");
    delta.classList.add(seat.deal_delta > 0 ? "up" : seat.deal_delta < 0 ? "down" : "even");
    score.appendChild(delta);
    head.appendChild(score);
    panel.appendChild(head);

    const table = el("div", "seat-body");
    const handRow = el("div", "hand-row");
    if (hand) {
      handRow.appendChild(tiles(hand.standing, "hand"));
    } else if (!seat.hu_order) {
      const backs = [];
      for (let i = 0; i < seat.standing; i++) backs.push(null);
      const concealed = tiles(backs, "hand concealed");
      concealed.title = seat.standing + " concealed tiles";
      handRow.appendChild(concealed);
    }
    if (seat.hu_order && seat.hu_tile) {
      const won = el("div", "won-on", "Hu on");
      won.appendChild(tile(seat.hu_tile, "big"));
      handRow.appendChild(won);
    }
    const melds = el("div", "melds");
    for (const m of seat.melds) melds.appendChild(meld(m));
    handRow.appendChild(melds);
    table.appendChild(handRow);
    if (hand) table.appendChild(handInfo(hand, seat.void));

    const river = tiles(seat.discards, "river");
    if (view.last_discard && seat.discards.length && view.turn === seat.seat) {
      const last = river.lastElementChild;
      if (last && last.dataset.tile === view.last_discard) last.classList.add("last");
    }
    table.appendChild(river);
    panel.appendChild(table);
    return panel;
  }

  function handInfo(hand, revealed) {
    const info = el("div", "hand-info");
    // The void is shown here until it is revealed (then the seat's header shows it).
    if (hand.void && !revealed) info.appendChild(el("span", "badge void", "void " + (SUIT[hand.void] || hand.void)));
    if (hand.waits && hand.waits.length) {
      info.appendChild(el("span", "label", "waits"));
      info.appendChild(tiles(hand.waits, "waits", "small"));
      info.appendChild(el("span", "value", "max " + hand.max_value + " pts"));
    } else {
      info.appendChild(el("span", "label muted", "not ready"));
    }
    return info;
  }

  function statusBar(view, note) {
    const bar = el("header", "status");
    const title = el("div", "title");
    title.appendChild(el("span", "table-name", view.table));
    title.appendChild(el("span", "muted", "Session " + view.session + " · Deal " + view.deal));
    title.appendChild(el("span", "muted rules", view.rules));
    if (view.prevalent) {
      const round = el("span", "muted prevalent", "round wind " + view.prevalent);
      round.title = WIND[view.prevalent] || view.prevalent;
      title.appendChild(round);
    }
    bar.appendChild(title);
    const phase = el("div", "phase", PHASES[view.phase] || view.phase);
    phase.dataset.phase = view.phase;
    bar.appendChild(phase);
    if (view.referee_called) {
      // the deal waits for the referee (a reading no legal move explains)
      bar.appendChild(el("div", "referee-called", "Referee called"));
    }
    const wall = el("div", "wall-count");
    wall.appendChild(el("span", "n", view.tiles_left));
    wall.appendChild(el("span", "muted", " tiles left"));
    bar.appendChild(wall);
    const claim = el("div", "claim");
    claim.id = "claim";
    bar.appendChild(claim);
    const last = el("div", "last-discard");
    if (view.last_discard) {
      last.appendChild(el("span", "muted", "last discard"));
      last.appendChild(tile(view.last_discard, "big"));
    }
    bar.appendChild(last);
    if (note) bar.appendChild(el("div", "note", note));
    const live = el("div", "live", "live");
    live.id = "live";
    bar.appendChild(live);
    return bar;
  }

  // The claim window's countdown, counted down locally from the published remainder.
  let countdown = null;
  function startCountdown(remaining) {
    if (countdown) cancelAnimationFrame(countdown.frame);
    countdown = null;
    const box = document.getElementById("claim");
    if (!box) return;
    if (remaining === null || remaining === undefined) {
      box.replaceChildren();
      return;
    }
    const start = performance.now();
    const total = Math.max(remaining, 0.001);
    const label = el("span", "seconds");
    const barOuter = el("div", "bar");
    const barInner = el("div", "fill");
    barOuter.appendChild(barInner);
    box.replaceChildren(el("span", "muted", "claim"), label, barOuter);
    const step = () => {
      const left = Math.max(0, remaining - (performance.now() - start) / 1000);
      label.textContent = left.toFixed(1) + " s";
      barInner.style.width = (100 * left) / total + "%";
      if (left > 0) countdown = { frame: requestAnimationFrame(step) };
    };
    step();
  }

  function render(view, options) {
    const opts = options || {};
    const app = document.getElementById("app");
    const hands = {};
    for (const h of opts.hands || []) hands[h.seat] = h;
    const board = el("main", "board");
    for (const seat of view.seats) board.appendChild(seatPanel(seat, view, hands[seat.seat]));
    app.replaceChildren(statusBar(view, opts.note), board);
    app.dataset.state = "live";
    app.dataset.seq = view.seq;
    startCountdown(view.claim_remaining_s);
  }

  // Follow a feed: fetch the current state once, then every "view" event.
  function follow(feedUrl, apiUrl, onView, onEvent) {
    let lastSeq = -1;
    const take = (data) => {
      if (!data || data.kind === "none") return;
      onView(data);
    };
    fetch(apiUrl, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => {
        if (data && lastSeq < 0) take(data);
      })
      .catch(() => {});
    const source = new EventSource(feedUrl);
    source.addEventListener("view", (ev) => {
      lastSeq = Number(ev.lastEventId || 0);
      take(JSON.parse(ev.data));
      markLive(true);
    });
    if (onEvent) {
      source.addEventListener("meta", (ev) => onEvent("meta", JSON.parse(ev.data)));
    }
    source.onopen = () => markLive(true);
    source.onerror = () => markLive(false);
    return source;
  }

  function markLive(ok) {
    const live = document.getElementById("live");
    if (live) {
      live.classList.toggle("down", !ok);
      live.textContent = ok ? "live" : "reconnecting";
    }
  }

  return { el, tile, tiles, meld, render, follow, loadSprite, signed };
})();
