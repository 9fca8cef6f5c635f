// The public scoreboard: what anyone in the hall may see, live.
"use strict";

Promise.allSettled([MJ.loadSprite(), MJ.loadWords()]).finally(() => {
  MJ.follow("/events/public", "/api/public", (view) => MJ.render(view));
});
