// Times marked <time data-local datetime="..."> are shown in the viewer's own time zone
// (the server writes them in the site's zone, which stays as the text without script).
(function () {
  "use strict";
  var format = new Intl.DateTimeFormat(undefined, {
    month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
  function localise(root) {
    root.querySelectorAll("time[data-local]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (!isNaN(when)) time.textContent = format.format(when);
    });
  }
  localise(document);
  document.addEventListener("htmx:afterSettle", function (event) { localise(event.target); });
})();
