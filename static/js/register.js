// The registration form: PDFs dropped on it or chosen are sent one request per
// file, each with its own progress bar (bytes sent of the file's size) and its
// outcome; then the shelf is shown again with what became of each. Without
// JavaScript the form posts every file at once and works as it is.
(function () {
  "use strict";
  const form = document.getElementById("register");
  if (!form) return;
  const input = form.querySelector('input[type="file"]');
  const status = form.querySelector(".drop-status");
  const list = form.querySelector(".upload-list");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  let busy = false;

  function megabytes(bytes) {
    return (bytes / (1024 * 1024)).toFixed(1) + " MB";
  }

  function row(file) {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = file.name;
    const sent = document.createElement("span");
    sent.className = "sent muted";
    sent.textContent = "waiting";
    const bar = document.createElement("progress");
    bar.max = file.size || 1;
    bar.value = 0;
    bar.setAttribute("aria-label", "Uploading " + file.name);
    const said = document.createElement("span");
    said.className = "said small";
    item.append(name, sent, bar, said);
    list.appendChild(item);
    return { item, sent, bar, said };
  }

  function failure(request) {
    try {
      const body = JSON.parse(request.responseText);
      if (body.detail) return body.detail;
      if (body.outcomes && body.outcomes[0]) return body.outcomes[0].message;
    } catch (error) { /* not JSON: say what the status means */ }
    if (request.status === 413) return "The file is larger than the upload limit.";
    if (request.status === 403) return "Only librarians can register books (or the session expired: reload the page).";
    return "The upload failed (" + (request.status || "no answer from the server") + "). Try again.";
  }

  // Send one file; resolve with true when the server registered it.
  function upload(file, shown) {
    return new Promise((resolve) => {
      const data = new FormData();
      data.append("csrfmiddlewaretoken", csrf);
      data.append("files", file, file.name);
      const request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.setRequestHeader("Accept", "application/json");
      request.setRequestHeader("X-CSRFToken", csrf);
      request.upload.addEventListener("progress", (event) => {
        const total = event.lengthComputable ? event.total : file.size;
        shown.bar.max = total || 1;
        shown.bar.value = event.loaded;
        const percent = total ? Math.min(100, Math.round((100 * event.loaded) / total)) : 0;
        shown.sent.textContent = megabytes(event.loaded) + " of " + megabytes(total) + " · " + percent + "%";
      });
      request.upload.addEventListener("load", () => { shown.sent.textContent = "checking…"; });
      request.addEventListener("load", () => {
        let outcome = null;
        try { outcome = JSON.parse(request.responseText).outcomes[0]; } catch (error) { outcome = null; }
        const ok = request.status === 200 && outcome && outcome.ok;
        shown.bar.value = shown.bar.max;
        shown.item.classList.add(ok ? "done" : "failed");
        shown.sent.textContent = ok ? "sent" : "not registered";
        shown.said.textContent = ok ? outcome.message : failure(request);
        resolve(ok);
      });
      request.addEventListener("error", () => {
        shown.item.classList.add("failed");
        shown.sent.textContent = "not sent";
        shown.said.textContent = "The connection failed. Try again.";
        resolve(false);
      });
      request.send(data);
    });
  }

  async function send(files) {
    if (busy || !files.length) return;
    busy = true;
    form.classList.add("busy");
    list.replaceChildren();
    const shown = Array.from(files).map((file) => [file, row(file)]);
    status.textContent = "Uploading " + files.length + " file" + (files.length === 1 ? "" : "s") + "…";
    for (const [file, item] of shown) await upload(file, item);
    status.textContent = "Done. Showing the shelf…";
    window.location.assign(window.location.pathname + window.location.search);
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
    send(event.dataTransfer.files);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(input.files);
  });
  input.addEventListener("change", () => {
    if (input.files.length) status.textContent = "Selected " + input.files.length + " file" + (input.files.length === 1 ? "" : "s") + ": press Register.";
  });
})();
