// The web face's script: answers sent without a reload, and what the
// companion says arriving as it is said (Server-Sent Events). Without it
// every journey works by plain form posts; with it, each sentence goes
// where a screen reader says it once: the reply to the player's act in a
// polite live region, the game's events in the log (role log), and focus
// then on the question, whose name is the question.
"use strict";
(function () {
  var main = document.querySelector("main");
  if (!main || !window.fetch || !window.FormData || !window.URLSearchParams) { return; }
  var reply = document.getElementById("reply");
  var log = document.getElementById("log");
  var area = document.getElementById("question-area");
  var facts = document.getElementById("facts");
  var state = {
    version: Number(main.dataset.version),
    step: Number(main.dataset.step),
    since: Number(main.dataset.since),
    question: Number(main.dataset.question),
    busy: false
  };
  var events = null;

  reply.setAttribute("aria-live", "polite");
  reply.setAttribute("aria-relevant", "additions");

  function warning(text, language) {
    var said = document.createElement("p");
    said.className = "said warning";
    said.lang = language || document.documentElement.lang;
    said.textContent = text;
    return said;
  }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  function focusQuestion() {
    var target = area.querySelector("[data-focus]");
    if (target) { target.focus(); }
  }

  function undescribe() {
    // the first page's question was described by its reply; from now on the
    // reply is said by its live region, not again with the question
    var described = area.querySelectorAll("[aria-describedby]");
    for (var i = 0; i < described.length; i++) { described[i].removeAttribute("aria-describedby"); }
  }

  function apply(data, acted) {
    undescribe();
    if (data.version > state.version) {
      state.version = data.version;
      if (data.step !== state.step) {
        reply.replaceChildren();
        state.step = data.step;
      }
      if (data.notice) { reply.appendChild(warning(data.notice, data.language)); }
      data.entries.forEach(function (entry) {
        if (entry.number <= state.since) { return; }
        state.since = entry.number;
        if (entry.kind === "log") {
          log.appendChild(fragment(entry.html));
        } else if (entry.step === state.step) {
          reply.appendChild(fragment(entry.html));
        }
      });
      if (facts.textContent !== data.facts) { facts.textContent = data.facts; }
      if (document.title !== data.title) { document.title = data.title; }
      document.documentElement.lang = data.language;
      if (data.question_id !== state.question || data.ended) {
        state.question = data.question_id;
        area.replaceChildren(fragment(data.question));
        acted = true;
      }
      if (data.ended && events) { events.close(); events = null; }
    } else if (data.notice && acted) {
      reply.replaceChildren(warning(data.notice, data.language));
    }
    main.dataset.version = String(state.version);
    main.dataset.question = String(state.question);
    if (acted) {
      var field = area.querySelector("input[name=answer]");
      if (field) { field.value = ""; }
      focusQuestion();
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!area.contains(form)) { return; }
    event.preventDefault();
    if (state.busy) { return; }
    var body = new FormData(form);
    var submitter = event.submitter;
    if (submitter && submitter.name && !body.has(submitter.name)) {
      body.append(submitter.name, submitter.value);
    }
    body.append("since", String(state.since));
    state.busy = true;
    fetch("/answer", {
      method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    }).then(function (data) {
      apply(data, true);
    }).catch(function () {
      reply.replaceChildren(warning(main.dataset.gone));
    }).then(function () {
      state.busy = false;
      // the answers taken so far, replies shown: what a test waits on
      main.dataset.answered = String(Number(main.dataset.answered || 0) + 1);
    });
  });

  if (window.EventSource) {
    events = new EventSource("/events?since=" + state.since + "&version=" + state.version);
    events.onmessage = function (message) { apply(JSON.parse(message.data), false); };
  }
})();
