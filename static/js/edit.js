// The edit form's suggestions: "Use this" copies a suggested value into its field.
(function () {
  "use strict";
  document.querySelectorAll(".use-suggestion").forEach((button) => {
    const field = document.getElementById(button.dataset.field);
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      field.value = button.dataset.value;
      field.focus();
    });
  });
})();
