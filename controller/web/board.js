// The scoreboard's shared drawing code: tiles from the SVG sprite, seat panels laid out round
// the table, the status bar, the table's centre (the last action, the claim box and its
// countdown, a finished deal's result) and the live feed (server-sent events). Plain JS, no
// build step, nothing loaded from outside the table's computer. Data is written with
// textContent only (player names come from the operator), never parsed as HTML.
"use strict";

const MJ = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  // --- the page's language ----------------------------------------------------------------
  // The words come from the catalog the table serves for the page's language (GET
  // /words.json: the browser's Accept-Language, or the language picked on the page and kept
  // in localStorage), built from the same gettext catalogs as the terminal's
  // (controller/locale). A message the catalog lacks is said in English, its msgid.
  let WORDS = { language: "en", messages: {}, fault: null };
  const LANGUAGES = [
    ["", "Auto"],
    ["en", "English"],
    ["zh-CN", "中文"],
    ["ru", "Русский"],
  ];
  let lastRender = null;

  // Marks a message for extraction where a table defines it; t() says it where it is shown.
  function N_(message) {
    return message;
  }

  function fill(text, args) {
    return text.replace(/\{(\w+)\}/g, (m, k) => (args && k in args ? String(args[k]) : m));
  }

  function t(message, args) {
    const forms = WORDS.messages[message];
    return fill(forms && forms[0] ? forms[0] : message, args);
  }

  // gettext's plural categories, as controller/locale PLURALS numbers them
  function pluralIndex(n) {
    if (WORDS.language === "zh-CN") return 0;
    if (WORDS.language === "ru") {
      if (n % 10 === 1 && n % 100 !== 11) return 0;
      return n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14) ? 1 : 2;
    }
    return n === 1 ? 0 : 1;
  }

  function tn(one, many, n, args) {
    const forms = WORDS.messages[one];
    const i = pluralIndex(n);
    const text = forms && forms[i] ? forms[i] : n === 1 ? one : many;
    return fill(text, Object.assign({ n: n }, args || {}));
  }

  function storageKey() {
    return "mjtable.lang." + (document.body.dataset.words || "board");
  }

  async function loadWords() {
    let chosen = null;
    try {
      chosen = localStorage.getItem(storageKey());
    } catch (e) {
      chosen = null;
    }
    const url = "/words.json" + (chosen ? "?lang=" + encodeURIComponent(chosen) : "");
    try {
      const reply = await fetch(url, { credentials: "same-origin" });
      if (reply.ok) WORDS = await reply.json();
    } catch (e) {
      // an older daemon, or none yet: English
    }
    document.documentElement.lang = WORDS.language || "en";
    document.body.dataset.language = WORDS.language || "en";
    faultNote(WORDS.fault);
    languageSwitch(chosen || "");
    sayStatic();
    if (lastRender) render(lastRender[0], lastRender[1]);
    document.dispatchEvent(new Event("mj:words")); // a page's own parts say themselves again
  }

  // The page's own words: data-msgid="…" is an element's text, data-msgid-ATTR="…" its
  // attribute ATTR (data-msgid-placeholder, data-msgid-title, data-msgid-data-none)
  function sayStatic() {
    for (const node of document.querySelectorAll("*")) {
      for (const attr of Array.from(node.attributes)) {
        if (attr.name === "data-msgid") node.textContent = t(attr.value);
        else if (attr.name.startsWith("data-msgid-")) {
          node.setAttribute(attr.name.slice("data-msgid-".length), t(attr.value));
        }
      }
    }
  }

  // A sentence the daemon made (controller/locale `Said`: its msgid, what fills it, and
  // what an English reader reads instead, a tile's code), said in the page's language
  function say(said) {
    if (said === null || said === undefined) return "";
    if (typeof said !== "object") return String(said);
    if (said.en !== undefined && WORDS.language === "en") return said.en;
    const args = {};
    for (const [k, v] of Object.entries(said.args || {})) args[k] = say(v);
    if (said.plural !== undefined) return tn(said.msgid, said.plural, said.n, args);
    return t(said.msgid, args);
  }

  // A catalog that did not load: the page goes on in English and says why (in English: the
  // catalog that would say it is the one missing).
  function faultNote(fault) {
    let note = document.getElementById("words-fault");
    if (!fault) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = el("p", "words-fault");
      note.id = "words-fault";
      note.setAttribute("role", "alert");
      document.body.prepend(note);
    }
    note.textContent = fault;
  }

  // The viewer's choice of language, kept in this browser; "Auto" follows the browser's.
  function languageSwitch(chosen) {
    let box = document.getElementById("lang-switch");
    if (!box) {
      box = el("select", "lang-switch");
      box.id = "lang-switch";
      box.addEventListener("change", () => {
        try {
          if (box.value) localStorage.setItem(storageKey(), box.value);
          else localStorage.removeItem(storageKey());
        } catch (e) {
          // no storage (a private window): the choice lasts for this page only
        }
        loadWords();
      });
      document.body.appendChild(box);
    }
    box.title = t("Language");
    box.setAttribute("aria-label", t("Language"));
    box.replaceChildren(
      ...LANGUAGES.map(([code, name]) => {
        const option = el("option", "", code ? name : t("Auto"));
        option.value = code;
        return option;
      }),
    );
    box.value = chosen;
  }

  // --- the table's terms in the page's language (docs/GLOSSARY.md) ------------------------
  const HONOURS = {
    "1z": N_("East wind"),
    "2z": N_("South wind"),
    "3z": N_("West wind"),
    "4z": N_("North wind"),
    "5z": N_("White dragon"),
    "6z": N_("Green dragon"),
    "7z": N_("Red dragon"),
  };

  function seatWords(seat) {
    return WIND[seat] ? t(WIND[seat]) : String(seat || "?");
  }

  // The wind badge's one letter: E S W N in English as on the tiles, 东 南 西 北, В Ю З С
  const SEAT_LETTERS = {
    E: N_("E (seat letter)"),
    S: N_("S (seat letter)"),
    W: N_("W (seat letter)"),
    N: N_("N (seat letter)"),
  };

  function seatLetter(seat) {
    return WORDS.language === "en" || !SEAT_LETTERS[seat] ? String(seat) : t(SEAT_LETTERS[seat]);
  }

  // A seat where space is short: in English its letter, as the tiles and the wind badge say
  // it ("E to draw"); in Chinese and Russian its word (东, Восток).
  function seatShort(seat) {
    return WORDS.language === "en" ? String(seat || "?") : seatWords(seat);
  }

  // "5p" → "5 Dots" / "五筒" / "5 точек": the glossary's tile names are the catalog's
  function tileWords(name) {
    if (HONOURS[name]) return t(HONOURS[name]);
    const suit = SUIT[name.slice(-1)];
    const key = name[0] + " " + suit;
    return suit && name.length === 2 ? t(key) : name;
  }

  function voidWords(suit) {
    return t("void {suit}", { suit: SUIT[suit] ? t(SUIT[suit]) : suit });
  }

  // The last action: the daemon's sentence in English; in another language, said here from
  // its parts (the seat, the move, the tile and whom it came from).
  const ACTIONS = {
    draw: N_("{seat} draws"),
    replacement: N_("{seat} draws a replacement tile"),
    void: N_("{seat} chooses a void suit"),
    discard: N_("{seat} discards {tile}"),
    pung: N_("{seat} pungs {tile} from {from}"),
    chow: N_("{seat} chows {tile} from {from}"),
    kong: N_("{seat} kongs {tile} from {from}"),
    hu: N_("{seat} wins on {tile} from {from}"),
    "rob-kong": N_("{seat} wins on {tile} from {from} robbing the kong"),
    "self-drawn-hu": N_("{seat} wins self-drawn on {tile}"),
  };

  const END_WORDS = [N_("Time is up"), N_("Deal ended by the referee")];

  function actionWords(act) {
    if (WORDS.language === "en") return act.text;
    if (act.move === "end-deal" && END_WORDS.includes(act.text)) return t(act.text);
    if (!act.seat) return act.text;
    let words = ACTIONS[act.move];
    if (act.move === "kong" && !act.from) words = N_("{seat} declares a kong of {tile}");
    if ((act.move === "hu" || act.move === "rob-kong" || act.move === "self-drawn-hu") && !act.tile) {
      words = N_("{seat} declares a false Hu");
    }
    if (!words) return act.text;
    return t(words, {
      seat: seatWords(act.seat),
      tile: act.tile ? tileWords(act.tile) : "",
      from: act.from ? seatWords(act.from) : "",
    });
  }

  const WIND = { E: N_("East"), S: N_("South"), W: N_("West"), N: N_("North") };
  const SUIT = { m: N_("Characters"), p: N_("Dots"), s: N_("Bamboo"), z: N_("Honours") };
  // The table machine's phases in words; a turn's phase names the player ("E to draw").
  const PHASES = {
    offline: N_("Table offline"),
    idle: N_("Waiting for the next deal"),
    shuffling: N_("Shuffling"),
    walls_up: N_("Walls built"),
    dice_rolled: N_("Dice rolled"),
    dealing: N_("Dealing"),
    choosing_void: N_("Choosing void suits"),
    "playing.awaiting_draw": (v) => (v.turn ? t("{seat} to draw", { seat: seatShort(v.turn) }) : t("Next draw")),
    "playing.awaiting_discard": (v) => (v.turn ? t("{seat} to discard", { seat: seatShort(v.turn) }) : t("Next discard")),
    "playing.claim_window": (v) => (v.discarder ? t("Claims on {seat}'s discard", { seat: seatShort(v.discarder) }) : t("Claims")),
    "playing.robbing_window": (v) => (v.discarder ? t("Robbing {seat}'s kong?", { seat: seatShort(v.discarder) }) : t("Robbing the kong?")),
    deal_over: N_("Deal over"),
    settled: N_("Deal settled"),
    degraded: N_("Device lost — waiting"),
    paused: N_("Paused by the referee"),
  };
  // How a deal ended (PublicView.end). "Draw" is never said alone: a drawn deal is one
  // where the wall ran out.
  const ENDS = {
    "three-won": N_("Three Hu — deal over"),
    "wall-exhausted": N_("Exhausted wall"),
    "time-up": N_("Time up — deal over"),
    referee: N_("Deal ended by the referee"),
  };

  function endWords(view) {
    const won = view.seats.some((s) => s.hu_order);
    if (view.end === "wall-exhausted" && !won) return t("Exhausted wall — drawn deal");
    return ENDS[view.end] ? t(ENDS[view.end]) : view.end;
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // What the header says: the devices the table waits for, else how the deal ended, else
  // the phase.
  function headline(view) {
    const waiting = view.waiting_for || [];
    if (waiting.length) {
      const listed = waiting.map((d) => t(d)).reduce((a, b) => t("{first} and {second}", { first: a, second: b }));
      return t("Waiting for {devices}", { devices: listed });
    }
    return view.end ? endWords(view) : phaseWords(view);
  }


  // The phase in the daemon's words (controller/words.py: the terminal and the hall page
  // say the same), the first letter a capital; this page's own words for an older daemon.
  function phaseWords(view) {
    if (view.phase_text && WORDS.language === "en") {
      return view.phase_text[0].toUpperCase() + view.phase_text.slice(1);
    }
    const words = PHASES[view.phase];
    if (typeof words === "function") return words(view);
    return words ? t(words) : view.phase;
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
    svg.setAttribute("aria-label", name ? tileWords(name) : t("face-down"));
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
    return n > 0 ? "+" + n : n < 0 ? String(n) : "±0";
  }


  // 1st, 2nd, 3rd in English; the number alone where the catalog's words say the order
  function ordinal(n) {
    if (WORDS.language !== "en") return String(n);
    return ["", "1st", "2nd", "3rd"][n] || n + "th";
  }

  function seatPanel(seat, view, hand) {
    const panel = el("section", "seat seat-" + seat.seat);
    panel.dataset.seat = seat.seat;
    if (view.turn === seat.seat) panel.classList.add("turn");
    if (seat.hu_order) panel.classList.add("won");

    const head = el("header", "seat-head");
    const wind = el("div", "wind", seatLetter(seat.seat));
    wind.title = seatWords(seat.seat);
    if (view.dealer === seat.seat) wind.classList.add("dealer");
    head.appendChild(wind);
    const who = el("div", "who");
    who.appendChild(el("div", "player", seat.player));
    const badges = el("div", "badges");
    if (view.dealer === seat.seat) badges.appendChild(el("span", "badge dealer-badge", t("dealer")));
    if (seat.void) {
      const v = el("span", "badge void", voidWords(seat.void));
      v.dataset.void = seat.void;
      badges.appendChild(v);
    }
    if (seat.hu_order) {
      badges.appendChild(el("span", "badge hu", t("Hu {nth}", { nth: ordinal(seat.hu_order) })));
    }
    if (seat.hu_pattern) {
      // Wellness: the one pattern scored and the hand value, bonuses in the tooltip
      const p = el("span", "badge pattern", seat.hu_pattern + " " + seat.hu_value);
      p.title = (seat.hu_bonuses || []).join(", ") || t("no bonus");
      badges.appendChild(p);
    }
    who.appendChild(badges);
    head.appendChild(who);
    head.appendChild(scoreBox(seat));
    panel.appendChild(head);

    const handRow = el("div", "hand-row");
    const shown = seat.hand || (hand ? hand.standing : null);
    if (shown) {
      handRow.appendChild(tiles(shown, "hand" + (seat.hand ? " revealed" : "")));
    } else if (!seat.hu_order) {
      const backs = [];
      for (let i = 0; i < seat.standing; i++) backs.push(null);
      const concealed = tiles(backs, "hand concealed");
      concealed.title = tn("{n} concealed tile", "{n} concealed tiles", seat.standing);
      handRow.appendChild(concealed);
    }
    if (seat.hu_order && seat.hu_tile) {
      const won = el("div", "won-on", t("Hu on"));
      won.appendChild(tile(seat.hu_tile, "big"));
      handRow.appendChild(won);
    }
    if (seat.melds.length) {
      const melds = el("div", "melds");
      for (const m of seat.melds) melds.appendChild(meld(m));
      handRow.appendChild(melds);
    }
    panel.appendChild(handRow);
    if (hand && !seat.hand) panel.appendChild(handInfo(hand, seat));
    if (view.end && seat.hu_order && seat.hu_value !== null && seat.hu_value !== undefined) {
      panel.appendChild(huInfo(seat));
    }

    const river = tiles(seat.discards, "river");
    river.style.setProperty("--rows", String(Math.max(4, Math.ceil(seat.discards.length / 6))));
    if (view.last_discard && view.discarder === seat.seat) {
      const last = river.lastElementChild;
      if (last && last.dataset.tile === view.last_discard) last.classList.add("last");
    }
    panel.appendChild(river);
    return panel;
  }

  // The session total and this deal's change: while the deal is played the change is on
  // top of the total; once settled the total holds it and the change says what it was.
  function scoreBox(seat) {
    const score = el("div", "score");
    const settled = seat.deal_change !== null && seat.deal_change !== undefined;
    const change = settled ? seat.deal_change : seat.deal_delta;
    score.appendChild(el("div", "total", seat.score + (settled ? 0 : seat.deal_delta)));
    const delta = el("div", "delta", settled ? t("{points} this deal", { points: signed(change) }) : signed(change));
    delta.classList.add(change > 0 ? "up" : change < 0 ? "down" : "even");
    score.appendChild(delta);
    return score;
  }

  // A Hu on the result screen: its patterns, total fan and value.
  function huInfo(seat) {
    const info = el("div", "hu-info");
    // a pattern's name is its rule set's key ("full-flush"), said as the glossary says it (清一色)
    const names = (seat.hu_patterns || []).map((p) => t(p.name) + " " + p.fan);
    info.appendChild(el("span", "patterns", names.join(" · ") || t("plain hand")));
    if (seat.hu_fan !== null && seat.hu_fan !== undefined) {
      info.appendChild(el("span", "fan", tn("{n} fan", "{n} fan", seat.hu_fan)));
    }
    info.appendChild(el("span", "value", tn("{n} point", "{n} points", seat.hu_value)));
    return info;
  }

  // Waits are a hand's that waits for a tile: not a winner's (it is out), nor a hand of
  // 14 that is about to discard.
  function handInfo(hand, seat) {
    const info = el("div", "hand-info");
    // The void is shown here until it is revealed (then the seat's header shows it).
    if (hand.void && !seat.void) info.appendChild(el("span", "badge void", voidWords(hand.void)));
    if (hand.waits && hand.waits.length) {
      info.appendChild(el("span", "label", t("waits")));
      info.appendChild(tiles(hand.waits, "waits", "small"));
      info.appendChild(el("span", "value", tn("max {n} pt", "max {n} pts", hand.max_value)));
    } else if (!seat.hu_order && hand.standing.length % 3 === 1) {
      info.appendChild(el("span", "label muted", t("not ready")));
    }
    return info;
  }

  // The deal as people count it: its number in the session, "of N" when the session has a
  // limit ("Deal 3 of 10"); the journal's number (`deal`, across sessions) only when the view
  // does not say (0: no deal yet in this session).
  function dealWords(view, short) {
    const n = view.session_deal || view.deal;
    if (view.session_deal && view.session_deals && !short) {
      return t("Deal {n} of {total}", { n: n, total: view.session_deals });
    }
    return t("Deal {n}", { n: n });
  }

  // The header: one line on a TV, two on a phone, the same height whatever it holds.
  function statusBar(view, note) {
    const bar = el("header", "status");
    const title = el("div", "title");
    title.appendChild(el("span", "table-name", view.table_title || view.table));
    const which = el("span", "muted which", t("Session {n}", { n: view.session }) + " · " + dealWords(view));
    title.appendChild(which);
    const rules = el("span", "muted rules", view.rules);
    if (view.prevalent) {
      rules.textContent += " · " + t("round wind {seat}", { seat: seatShort(view.prevalent) });
      rules.title = t("round wind {seat}", { seat: seatWords(view.prevalent) });
    }
    title.appendChild(rules);
    bar.appendChild(title);
    const phase = el("div", "phase", headline(view));
    phase.dataset.phase = view.phase;
    bar.appendChild(phase);
    if (view.end && view.phase !== "settled" && view.phase !== "deal_over") {
      bar.appendChild(el("div", "next muted", t("next deal: {phase}", { phase: phaseWords(view) })));
    }
    const wall = el("div", "wall-count");
    if (!view.end) {
      wall.appendChild(el("span", "n", view.tiles_left));
      wall.appendChild(el("span", "muted", " " + tn("tile left", "tiles left", view.tiles_left)));
    }
    bar.appendChild(wall);
    if (view.referee_called) {
      // the deal waits for the referee (a reading no legal move explains)
      bar.appendChild(el("div", "referee-called", t("Referee called")));
    }
    if (note) bar.appendChild(el("div", "note", note));
    const live = el("div", "live", t("live"));
    live.id = "live";
    bar.appendChild(live);
    return bar;
  }

  // The table's centre: the last action, the claim box (its place kept when it is empty,
  // so nothing moves when a window opens) and a finished deal's result.
  function centre(view) {
    const box = el("section", "centre");
    const callout = el("div", "callout");
    const act = view.last_action;
    if (act) {
      if (act.tile) callout.appendChild(tile(act.tile, "big"));
      callout.appendChild(el("span", "action", actionWords(act)));
      callout.dataset.move = act.move;
    }
    box.appendChild(callout);
    const claim = el("div", "claim");
    claim.id = "claim";
    box.appendChild(claim);
    if (view.end) {
      box.appendChild(result(view));
    } else {
      const fines = (view.ledger || []).filter(isPenalty);
      if (fines.length) box.appendChild(penalties(fines));
    }
    return box;
  }

  // A penalty the hall must see when it is applied: the referee's, a false Hu, a set of
  // the void suit (48 to nobody); a Hu or a kong payment is play.
  function isPenalty(line) {
    return line.payee === null || line.rule === "referee penalty" || /false/i.test(line.why);
  }

  function penalties(lines) {
    const box = el("div", "penalties");
    box.appendChild(el("span", "label", lines.length === 1 ? t("Penalty") : t("Penalties")));
    for (const line of lines) {
      const to = line.payee ? seatShort(line.payee) : t("nobody");
      const pays = t("{payer} pays {points} to {payee}", { payer: seatShort(line.payer), points: line.points, payee: to });
      const text = pays + " — " + t(line.why);
      const item = el("span", "fine", text);
      item.title = t(line.rule); // the rule in the reader's words, its reference kept
      box.appendChild(item);
    }
    return box;
  }

  // The ledger of a finished deal: a sentence for each kind of payment ("East wins on 8m: 1
  // point from South"), the rule behind it on a tap (the daemon's words, `ledger_words`).
  function result(view) {
    const box = el("div", "result");
    box.appendChild(el("h2", "end", t("{deal} result", { deal: dealWords(view, true) })));
    if (view.ledger_words && view.ledger_words.length && WORDS.language === "en") {
      const said = el("ul", "ledger said");
      for (const w of view.ledger_words) {
        const item = el("li", "line" + (w.penalty ? " penalty" : ""));
        const more = el("details");
        more.dataset.key = w.text;
        more.appendChild(el("summary", "text", w.text));
        more.appendChild(el("p", "rule muted", w.rule));
        item.appendChild(more);
        said.appendChild(item);
      }
      box.appendChild(said);
      return box;
    }
    const groups = [];
    for (const line of view.ledger || []) {
      const g = groups.find(
        (x) => x.payee === line.payee && x.why === line.why && x.rule === line.rule && x.points === line.points,
      );
      if (g) g.payers.push(line.payer);
      else groups.push({ ...line, payers: [line.payer] });
    }
    const list = el("ol", "ledger");
    for (const g of groups) {
      const li = el("li", "line" + (g.payee ? "" : " penalty"));
      const who = g.payers.map(seatShort).join(", ") + " → " + (g.payee ? seatShort(g.payee) : t("nobody"));
      li.appendChild(el("span", "who", who));
      const points = g.payers.length > 1 ? t("{points} each", { points: g.points }) : String(g.points);
      li.appendChild(el("span", "points", points));
      li.appendChild(el("span", "why", g.why_words ? say(g.why_words) : t(g.why)));
      const rule = el("span", "rule muted", t(g.rule));
      rule.title = t(g.rule);
      li.appendChild(rule);
      list.appendChild(li);
    }
    if (!groups.length) list.appendChild(el("li", "line muted", t("no payment")));
    box.appendChild(list);
    return box;
  }

  // The claim window's countdown, counted down locally from the published remainder.
  let countdown = null;
  function startCountdown(view) {
    if (countdown) cancelAnimationFrame(countdown.frame);
    countdown = null;
    const box = document.getElementById("claim");
    if (!box) return;
    const remaining = view.claim_remaining_s;
    box.classList.toggle("open", remaining !== null && remaining !== undefined);
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
    const what = el("span", "on");
    const robbing = view.phase === "playing.robbing_window";
    what.appendChild(el("span", "", robbing ? t("Rob the kong") : t("Claim")));
    if (view.last_discard) what.appendChild(tile(view.last_discard, "small"));
    if (view.discarder) what.appendChild(el("span", "", t("from {seat}", { seat: seatShort(view.discarder) })));
    box.replaceChildren(what, label, barOuter);
    const step = () => {
      const left = Math.max(0, remaining - (performance.now() - start) / 1000);
      label.textContent = t("{seconds} s", { seconds: left.toFixed(1) });
      barInner.style.width = (100 * left) / total + "%";
      if (left > 0) countdown = { frame: requestAnimationFrame(step) };
    };
    step();
  }

  function render(view, options) {
    lastRender = [view, options];
    const opts = options || {};
    const app = document.getElementById("app");
    const hands = {};
    for (const h of opts.hands || []) hands[h.seat] = h;
    const board = el("main", "board");
    board.appendChild(centre(view));
    for (const seat of view.seats) board.appendChild(seatPanel(seat, view, hands[seat.seat]));
    if (view.end) board.classList.add("with-result");
    // a line the reader opened stays open when the page draws itself again (the same view
    // from the feed after the first fetch, the words arriving, the next view of the deal)
    const opened = new Set(Array.from(app.querySelectorAll("details[open][data-key]"), (d) => d.dataset.key));
    for (const d of board.querySelectorAll("details[data-key]")) if (opened.has(d.dataset.key)) d.open = true;
    app.replaceChildren(statusBar(view, opts.note), board);
    app.dataset.state = view.end ? "result" : "live";
    app.dataset.seq = view.seq;
    app.dataset.deal = view.deal;
    startCountdown(view);
  }

  // Follow a feed: fetch the current state once, then every "view" event.
  // `onRefused(status)`: the feed was refused (401: the login ended, as a daemon restarted
  // with a new token does; 429: too many wrong tokens); a browser never opens a refused
  // EventSource again by itself, so the page would show the old table for good
  function follow(feedUrl, apiUrl, onView, onEvent, onRefused) {
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
    const open = () => {
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
      source.onerror = () => {
        markLive(false);
        if (source.readyState !== EventSource.CLOSED) return; // the browser tries again
        const again = () => setTimeout(open, 2000);
        fetch(apiUrl, { credentials: "same-origin" })
          .then((r) => {
            if ((r.status === 401 || r.status === 429) && onRefused) onRefused(r.status);
            else again();
          })
          .catch(again);
      };
    };
    open();
  }

  function markLive(ok) {
    const live = document.getElementById("live");
    if (live) {
      live.classList.toggle("down", !ok);
      live.textContent = ok ? t("live") : t("reconnecting");
    }
  }

  return { el, tile, tiles, meld, render, follow, loadSprite, loadWords, signed, t, tn, say, seatWords };
})();
