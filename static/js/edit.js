// The edit form's suggestions: "Use this" copies a suggested value into its field.
(function () {
  "use strict";
  document.querySelectorAll(".use-suggestion").forEach((button) => {
    const field = document.getElementById(button.dataset.field);
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      const value = button.dataset.value;
      // Several names ("A; B") go into the authors box one a line, as it asks.
      field.value = field.tagName === "TEXTAREA" ? value.split(/\s*;\s*/).join("\n") : value;
      field.focus();
    });
  });
})();
