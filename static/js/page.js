// The page viewer: zoom the page image (the highlights scale with it), bring the
// first highlight into view, and tie each line of the text to its place on the
// image. Without JavaScript the page and its highlights show as they are.
(function () {
  "use strict";
  const canvas = document.querySelector(".page-canvas");
  if (!canvas) return;
  const image = canvas.querySelector("img.page-full");
  const levels = [100, 150, 200, 300];
  const zoom = document.querySelector(".zoom");
  let level = 0;

  function setZoom(next) {
    level = Math.max(0, Math.min(levels.length - 1, next));
    levels.forEach((value) => canvas.classList.remove("zoom-" + value));
    canvas.classList.add("zoom-" + levels[level]);
    zoom.querySelector(".zoom-level").textContent = levels[level] + "%";
    if (levels[level] > 150 && canvas.dataset.large && image.src.indexOf(canvas.dataset.large) < 0) {
      image.src = canvas.dataset.large; // sharper text when zoomed in
    }
  }

  if (zoom) {
    zoom.hidden = false;
    zoom.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-zoom]");
      if (!button) return;
      const step = Number(button.dataset.zoom);
      setZoom(step === 0 ? 0 : level + step);
    });
  }

  function marksOf(line) {
    return canvas.querySelectorAll('rect[data-line="' + line + '"]');
  }
  document.querySelectorAll(".lines .line").forEach((row) => {
    const line = row.dataset.line;
    row.addEventListener("mouseenter", () => marksOf(line).forEach((m) => m.classList.add("hover")));
    row.addEventListener("mouseleave", () => marksOf(line).forEach((m) => m.classList.remove("hover")));
  });

  const first = canvas.querySelector("rect");
  if (first) {
    const show = () => first.scrollIntoView({ block: "center", inline: "nearest" });
    if (image.complete) show(); else image.addEventListener("load", show, { once: true });
    const panel = document.querySelector(".lines");
    const row = panel && panel.querySelector('.line[data-line="' + first.dataset.line + '"]');
    if (row) panel.scrollTop = row.offsetTop - panel.clientHeight / 3; // the panel only, not the page
  }
})();
