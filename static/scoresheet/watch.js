// The read-only live sheet: redrawn over the websocket while it is open, polled while not.
(function () {
  "use strict";
  var root = document.querySelector("[data-watch]");
  var status = document.getElementById("watch-status");
  if (!root || !status) {
    return;
  }
  function show(live) {
    if (live) {
      root.dataset.live = "on";
      status.dataset.state = "live";
      status.textContent = "Live: hands appear here as they are entered.";
    } else {
      delete root.dataset.live;
      status.dataset.state = "polling";
      status.textContent = "Checking for new hands every 5 seconds.";
    }
  }
  // while live, one poll a minute as a safety net; else every poll (hx-trigger's 5 s)
  var SAFETY_NET_MS = 59000;
  var lastPoll = 0;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.id !== "watched") return;
    var now = Date.now();
    if (root.dataset.live && now - lastPoll < SAFETY_NET_MS) {
      event.preventDefault();
      return;
    }
    lastPoll = now;
  });
  document.body.addEventListener("htmx:wsOpen", function () { show(true); });
  document.body.addEventListener("htmx:wsClose", function () { show(false); });
  document.body.addEventListener("htmx:wsError", function () { show(false); });
})();
