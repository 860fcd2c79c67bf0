// Keyboard shortcuts for the review queue. Every shortcut presses a visible
// control marked data-key, so the page works the same with a mouse, with the
// keyboard, and without JavaScript (the controls are plain forms and links).
(function () {
  "use strict";
  const ALIASES = { j: "n" };

  function typing(target) {
    return target.closest("input, textarea, select, [contenteditable]") !== null;
  }

  function control(key) {
    const item = document.getElementById("review-item");
    return item ? item.querySelector('[data-key="' + key + '"]') : null;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (typing(event.target)) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (document.querySelector(".htmx-request")) return; // one decision at a time
    const key = ALIASES[event.key] || event.key;
    const target = control(key);
    if (!target) return;
    event.preventDefault();
    if (target.matches("input")) {
      target.focus();
    } else if (target.matches("summary")) {
      target.parentElement.open = true;
      const field = target.parentElement.querySelector("input");
      if (field) field.focus();
    } else {
      target.click();
    }
  });

  // After htmx puts the next item in place, move focus to its title so that
  // screen readers announce it and the keys keep working.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "review-item") {
      const title = document.getElementById("review-item-title");
      if (title) {
        title.setAttribute("tabindex", "-1");
        title.focus({ preventScroll: false });
      }
    }
  });
})();
