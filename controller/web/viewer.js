// The hall's viewer page (served by `mjtable hub`): a table's board read from the hall's
// viewers' broker over MQTT over WebSockets (docs/MQTT.md "Viewers"), not from the table.
//   /viewer                      the hall's tables, each a link
//   /viewer?table=T              table T live (mjtable/HALL/T/view)
//   /viewer?table=T&feed=broadcast   the delayed feed, hands shown (mjtable/HALL/T/broadcast)
"use strict";

(function () {
  const { t } = MJ;
  const params = new URLSearchParams(location.search);
  const table = params.get("table");
  const delayed = params.get("feed") === "broadcast";

  function markLive(ok) {
    const live = document.getElementById("live");
    if (live) {
      live.classList.toggle("down", !ok);
      live.textContent = ok ? t("live") : t("reconnecting");
    }
  }

  // a message of the page's own, said again when the language is picked anew
  let said = null;
  function message(text, args) {
    said = [text, args];
    const app = document.getElementById("app");
    app.replaceChildren(MJ.el("p", "waiting", t(text, args)));
  }

  // the hall's table list as last drawn (drawn again in a language picked anew)
  let listed = null;

  // the hall's tables, from their retained status: a link to each
  function tableList(hall, statuses) {
    said = null;
    listed = [hall, statuses];
    const app = document.getElementById("app");
    const list = MJ.el("ul", "viewer-tables");
    for (const name of Object.keys(statuses).sort()) {
      const item = MJ.el("li");
      const link = MJ.el("a", null, t("Table {name}", { name: name }));
      link.href = "/viewer?table=" + encodeURIComponent(name);
      item.append(link, " · " + presenceWords(statuses[name].presence));
      list.appendChild(item);
    }
    app.replaceChildren(MJ.el("h1", null, t("Hall {name}", { name: hall })), list);
    app.dataset.state = "tables";
  }

  function follow(config) {
    const hall = params.get("hall") || config.hall;
    if (!hall) return message(N_("No hall named: open {address}"), { address: "/viewer?hall=H&table=T" });
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const url = scheme + location.hostname + ":" + config.websockets_port;
    // timerVariant "native": plain timers, not a worker made from a blob (the page's CSP
    // allows scripts from the hub only)
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 1000,
      timerVariant: "native",
    });
    const statuses = {};
    const wanted = table
      ? "mjtable/" + hall + "/" + table + "/" + (delayed ? "broadcast" : "view")
      : "mjtable/" + hall + "/+/status";
    client.on("connect", () => {
      client.subscribe(wanted, { qos: 0 });
      markLive(true);
    });
    client.on("offline", () => markLive(false));
    client.on("close", () => markLive(false));
    client.on("message", (topic, payload) => {
      if (!payload.length) return; // a cleared retained topic
      const data = JSON.parse(new TextDecoder().decode(payload));
      if (!table) {
        statuses[topic.split("/")[2]] = data;
        return tableList(hall, statuses);
      }
      if (delayed) {
        MJ.render(data.public, { hands: data.hands, note: t("delayed") });
      } else {
        MJ.render(data);
      }
      markLive(true);
    });
    if (table) message(N_("Waiting for table {name}…"), { name: table });
  }

  // a table's presence as the hub's status says it (controller/hub: "online" / "offline")
  const PRESENCE = { online: N_("online"), offline: N_("offline") };
  function N_(m) {
    return m;
  }
  function presenceWords(presence) {
    return PRESENCE[presence] ? t(PRESENCE[presence]) : String(presence);
  }

  document.addEventListener("mj:words", () => {
    if (said) message(said[0], said[1]);
    else if (listed) tableList(listed[0], listed[1]);
  });

  Promise.allSettled([MJ.loadSprite(), MJ.loadWords()]).finally(() => {
    fetch("/viewer/config.json")
      .then((r) => r.json())
      .then(follow)
      .catch(() => message(N_("The hub did not say where the viewers' broker is")));
  });
})();
