// The broadcast view: hands, waits and values, released by the daemon only after the delay.
"use strict";

let delay = null;
MJ.loadSprite().finally(() => {
  MJ.follow(
    "/events/broadcast",
    "/api/broadcast",
    (view) => {
      const note = delay === null ? "delayed" : "delayed " + Math.round(delay) + " s";
      MJ.render(view.public, { hands: view.hands, note: note });
    },
    (name, data) => {
      if (name === "meta") delay = data.delay_s;
    },
  );
});
