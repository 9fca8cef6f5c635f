// The public scoreboard: what anyone in the hall may see, live.
"use strict";

MJ.loadSprite().finally(() => {
  MJ.follow("/events/public", "/api/public", (view) => MJ.render(view));
});
