// The registration form: PDFs dropped on it or chosen are sent one request per
// file, each with its own progress bar (bytes sent of the file's size) and its
// outcome; then the shelf is shown again with what became of each. Without
// JavaScript the form posts every file at once and works as it is.
(function () {
  "use strict";
  // Django's JavaScript catalogue (jsi18n) gives gettext in the page's language.
  const _ = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const fill = (format, values) => format.replace(/%\((\w+)\)s/g, (_m, name) => values[name]);
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
    sent.textContent = _("waiting");
    const bar = document.createElement("progress");
    bar.max = file.size || 1;
    bar.value = 0;
    bar.setAttribute("aria-label", fill(_("Uploading %(name)s"), { name: file.name }));
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
    if (request.status === 413) return _("The file is larger than the upload limit.");
    if (request.status === 403) return _("Only librarians can register books (or the session expired: reload the page).");
    return fill(_("The upload failed (%(status)s). Try again."),
                { status: request.status || _("no answer from the server") });
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
        shown.sent.textContent = fill(_("%(sent)s of %(total)s"), {
          sent: megabytes(event.loaded), total: megabytes(total) }) + " · " + percent + "%";
      });
      request.upload.addEventListener("load", () => { shown.sent.textContent = _("checking…"); });
      request.addEventListener("load", () => {
        let outcome = null;
        try { outcome = JSON.parse(request.responseText).outcomes[0]; } catch (error) { outcome = null; }
        const ok = request.status === 200 && outcome && outcome.ok;
        shown.bar.value = shown.bar.max;
        shown.item.classList.add(ok ? "done" : "failed");
        shown.sent.textContent = ok ? _("sent") : _("not registered");
        shown.said.textContent = ok ? outcome.message : failure(request);
        resolve(ok);
      });
      request.addEventListener("error", () => {
        shown.item.classList.add("failed");
        shown.sent.textContent = _("not sent");
        shown.said.textContent = _("The connection failed. Try again.");
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
    status.textContent = fill(ngettext("Uploading %(n)s file…", "Uploading %(n)s files…",
                                      files.length), { n: files.length });
    for (const [file, item] of shown) await upload(file, item);
    status.textContent = _("Done. Showing the shelf…");
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
    const n = input.files.length;
    if (n) status.textContent = fill(ngettext("Selected %(n)s file: press Register.",
                                              "Selected %(n)s files: press Register.", n), { n: n });
  });
})();
