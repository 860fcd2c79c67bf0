// The chat page: send the question without leaving the page, then show the
// answer as it streams in (server-sent events): result cards first, then the
// guide (where to read, the quoted sentences, the downloads), then, where the
// local model's index terms come after the cards, the place they put first,
// and, where a local model is switched on, its checked short answer. Without JavaScript the
// form posts as usual and the page comes back with the whole answer.
(function () {
  "use strict";
  // Django's JavaScript catalogue (jsi18n) gives gettext in the page's language.
  const _ = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const fill = (format, values) => format.replace(/%\((\w+)\)s/g, (_m, name) => values[name]);
  const form = document.getElementById("ask");
  const thread = document.getElementById("thread");
  if (!form || !thread) return;
  const question = form.querySelector("textarea[name=question]");
  const button = form.querySelector("button[type=submit]");
  const status = form.querySelector(".ask-status");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;

  function fragment(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  function busy(on, text) {
    button.disabled = on;
    status.textContent = text || "";
  }

  function scrollTo(element) {
    element.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  function listConversation(data) {
    if (form.querySelector("input[name=conversation]")) return;
    const hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "conversation";
    hidden.value = data.conversation;
    form.appendChild(hidden);
    window.history.replaceState(null, "", data.conversation_url);
    const list = document.getElementById("conversations");
    if (list) {
      const none = list.querySelector(".none-yet");
      if (none) none.remove();
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = data.conversation_url;
      link.textContent = data.title;
      link.setAttribute("aria-current", "page");
      item.appendChild(link);
      list.prepend(item);
    }
  }

  // Follow one answer's stream until it is done; the server replays a finished one.
  function follow(answer) {
    const url = answer.dataset.stream;
    answer.removeAttribute("data-stream");
    const source = new EventSource(url);
    const place = (name) => answer.querySelector(name);
    const statusLine = place(".answer-status");
    let streamed = null;
    let finished = false;

    function say(text) {
      if (statusLine) statusLine.lastChild.textContent = text;
    }
    function end(message, isError) {
      finished = true;
      source.close();
      busy(false);
      if (statusLine) statusLine.remove();
      if (message) {
        const note = document.createElement("p");
        note.className = isError ? "answer-error error" : "answer-note muted";
        note.setAttribute("role", isError ? "alert" : "status");
        note.textContent = message;
        answer.appendChild(note);
      }
    }
    const on = (name, handle) =>
      source.addEventListener(name, (event) => handle(JSON.parse(event.data)));

    on("card", (data) => {
      const card = fragment(data.html).firstElementChild;
      place(".cards").appendChild(card);
      say(fill(ngettext("Found %(n)s place…", "Found %(n)s places…", data.n), { n: data.n }));
      if (data.n === 1) scrollTo(card);
    });
    on("clarify", (data) => {
      place(".answer-clarify").replaceChildren(fragment(data.html));
    });
    on("recommendation", (data) => {
      place(".answer-recommendation").replaceChildren(fragment(data.html));
    });
    on("guide", (data) => {
      // The guide names the books to read first itself.
      place(".answer-recommendation").replaceChildren();
      place(".answer-guide").replaceChildren(fragment(data.html));
    });
    on("refined", (data) => {
      place(".answer-refined").replaceChildren(fragment(data.html));
    });
    on("cards", (data) => {
      place(".answer-summary").replaceChildren(fragment(data.html));
      say("");
      busy(false);
    });
    on("writing", (data) => say(data.message));
    on("token", (data) => {
      if (!streamed) {
        const box = document.createElement("div");
        box.className = "synthesis streaming";
        const title = document.createElement("h3");
        title.textContent = _("Answer");
        streamed = document.createElement("p");
        streamed.className = "synthesis-text";
        box.append(title, streamed);
        place(".answer-synthesis").replaceChildren(box);
      }
      streamed.textContent += data.text;
    });
    on("answer", (data) => {
      place(".answer-synthesis").replaceChildren(fragment(data.html));
    });
    on("done", () => end(""));
    on("busy", (data) => end(data.message, false));
    source.addEventListener("error", (event) => {
      if (finished) return;
      if (event.data) {
        end(JSON.parse(event.data).message, true);
      } else if (source.readyState === EventSource.CLOSED) {
        end(_("The connection was lost. Reload the page to see the answer."), true);
      }
    });
  }

  async function send(text) {
    busy(true, _("Asking…"));
    const body = new FormData(form);
    body.set("question", text);
    let response;
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: body,
        headers: { Accept: "application/json", "X-CSRFToken": csrf },
        credentials: "same-origin",
      });
    } catch (error) {
      busy(false, _("The librarian could not be reached. Check the connection and try again."));
      return;
    }
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      data = { error: fill(_("The librarian answered with an error (%(status)s). Try again."),
                            { status: response.status }) };
    }
    if (!response.ok || data.error) {
      busy(false, data.error || _("That did not work. Try again."));
      return;
    }
    const empty = document.getElementById("chat-empty");
    if (empty) empty.remove();
    listConversation(data);
    thread.appendChild(fragment(data.html));
    question.value = "";
    busy(true, "");
    const answer = document.getElementById("message-" + data.answer);
    scrollTo(answer);
    follow(answer);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = question.value.trim();
    if (!text) {
      question.focus();
      return;
    }
    send(text);
  });
  question.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  // An option of the librarian's question is a reply in this conversation.
  thread.addEventListener("click", (event) => {
    const option = event.target.closest("button.option");
    if (!option) return;
    event.preventDefault();
    send(option.dataset.question);
  });
  thread.addEventListener("click", (event) => {
    const example = event.target.closest("a.example");
    if (!example) return;
    event.preventDefault();
    question.value = example.dataset.question;
    form.requestSubmit();
  });
  // On a phone the conversation list starts folded, so the thread comes first.
  const folded = document.querySelector(".chat-history");
  if (folded && window.matchMedia("(max-width: 760px)").matches) folded.open = false;
  thread.querySelectorAll("[data-stream]").forEach(follow);
})();
