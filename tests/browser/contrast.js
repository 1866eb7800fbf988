// Every piece of text under `root` whose colour against what is behind it (the
// backgrounds beneath it blended, up to the first opaque one; opacity counted) is under
// 4.5 : 1, judged at rest (a card arriving fades in).
async (selector) => {
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const rgba = (s) => {
    const m = s.match(/[\d.]+/g).map(Number);
    return m.length > 3 ? m : [...m, 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const skipped = ".visually-hidden, [hidden], .trick--gathered, details:not([open]) > :not(summary)";
  const bad = [];
  for (const el of document.querySelectorAll(selector)) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getBoundingClientRect().width < 2 || el.closest(skipped)) continue;
    const fg = rgba(getComputedStyle(el).color);
    for (let e = el; e; e = e.parentElement) fg[3] *= Number(getComputedStyle(e).opacity);
    const bg = behind(el);
    const [a, b] = [lum(over(fg, bg)), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) bad.push(`${el.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return bad;
}
