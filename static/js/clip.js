// Clipped pages ("download these pages"): a long clip takes a moment to make,
// so the link (or the clip form's button) says "Preparing the PDF…" until the
// file is in, then the browser saves it under the server's name. A refused
// range opens the clip page, which says why. Without JavaScript the link and
// the form download as usual.
(function () {
  "use strict";
  // Django's JavaScript catalogue (jsi18n) gives gettext in the page's language.
  const _ = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const fill = (format, values) => format.replace(/%\((\w+)\)s/g, (_m, name) => values[name]);
  const CLIP = /\/books\/\d+\/clip$/;

  function statusBeside(element) {
    let status = element.nextElementSibling;
    if (!status || !status.classList.contains("clip-status")) {
      status = document.createElement("span");
      status.className = "clip-status";
      status.setAttribute("role", "status");
      element.insertAdjacentElement("afterend", status);
    }
    return status;
  }

  function filenameOf(disposition) {
    const encoded = /filename\*=utf-8''([^;]+)/i.exec(disposition || "");
    if (encoded) return decodeURIComponent(encoded[1]);
    const plain = /filename="([^"]+)"/i.exec(disposition || "");
    return plain ? plain[1] : "pages.pdf";
  }

  function save(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
  }

  async function download(url, element) {
    if (element.getAttribute("aria-busy") === "true") return;
    const status = statusBeside(element);
    element.setAttribute("aria-busy", "true");
    status.textContent = _("Preparing the PDF…");
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      const type = response.headers.get("Content-Type") || "";
      if (!response.ok || !type.startsWith("application/pdf")) {
        window.location.assign(url);  // the clip page says what is wrong with the range
        return;
      }
      save(await response.blob(), filenameOf(response.headers.get("Content-Disposition")));
      status.textContent = "";
    } catch (error) {
      status.textContent = _("The PDF could not be made. Try again.");
    } finally {
      element.removeAttribute("aria-busy");
    }
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey ||
        event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || !CLIP.test(url.pathname) || !url.search) return;
    event.preventDefault();
    download(url.href, link);
  });

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "get") return;
    const url = new URL(form.getAttribute("action") || window.location.href, window.location.href);
    if (!CLIP.test(url.pathname)) return;
    event.preventDefault();
    url.search = new URLSearchParams(new FormData(form)).toString();
    download(url.href, form.querySelector("button[type=submit]") || form);
  });
})();
