// Drag and drop for the registration form: dropped PDFs go into the file
// input and the form is sent. Without JavaScript the form works as it is.
(function () {
  "use strict";
  const form = document.getElementById("register");
  if (!form) return;
  const input = form.querySelector('input[type="file"]');
  const status = form.querySelector(".drop-status");

  function describe(files) {
    const names = Array.from(files).map((file) => file.name);
    return names.length === 1 ? names[0] : names.length + " files: " + names.join(", ");
  }

  function send() {
    status.textContent = "Uploading " + describe(input.files) + "…";
    form.classList.add("busy");
    form.submit();
  }

  ["dragenter", "dragover"].forEach((type) =>
    form.addEventListener(type, (event) => {
      event.preventDefault();
      form.classList.add("over");
    })
  );
  ["dragleave", "drop"].forEach((type) =>
    form.addEventListener(type, () => form.classList.remove("over"))
  );
  form.addEventListener("drop", (event) => {
    event.preventDefault();
    if (!event.dataTransfer.files.length) return;
    input.files = event.dataTransfer.files;
    send();
  });
  input.addEventListener("change", () => {
    if (input.files.length) status.textContent = "Selected " + describe(input.files) + ".";
  });
})();
