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
  var base = main.dataset.base || "";

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

  // A seat this device holds no more (the host freed it): said, and the
  // question taken away, with nothing more sent or listened to.
  function lost(text) {
    if (events) { events.close(); events = null; }
    var said = warning(text);
    said.id = "lost";
    said.tabIndex = -1;
    area.replaceChildren(said);
    said.focus();
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

  // Milliseconds between moving focus and saying the reply: a screen reader
  // stops speaking when focus moves, and would cut a reply said before it.
  var AFTER_FOCUS = 250;

  // Sentences waiting while focus moves (and what comes meanwhile, after
  // them), and what is to be done once they are on the page.
  var held = null;
  var afterHeld = [];

  function finished(done) {
    if (!done) { return; }
    if (held) { afterHeld.push(done); } else { done(); }
  }

  function say(entries) {
    if (held) { held.push.apply(held, entries); return; }
    entries.forEach(function (entry) {
      (entry.kind === "log" ? log : reply).appendChild(fragment(entry.html));
    });
  }

  // An update: the new sentences, the question if another is open. After
  // the player's own act (``acted``) focus goes to the question; when it
  // has to move there, the reply comes just after it, so that nothing of
  // it is cut. ``done`` is called once everything is on the page.
  function apply(data, acted, done) {
    undescribe();
    var fresh = [];
    var moved = false;
    if (data.version > state.version) {
      state.version = data.version;
      if (data.step !== state.step) {
        reply.replaceChildren();  // a new step: the reply to the new act
        state.step = data.step;
      }
      data.entries.forEach(function (entry) {
        if (entry.number > state.since) {
          state.since = entry.number;
          fresh.push(entry);
        }
      });
      if (data.notice) {
        fresh.unshift({ kind: "reply", html: warning(data.notice, data.language).outerHTML });
      }
      if (facts.textContent !== data.facts) { facts.textContent = data.facts; }
      if (document.title !== data.title) { document.title = data.title; }
      document.documentElement.lang = data.language;
      if (data.question_id !== state.question || data.ended) {
        state.question = data.question_id;
        area.replaceChildren(fragment(data.question));
        moved = true;
      }
      var joinArea = document.getElementById("join-area");
      if (joinArea && data.join_key && joinArea.dataset.key !== data.join_key) {
        // how players join (the seats taken): drawn again only when it changed,
        // the host's place in it kept
        var inside = joinArea.contains(document.activeElement) ? document.activeElement.id : null;
        joinArea.replaceChildren(fragment(data.join));
        joinArea.dataset.key = data.join_key;
        if (inside !== null) {
          var again = (inside && document.getElementById(inside)) ||
            document.getElementById("join-h");
          if (again) { again.focus(); }
        }
      }
      if (data.ended && events) { events.close(); events = null; }
    } else if (data.notice && acted) {
      reply.replaceChildren();
      fresh.push({ kind: "reply", html: warning(data.notice, data.language).outerHTML });
    }
    main.dataset.version = String(state.version);
    main.dataset.question = String(state.question);
    var target = area.querySelector("[data-focus]");
    if (acted || moved) {
      var field = area.querySelector("input[name=answer]");
      if (field && acted) { field.value = ""; }
      if (target && document.activeElement !== target) {
        if (!held) {
          held = [];
          window.setTimeout(function () {
            var waiting = held;
            var then = afterHeld;
            held = null;
            afterHeld = [];
            say(waiting);
            then.forEach(function (callback) { callback(); });
          }, AFTER_FOCUS);
        }
        say(fresh);  // held until focus has moved
        target.focus();
        finished(done);
        return;
      }
    }
    say(fresh);
    finished(done);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    // the answer and the words; any other form (the host's "Free") posts as a page
    if (!area.contains(form) || (form.id !== "answer-form" && form.id !== "words-form")) {
      return;
    }
    event.preventDefault();
    if (state.busy) {  // an answer on its way: said, not dropped without a word
      var before = document.getElementById("busy");
      if (before) { before.remove(); }
      var busy = warning(main.dataset.busy);
      busy.id = "busy";
      reply.appendChild(busy);
      return;
    }
    var body = new FormData(form);
    var submitter = event.submitter;
    if (submitter && submitter.name && !body.has(submitter.name)) {
      body.append(submitter.name, submitter.value);
    }
    body.append("since", String(state.since));
    state.busy = true;
    fetch(base + "/answer", {
      method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (response.status === 403 && response.headers.get("content-type") === "application/json") {
        return response.json();  // (a seat this device holds no more: said below)
      }
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    }).then(function (data) {
      if (data.lost) { lost(data.lost); return null; }
      return new Promise(function (resolve) { apply(data, true, resolve); });
    }).catch(function () {
      reply.replaceChildren(warning(main.dataset.gone));
    }).then(function () {
      state.busy = false;
      // the answers taken so far, their replies on the page: what a test waits on
      main.dataset.answered = String(Number(main.dataset.answered || 0) + 1);
    });
  });

  if (window.EventSource) {
    events = new EventSource(base + "/events?since=" + state.since + "&version=" + state.version);
    events.onmessage = function (message) {
      failures = 0;
      var data = JSON.parse(message.data);
      if (data.lost) { lost(data.lost); return; }
      apply(data, false);
    };
    // the companion gone (stopped, the computer asleep): said once, the
    // stream still trying to come back
    var failures = 0;
    events.onerror = function () {
      failures += 1;
      if (failures === 2) { reply.replaceChildren(warning(main.dataset.gone)); }
    };
  }
})();
