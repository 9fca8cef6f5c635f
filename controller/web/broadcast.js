// The broadcast view: hands, waits and values, released by the daemon only after the delay.
"use strict";

let delay = null;
Promise.allSettled([MJ.loadSprite(), MJ.loadWords()]).finally(() => {
  MJ.follow(
    "/events/broadcast",
    "/api/broadcast",
    (view) => {
      const note = delay === null ? MJ.t("delayed") : MJ.t("delayed {seconds} s", { seconds: Math.round(delay) });
      MJ.render(view.public, { hands: view.hands, note: note });
    },
    (name, data) => {
      if (name === "meta") delay = data.delay_s;
    },
  );
});
