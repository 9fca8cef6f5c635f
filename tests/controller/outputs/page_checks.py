"""Checks run in a scoreboard page (headless Chromium), shared by the browser tests here and
the live run's (tests/integration/test_live_scoreboard.py)."""

# Every box of the page (header, the table's centre, each seat) must hold what it draws:
# an element reaching outside its box, or a box outside the screen, is an overflow (the
# panels clip on a TV, so a clipped tile would otherwise go unseen).
OVERFLOW_JS = """
const out = [];
const vw = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > vw + 1) out.push('page wider than the screen');
for (const box of document.querySelectorAll('.status, .centre, .seat')) {
  const b = box.getBoundingClientRect();
  const name = box.dataset.seat || box.className;
  if (b.right > vw + 1 || b.left < -1) out.push(name + ' beyond the screen');
  if (arguments[0] && b.bottom > window.innerHeight + 1) out.push(name + ' below the screen');
  for (const e of box.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.right > b.right + 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.top < b.top - 1) {
      out.push(name + ': ' + (e.getAttribute('class') || e.tagName) + ' ' + (e.dataset.tile || ''));
    }
  }
}
return out;
"""
