// A table's live connection. The server pushes HTML fragments; each top-level element
// with an id replaces the element of the page with the same id. While the connection is
// open, a move (a form button inside #live) goes over it as {"action", "index"}; while
// it is down the forms post as usual and the page polls (hx-trigger on #live).
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.WebSocket) return;
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + live.dataset.socket;
  var socket = null;
  var retryMs = 1000;

  function swapIn(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    Array.prototype.forEach.call(holder.content.children, function (fresh) {
      var current = fresh.id && document.getElementById(fresh.id);
      if (!current) return;
      if (fresh.id === "table-error") current.scrollIntoView({block: "nearest"});
      current.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
    });
  }

  function connect() {
    socket = new WebSocket(url);
    socket.onopen = function () {
      window.smearLive = true;
      retryMs = 1000;
      live.dataset.connected = "yes";
    };
    socket.onmessage = function (event) { swapIn(event.data); };
    socket.onclose = function (event) {
      window.smearLive = false;
      live.dataset.connected = "no";
      // 4403: this page may not see the table any more; polling shows why
      if (event.code === 4403) return;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 15000);
    };
  }

  // while the connection is open the page does not poll: the check is here, not in a
  // filter on hx-trigger, which htmx would evaluate (the Content-Security-Policy forbids)
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (window.smearLive && event.detail.elt.id === "live") event.preventDefault();
  });

  // capture phase: runs before htmx's own submit handler, which then never sees the event
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    if (!live.contains(form) || !button || button.name !== "action") return;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    event.preventDefault();
    event.stopPropagation();
    var index = form.querySelector("input[name=index]");
    socket.send(JSON.stringify({action: button.value, index: index ? index.value : null}));
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  }, true);

  connect();
})();
