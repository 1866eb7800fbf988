// The score sheet without signal. A hand saved while the phone is offline (or whose
// sending fails) is kept on the phone in IndexedDB, drawn at once at the end of the sheet
// with its entries and totals folded by SmearLedger (the server's rules), marked "saved on
// this phone", and sent when the network is back. Each hand carries an id made here
// (client_id): sent twice, the server stores it once. Hands reach the sheet in the order
// they arrive; when two phones kept the same hand, both are kept and marked on the sheet.
(function (root) {
  "use strict";
  var script = document.currentScript;
  var DB = "smear-sheets", STORE = "pending";
  var RETRY_MS = 15000;
  var SEND_TIMEOUT_MS = 15000;
  var pending = []; // this sheet's kept hands, oldest first
  var sending = false;
  var backoff = 1000;

  // the service worker keeps this page as it now stands: opened before the worker ran,
  // or changed by a swap since it was loaded, it still opens without signal
  function keepPage() {
    if (!("serviceWorker" in navigator) || !navigator.onLine) return;
    navigator.serviceWorker.ready.then(function (registration) {
      // and the list of sheets, where the app opens from the home screen
      registration.active.postMessage({ keep: [location.pathname, script.dataset.scope] });
    });
  }
  if ("serviceWorker" in navigator && script && script.dataset.worker) {
    navigator.serviceWorker.register(script.dataset.worker, { scope: script.dataset.scope })
      .then(keepPage)
      .catch(function () { /* the sheet works online without it */ });
  }

  function data() {
    var source = document.getElementById("sheet-data");
    return source ? JSON.parse(source.textContent) : null;
  }

  function newId() {
    if (root.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
      hex.slice(20)].join("-");
  }

  // --- IndexedDB: the kept hands, by client_id, with the sheet they belong to ---------
  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "client_id" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }
  function store(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }
  function all() {
    return store("readonly", function (s) { return s.getAll(); }).then(function (found) {
      return (found || []).sort(function (a, b) { return a.at - b.at; });
    });
  }
  function put(record) { return store("readwrite", function (s) { s.put(record); }); }
  function remove(id) { return store("readwrite", function (s) { s.delete(id); }); }

  // --- The hand the form holds, read the way scoresheet/forms.py's HandForm reads it ----
  function readForm(form, sheet) {
    var fields = new FormData(form);
    var choice = fields.get("bidder"), bid = fields.get("bid");
    if (!choice || !bid) return { error: "Tap who bid and the bid." };
    var parts = choice.split("-"), bidder, who;
    if (parts[0] === "seat") {
      var seat = sheet.seats.filter(function (s) { return s.position === +parts[1]; })[0];
      bidder = seat.side;
      who = seat.name;
    } else {
      bidder = +parts[1];
      who = sheet.sides[bidder];
    }
    var sides = sheet.sides.length, takers = [], tapped = false;
    sheet.points.forEach(function (_, i) {
      var value = fields.get("point_" + i);
      takers.push(value === null || value === "" ? null : +value);
      tapped = tapped || (value !== null && value !== "");
    });
    var typed = sheet.sides.map(function (_, side) { return fields.get("made_" + side); });
    var anyTyped = typed.some(function (v) { return v !== null && v !== ""; });
    var made;
    if (tapped) {
      made = root.SmearLedger.madeFromTakers(takers, sides);
      if (anyTyped && typed.map(function (v) { return +v || 0; }).join() !== made.join()) {
        return { error: "The points you tapped and the points typed in differ. Clear one." };
      }
    } else if (anyTyped) {
      made = typed.map(function (v) { return +v || 0; });
    } else {
      return { error: "Tap the side that took each point, or type the points each side made." };
    }
    var hand = { bidder: bidder, bid: +bid, made: made };
    try {
      root.SmearLedger.checkHand(hand, 0, sides, sheet.rules);
    } catch (error) {
      return { error: error.reason.charAt(0).toUpperCase() + error.reason.slice(1) + "." };
    }
    var pairs = [];
    fields.forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") pairs.push([name, String(value)]);
    });
    return { hand: hand, who: who, fields: pairs };
  }

  // --- Drawing: the kept hands after the sheet's own, the standings of them all -------
  function text(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    node.textContent = content;
    return node;
  }

  function draw() {
    // a page the phone kept may hold a message from when it was kept: not news now
    Array.prototype.forEach.call(document.querySelectorAll(".messages"), function (box) {
      if (!navigator.onLine) box.hidden = true;
    });
    var sheet = data();
    var live = document.getElementById("live");
    if (!sheet || !live) return;
    var mine = pending.filter(function (p) { return p.sheet === sheet.sheet; });
    var hands = sheet.hands.concat(mine.map(function (p) { return p.hand; }));
    var rows = root.SmearLedger.tally(hands, sheet.sides.length, sheet.rules);
    var body = live.querySelector(".sheet-table tbody");
    Array.prototype.forEach.call(live.querySelectorAll("tr.pending"), function (tr) {
      tr.remove();
    });
    var empty = body && body.querySelector("td.note");
    if (empty) empty.parentNode.hidden = mine.length > 0;
    mine.forEach(function (kept, i) {
      var row = rows[sheet.hands.length + i];
      var tr = document.createElement("tr");
      tr.className = "pending " + (row.made ? "made" : "missed");
      tr.dataset.clientId = kept.client_id;
      tr.appendChild(text("th", "", String(kept.number)));
      var bid = document.createElement("td");
      bid.className = "bid";
      bid.appendChild(text("span", "bid__who", kept.who));
      bid.appendChild(text("span", "bid__amount", String(kept.hand.bid)));
      bid.appendChild(text("span", "bid__result", row.made ? "made" : "missed"));
      bid.appendChild(text("span", "bid__pending", kept.error ?
        "not sent: " + kept.error : "saved on this phone"));
      if (kept.error) {
        var discard = text("button", "link-button", "Discard it");
        discard.type = "button";
        discard.dataset.discard = kept.client_id;
        bid.appendChild(discard);
      }
      tr.appendChild(bid);
      row.entries.forEach(function (entry, side) {
        var td = document.createElement("td");
        td.className = "cell" + (row.at_target[side] ? " cell--at-target" : "");
        td.dataset.side = side;
        td.appendChild(text("span", "cell__entry", String(entry)));
        td.appendChild(text("span", "cell__total", "= " + row.totals[side]));
        if (row.debts[side]) {
          td.appendChild(text("span", "cell__debt debt", "owes " + row.debts[side]));
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    if (mine.length) {
      var last = rows[rows.length - 1];
      Array.prototype.forEach.call(live.querySelectorAll(".standing"), function (li) {
        var side = +li.dataset.side;
        li.querySelector(".standing__score").textContent = String(last.standings[side]);
        var detail = li.querySelector(".standing__detail");
        detail.textContent = "total " + last.totals[side] +
          (last.debts[side] ? " · owes " + last.debts[side] : "") +
          (last.at_target[side] ? " · at the target" : "");
        li.classList.toggle("standing--at-target", last.at_target[side]);
      });
      Array.prototype.forEach.call(live.querySelectorAll("tfoot tr"), function (tr, line) {
        var values = [last.totals, last.debts, last.standings];
        if (sheet.rules.missed_bid !== "debt") values = [last.totals, last.standings];
        Array.prototype.forEach.call(tr.querySelectorAll("td"), function (td, side) {
          td.textContent = String(values[line][side]);
        });
      });
    }
    // the next hand's number and dealer, counting the kept hands
    var next = sheet.next_number + mine.length;
    var title = document.getElementById("entry-title");
    if (title && mine.length) {
      var position = hands.length + 1;
      var dealer = sheet.seats.length ?
        " · " + sheet.seats[(position - 1) % sheet.seats.length].name + " deals" : "";
      title.textContent = "Hand " + next + dealer;
      var save = live.querySelector(".hand-form button[type=submit]");
      if (save) save.textContent = "Save hand " + next;
    }
    var status = document.getElementById("sheet-offline");
    if (status) {
      var waiting = mine.filter(function (p) { return !p.error; }).length;
      status.hidden = !mine.length && navigator.onLine;
      status.dataset.state = navigator.onLine ? (waiting ? "sending" : "online") : "offline";
      status.textContent = navigator.onLine ?
        (waiting ? waiting + " hand" + (waiting === 1 ? "" : "s") +
          " saved on this phone, sending…" : "") :
        "No network: hands you save are kept on this phone" +
          (mine.length ? " (" + mine.length + " so far)" : "") +
          " and sent when the network is back.";
      if (!status.textContent) status.hidden = true;
    }
    if (root.SmearChart) {
      root.SmearChart.drawAll(live, mine.map(function (p) { return p.hand; }));
    }
  }

  function reload() {
    return all().then(function (found) {
      pending = found;
      draw();
    });
  }

  // --- Keeping a hand on the phone ---------------------------------------------------
  function say(message, kind) {
    var live = document.getElementById("live");
    if (!live) return;
    var old = live.querySelector(".message.saved");
    if (old) old.remove();
    var p = text("p", "message saved" + (kind ? " message--" + kind : ""), message);
    p.setAttribute("role", "status");
    live.insertBefore(p, live.firstChild);
  }

  function keep(form) {
    var sheet = data();
    var read = readForm(form, sheet);
    if (read.error) {
      say(read.error, "error");
      return Promise.resolve(false);
    }
    var mine = pending.filter(function (p) { return p.sheet === sheet.sheet; });
    var number = sheet.next_number + mine.length;
    var id = form.elements.client_id.value || newId();
    var fields = read.fields.map(function (pair) {
      if (pair[0] === "number") return ["number", String(number)];
      if (pair[0] === "client_id") return ["client_id", id];
      return pair;
    });
    var record = { client_id: id, sheet: sheet.sheet, sync: form.dataset.sync, number: number,
      who: read.who, hand: read.hand, fields: fields, at: Date.now(), error: null };
    return put(record).then(function () {
      form.reset();
      form.elements.client_id.value = newId();
      var preview = document.getElementById("preview");
      if (preview) preview.textContent = "";
      return reload();
    }).then(function () {
      say("Hand " + number + " is saved on this phone: " + read.who + " bid " + read.hand.bid +
        ". It goes to the sheet when the network is back.");
      return true;
    });
  }

  // logging out: the sheet pages this phone kept are no one else's to open offline
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (script && script.dataset.logout && form.getAttribute &&
        form.getAttribute("action") === script.dataset.logout && root.caches) {
      caches.delete("sheets-pages");
    }
  }, true);

  // offline, a saved hand never leaves the phone: htmx is not asked to send it. Online
  // with hands still waiting on the phone, it waits behind them: the sheet keeps the
  // order they were saved in
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches(".hand-form[data-sync]")) return;
    var sheet = data();
    var waiting = pending.some(function (p) { return p.sheet === sheet.sheet && !p.error; });
    if (navigator.onLine && !waiting) return;
    event.preventDefault();
    event.stopPropagation();
    keep(form).then(function (kept) { if (kept) send(); });
  }, true);
  // online but the sending failed (no answer): keep it; the same client_id goes again
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var form = event.detail.elt;
      if (form && form.matches && form.matches(".hand-form[data-sync]")) keep(form);
    });
  });
  // the preview offline: worked out here, in the words the server uses
  document.addEventListener("htmx:beforeRequest", function (event) {
    var preview = event.detail.elt;
    if (preview.id !== "preview" || navigator.onLine) return;
    event.preventDefault();
    var sheet = data(), form = preview.closest("form");
    var read = readForm(form, sheet);
    preview.textContent = "";
    if (read.error) return;
    var mine = pending.filter(function (p) { return p.sheet === sheet.sheet; });
    var hands = sheet.hands.concat(mine.map(function (p) { return p.hand; }), [read.hand]);
    var rows = root.SmearLedger.tally(hands, sheet.sides.length, sheet.rules);
    var row = rows[rows.length - 1];
    var verdict = text("p", "preview__verdict " + (row.made ? "made" : "missed"),
      read.who + " bid " + read.hand.bid + " and took " + read.hand.made[read.hand.bidder] +
      ": " + (row.made ? "bid made" : "bid missed") + ".");
    verdict.dataset.made = read.hand.made.join(" ");
    preview.appendChild(verdict);
    var list = document.createElement("ul");
    list.className = "preview__cells";
    sheet.sides.forEach(function (name, side) {
      list.appendChild(text("li", row.at_target[side] ? "cell--at-target" : "",
        name + " enters " + row.entries[side] +
        (row.debts[side] ? ", owes " + row.debts[side] : "") +
        " → standing " + row.standings[side]));
    });
    preview.appendChild(list);
  });
  document.addEventListener("click", function (event) {
    var id = event.target.dataset && event.target.dataset.discard;
    if (id) remove(id).then(reload);
  });

  // --- Sending the kept hands, oldest first, when the network is back ----------------
  function csrf() {
    var match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function send() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var sent = 0;
    return all().then(function (found) {
      // one sending per sheet, all its kept hands in their order: they go on the sheet
      // one after another, never between another phone's
      var groups = {};
      found.filter(function (p) { return !p.error; }).forEach(function (p) {
        (groups[p.sync] = groups[p.sync] || []).push(p);
      });
      var queue = Object.keys(groups);
      function next() {
        var url = queue.shift();
        if (!url) return null;
        var kept = groups[url];
        // a send that never answers must not hold the others back: it is tried again
        var abort = new AbortController();
        var timer = setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
        return fetch(url, {
          method: "POST",
          credentials: "same-origin",
          headers: { "X-CSRFToken": csrf(), "Content-Type": "application/json" },
          body: JSON.stringify({ hands: kept.map(function (p) { return p.fields; }) }),
          signal: abort.signal
        }).then(function (response) {
          clearTimeout(timer);
          if (response.ok) {
            sent += kept.length;
            return Promise.all(kept.map(function (p) { return remove(p.client_id); }))
              .then(next);
          }
          if (response.status >= 500 || response.status === 429) {
            throw new Error("try again later"); // the server's trouble, not the hands'
          }
          return response.json().catch(function () { return {}; }).then(function (body) {
            var error = body.error || "the sheet refused them (" + response.status + ")";
            return Promise.all(kept.map(function (p) {
              p.error = error;
              return put(p);
            })).then(next);
          });
        });
      }
      return next();
    }).then(function () {
      backoff = 1000;
    }, function () {
      // no answer, or the server's trouble: the hands stay on the phone; try again soon,
      // then less often
      backoff = Math.min(backoff * 2, RETRY_MS);
      setTimeout(send, backoff);
    }).then(function () {
      sending = false;
      if (sent && document.getElementById("live") && root.htmx) {
        // the sheet as the server now has it: every phone's hands, in their order
        return root.htmx.ajax("GET", location.pathname, {
          target: "#live", select: "#live", swap: "outerHTML"
        });
      }
    }).then(reload);
  }

  root.SmearPending = {
    hands: function () {
      var sheet = data();
      return pending.filter(function (p) { return sheet && p.sheet === sheet.sheet; })
        .map(function (p) { return p.hand; });
    },
    send: send
  };

  window.addEventListener("online", function () { draw(); send(); });
  window.addEventListener("offline", draw);
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "live") {
      reload();
      keepPage();
    }
  });
  reload().then(send);
  setInterval(function () {
    if (pending.some(function (p) { return !p.error; })) send();
  }, RETRY_MS);
})(window);
