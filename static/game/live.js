// A table's page in the browser: its live connection, and what the page does after each
// redraw (the tab title, the screen reader's news, focus, the finished trick's stay, the
// away countdown).
//
// The server pushes HTML fragments; each top-level element with an id replaces the
// element of the page with the same id. While the connection is open, a move (a form
// button inside #live) goes over it as {"action", "index"}; while it is down the forms
// post as usual and the page polls (hx-trigger on #live).
//
// Every table message ends with the table's version (<template id="live-version">). The
// page says {"shown": version} once it has shown its player their turn (their away
// countdown runs from then), and every HEARTBEAT_MS (every 2 s while its live updates are
// interrupted) asks {"sync": version}: the server
// answers with the table if it stands elsewhere (a broadcast was lost) and always with
// #live-notice ("Live updates interrupted" while it cannot reach the other servers). A
// page whose versions skip one asks at once; a heartbeat left unanswered for REPLY_MS
// means the connection is dead: the page connects again.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;
  var holdMs = parseInt(live.dataset.trickHoldMs || "1200", 10);
  var awayAfterS = parseInt(live.dataset.awayAfterS || "0", 10);
  // how long the turn had run when the page was drawn: a reload counts from its real start
  var firstTurnAgeMs = parseInt(live.dataset.turnAgeMs || "0", 10);
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var gatherMs = reduceMotion ? 0 : 250;
  var prefs = document.body.classList;
  var baseTitle = document.title;
  var socket = null;
  var retryMs = 1000;
  var holding = false; // a finished trick is standing: fragments wait in the queue
  var holdTimers = [];
  var queue = [];
  var shownTricks = {}; // the finished tricks already held, by key
  var wasMyTurn = false;
  var announced = "";
  var turnKey = "";
  var turnSeen = 0;
  var countdownTimer = null;
  var summaryKey = "smear-summary-closed:" + live.dataset.socket;
  var HEARTBEAT_MS = 10000; // game.live.presence.HEARTBEAT_S
  var INTERRUPTED_HEARTBEAT_MS = 2000;
  var REPLY_MS = 5000;
  var lastBeat = Date.now();
  var version = null; // the table's version this page shows (null: none heard yet)
  var shownVersion = null; // the version whose turn this page said it showed
  var replyDue = 0; // when an unanswered heartbeat counts the connection dead (0: none)

  function table() { return document.getElementById("table"); }

  // --- after every redraw, by the socket or by htmx -------------------------------------

  function afterDraw() {
    var t = table();
    if (!t) return;
    var mine = !!t.querySelector(".your-turn");
    document.title = (mine ? "Your turn · " : "") + baseTitle;
    // a redraw replaces the focused button too: the focus then falls to the body
    var focusLost = !document.activeElement || document.activeElement === document.body;
    if (mine && (!wasMyTurn || focusLost)) focusFirstMove(t);
    if (mine && !wasMyTurn && prefs.contains("sound-on-turn")) beep();
    wasMyTurn = mine;
    if (mine) sayShown();
    announce(t);
    keepSummaryClosed(t);
    fixShareLinks();
    countdown(t);
    if (window.smearCardChooser) window.smearCardChooser(t);
    holdTrick(t);
    if (mine && prefs.contains("autoplay-single")) autoplaySingleCard(t);
  }

  function focusFirstMove(t) {
    var active = document.activeElement;
    if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return;
    var first = t.querySelector(".dock .card-button, .dock .bid-form button, .dock .chooser-card input");
    if (first) first.focus({preventScroll: true});
  }

  function announce(t) {
    var said = [];
    var done = t.querySelector(".trick--done");
    if (done && !shownTricks[done.dataset.done]) said.push(done.getAttribute("aria-label") + ".");
    var turn = t.querySelector(".turn");
    if (turn) said.push(turn.textContent.replace(/\s+/g, " ").trim());
    var text = said.join(" ");
    if (text && text !== announced) {
      announced = text;
      document.getElementById("announce").textContent = text;
    }
  }

  function keepSummaryClosed(t) {
    var summary = t.querySelector("details[data-summary]");
    if (summary && sessionStorage.getItem(summaryKey) === summary.dataset.summary) {
      summary.open = false;
    }
  }

  // a toggle event does not bubble: heard on its way down
  document.addEventListener("toggle", function (event) {
    var summary = event.target;
    if (!summary.dataset || !summary.dataset.summary) return;
    if (summary.open) sessionStorage.removeItem(summaryKey);
    else sessionStorage.setItem(summaryKey, summary.dataset.summary);
  }, true);

  function fixShareLinks() {
    // the socket draws the lobby without a request: the link is made from this page's address
    document.querySelectorAll("input[data-share-path]").forEach(function (input) {
      input.value = location.origin + input.dataset.sharePath;
    });
  }

  // A person's turn runs awayAfterS seconds before a bot plays it: the last fifteen are
  // counted down, from when the turn began: the page's first turn by the age the server
  // gave it, every later one from when this page saw it.
  function countdown(t) {
    var seat = t.querySelector(".seat--turn[data-person]");
    var key = seat ? t.dataset.round + "/" + t.dataset.index : "";
    var age = firstTurnAgeMs;
    firstTurnAgeMs = 0;
    if (key !== turnKey || age) {
      turnKey = key;
      turnSeen = Date.now() - age;
    }
    clearInterval(countdownTimer);
    if (!seat || !awayAfterS) return;
    var mine = !!t.querySelector(".your-turn");
    var who = seat.querySelector(".seat__name").firstChild.textContent.trim();
    function tick() {
      var box = t.querySelector(".countdown");
      if (!box) return;
      var left = Math.ceil(awayAfterS - (Date.now() - turnSeen) / 1000);
      box.hidden = left > 15 || left < 0;
      box.textContent = mine
        ? "A bot will play for you in " + left + " s."
        : "A bot will play for " + who + " in " + left + " s.";
    }
    tick();
    countdownTimer = setInterval(tick, 1000);
  }

  function autoplaySingleCard(t) {
    var playable = t.querySelectorAll(".dock .card-button");
    if (playable.length !== 1) return;
    var button = playable[0];
    setTimeout(function () {
      if (button.isConnected && !button.disabled) button.form.requestSubmit(button);
    }, 700);
  }

  function beep() {
    try {
      var Audio = window.AudioContext || window.webkitAudioContext;
      var audio = new Audio();
      var tone = audio.createOscillator();
      var volume = audio.createGain();
      tone.frequency.value = 660;
      volume.gain.value = 0.05;
      tone.connect(volume);
      volume.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch (e) { /* no sound: the title still says it */ }
  }

  // --- the discard: the card chooser (card_chooser.js) counts; its taps go up the socket ---

  function chosenCards(form) {
    return Array.prototype.map.call(form.querySelectorAll("input[name=card]:checked"), function (box) {
      return box.value;
    });
  }

  // --- the finished trick stays, then goes to its winner ----------------------------------

  function holdTrick(t) {
    var done = t.querySelector(".trick--done");
    if (!done) return;
    var middle = done.parentNode;
    if (shownTricks[done.dataset.done]) {
      middle.classList.add("trick-gone");
      return;
    }
    shownTricks[done.dataset.done] = true;
    holding = true;
    holdTimers.push(setTimeout(function () {
      done.classList.add("trick--gathered");
      holdTimers.push(setTimeout(endHold, gatherMs));
    }, holdMs));
  }

  // the trick's stay is over (or cut short: this page's player has played the next card,
  // which must show at once, not when the stay would have ended)
  function endHold() {
    holdTimers.forEach(clearTimeout);
    holdTimers = [];
    if (!holding) return;
    var done = document.querySelector("#table .trick--done");
    if (done) done.parentNode.classList.add("trick-gone");
    holding = false;
    while (queue.length && !holding) apply(queue.shift());
  }

  // --- the live connection -------------------------------------------------------------

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // this page's player was shown their turn: their away countdown starts now
  function sayShown() {
    if (version === null || version === shownVersion) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    shownVersion = version;
    send({shown: version});
  }

  function heardVersion(marker) {
    var heard = parseInt(marker.dataset.version, 10);
    var gap = version !== null && heard > version + 1;
    version = heard;
    if (gap) send({sync: version}); // a change was lost on the way: is there more?
  }

  // while the server says live updates are interrupted, the page asks every 2 s instead
  function heartbeat() {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    var now = Date.now();
    if (replyDue && now > replyDue) {
      dropConnection(); // the heartbeat before went unanswered
      return;
    }
    var notice = document.getElementById("live-notice");
    var every = notice && !notice.hidden ? INTERRUPTED_HEARTBEAT_MS : HEARTBEAT_MS;
    if (now - lastBeat < every) return;
    lastBeat = now;
    if (!replyDue) replyDue = now + REPLY_MS;
    send({sync: version});
  }

  function dropConnection() {
    var dead = socket;
    dead.onclose = null;
    dead.onmessage = null;
    try { dead.close(); } catch (e) { /* already closed */ }
    closed({code: 1006});
  }

  function swapIn(html) {
    // the chat goes on while a finished trick stands: only the table waits
    if (holding && !/^\s*<[^>]+ id="chat/.test(html)) queue.push(html);
    else apply(html);
  }

  function apply(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    Array.prototype.slice.call(holder.content.children).forEach(function (fresh) {
      if (fresh.id === "live-version") return heardVersion(fresh);
      var into = fresh.dataset.appendTo && document.getElementById(fresh.dataset.appendTo);
      if (into) {
        if (!document.getElementById(fresh.id)) into.appendChild(fresh);
        showMuted();
        return;
      }
      var current = fresh.id && document.getElementById(fresh.id);
      if (!current) return;
      if (fresh.id === "table-error") current.scrollIntoView({block: "nearest"});
      current.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
    });
    showMuted();
    afterDraw();
  }

  // --- the table's chat: lines go up the socket; muting is this browser's own -----------

  var mutedKey = "smear-muted:" + live.dataset.socket;

  function muted() {
    try { return JSON.parse(localStorage.getItem(mutedKey) || "[]"); } catch (e) { return []; }
  }

  function showMuted() {
    var box = document.getElementById("chat");
    if (!box) return;
    var off = muted();
    var hidden = 0;
    box.querySelectorAll(".chat-line").forEach(function (line) {
      line.hidden = off.indexOf(line.dataset.author) >= 0;
      if (line.hidden) hidden += 1;
    });
    var note = box.querySelector(".chat__muted");
    note.hidden = !off.length;
    note.querySelector(".chat__muted-count").textContent =
      hidden + (hidden === 1 ? " line" : " lines") + " from muted players hidden.";
    var lines = box.querySelector(".chat__lines");
    lines.scrollTop = lines.scrollHeight;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".chat-mute, .chat-unmute");
    if (!button) return;
    var off = button.classList.contains("chat-unmute") ? [] : muted().concat([button.dataset.mute]);
    localStorage.setItem(mutedKey, JSON.stringify(off));
    showMuted();
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("chat-form")) return;
    // the form posts instead: no connection, or no session yet (the post starts one)
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (document.getElementById("chat").hasAttribute("data-post-first")) return;
    event.preventDefault();
    var button = event.submitter;
    var text = form.querySelector("input[name=text]");
    if (button && button.name === "say") socket.send(JSON.stringify({say: button.value}));
    else socket.send(JSON.stringify({chat: text.value}));
    if (text) text.value = "";
  });

  function reconnecting(shown) {
    var notice = document.getElementById("reconnecting");
    if (notice) notice.hidden = !shown;
  }

  function connect() {
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + live.dataset.socket);
    socket.onopen = function () {
      window.smearLive = true;
      retryMs = 1000;
      shownVersion = null; // said again on the new connection (the server counts it once)
      live.dataset.connected = "yes";
      reconnecting(false);
    };
    socket.onmessage = function (event) {
      replyDue = 0; // anything heard answers the heartbeat
      swapIn(event.data);
    };
    socket.onclose = closed;
  }

  function closed(event) {
    window.smearLive = false;
    live.dataset.connected = "no";
    replyDue = 0;
    // 4403: this page may not see the table any more; polling shows why
    if (event.code === 4403) return;
    reconnecting(true);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 15000);
  }

  // while the connection is open the page does not poll: the check is here, not in a
  // filter on hx-trigger, which htmx would evaluate (the Content-Security-Policy forbids)
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (window.smearLive && event.detail.elt.id === "live") event.preventDefault();
  });

  // --- the misclick guard: on a touch screen a tap lifts a card, a second tap plays it ----

  var touchScreen = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  var pressed = {button: null, at: 0}; // the button a finger or mouse last went down on

  document.addEventListener("pointerdown", function (event) {
    pressed = {button: event.target.closest && event.target.closest("button"), at: Date.now()};
  }, true);

  // whether this press only lifts the card: guarded, and a pointer's press (a key plays at once)
  function onlyLifts(button) {
    if (!touchScreen || prefs.contains("one-tap")) return false;
    if (!button.classList.contains("card-button")) return false;
    if (pressed.button !== button || Date.now() - pressed.at > 2000) return false;
    if (button.classList.contains("card-button--lifted")) return false;
    document.querySelectorAll(".card-button--lifted").forEach(function (other) {
      other.classList.remove("card-button--lifted");
      other.removeAttribute("aria-pressed");
    });
    button.classList.add("card-button--lifted");
    button.setAttribute("aria-pressed", "true");
    return true;
  }

  // capture phase: runs before htmx's own submit handler, which then never sees the event
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    if (!live.contains(form) || !button || button.name !== "action") return;
    if (onlyLifts(button)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    event.preventDefault();
    event.stopPropagation();
    var index = form.querySelector("input[name=index]");
    var action = button.value;
    if (action === "discard") {
      var mode = form.querySelector("input[name=mode]:checked");
      action = (mode ? mode.value : "throw") + ":" + chosenCards(form).join(",");
    }
    socket.send(JSON.stringify({action: action, index: index ? index.value : null}));
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    if (holding) endHold();
  }, true);

  // the arrow keys step through your cards and bids; Enter or Space plays the one in focus
  document.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    var moves = Array.prototype.slice.call(document.querySelectorAll(".dock .card-button, .dock .bid-form button"));
    var at = moves.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    var step = event.key === "ArrowRight" ? 1 : -1;
    moves[(at + step + moves.length) % moves.length].focus();
  });

  document.body.addEventListener("htmx:afterSettle", afterDraw);

  showMuted();
  afterDraw();
  if (window.WebSocket) {
    connect();
    setInterval(heartbeat, 500);
  }
})();
