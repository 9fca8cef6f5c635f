// The referee's login page in the referee's language (the same choice as the referee page's):
// its own words are data-msgid; the daemon's answer ("Wrong token.") is a catalog message
"use strict";

const error = document.querySelector(".login .error");
const answer = error.textContent;
document.addEventListener("mj:words", () => {
  if (answer) error.textContent = MJ.t(answer);
});
MJ.loadWords();
