// The team picker: with "Custom" chosen, each seat's side is picked by a tap, and the
// custom teams' text ("0,2:1,3", what the server reads and what a page without scripts
// types) is written from the picks.
(function () {
  "use strict";
  var host = document.querySelector("[data-team-picker]");
  if (!host) return;
  var form = host.closest("form");
  var players = form.querySelector("select[name=players]");
  var layout = form.querySelector("select[name=layout]");
  var text = host.querySelector("input[name=custom_teams]");
  var SIDES = "ABCD";
  var picker = document.createElement("fieldset");
  picker.className = "team-picker";
  host.classList.add("custom-teams--picked");
  host.insertBefore(picker, host.firstChild);

  function count() { return parseInt(players.value, 10) || 4; }

  // each seat's side, read from the text where it describes these seats; partners
  // alternating (seats 0 and 2 against 1 and 3) otherwise
  function sidesFromText(n) {
    var sides = [];
    text.value.replace(/\s/g, "").split(":").forEach(function (part, unit) {
      part.split(",").forEach(function (seat) {
        var at = parseInt(seat, 10);
        if (at >= 0 && at < n && unit < SIDES.length) sides[at] = unit;
      });
    });
    for (var seat = 0; seat < n; seat++) {
      if (sides[seat] === undefined) return alternate(n);
    }
    return sides;
  }

  function alternate(n) {
    var sides = [];
    for (var seat = 0; seat < n; seat++) sides.push(seat % 2);
    return sides;
  }

  function seatName(seat, n) {
    if (seat === 0) return "You";
    if (seat === 1) return "Seat 1 (your left)";
    if (seat === n - 1) return "Seat " + seat + " (your right)";
    return "Seat " + seat;
  }

  // the sides in the order their first seat sits, empty ones left out: "0,2:1,3"
  function write(sides) {
    var units = [];
    var order = [];
    sides.forEach(function (side, seat) {
      if (!units[side]) { units[side] = []; order.push(side); }
      units[side].push(seat);
    });
    text.value = order.map(function (side) { return units[side].join(","); }).join(":");
  }

  function draw() {
    var n = count();
    var sides = sidesFromText(n);
    var kinds = Math.min(n, SIDES.length);
    picker.textContent = "";
    var legend = document.createElement("legend");
    legend.textContent = "Pick a side for each seat";
    picker.appendChild(legend);
    for (var seat = 0; seat < n; seat++) {
      var row = document.createElement("div");
      row.className = "team-picker__seat";
      row.setAttribute("role", "radiogroup");
      var name = document.createElement("span");
      name.className = "team-picker__name";
      name.id = "team-picker-seat-" + seat;
      name.textContent = seatName(seat, n);
      row.setAttribute("aria-labelledby", name.id);
      row.appendChild(name);
      for (var side = 0; side < kinds; side++) {
        var label = document.createElement("label");
        label.className = "team-picker__side side-" + side;
        var radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "team-picker-" + seat;
        radio.value = side;
        radio.checked = sides[seat] === side;
        radio.setAttribute("form", "team-picker-none"); // never posted: the text is
        radio.dataset.seat = seat;
        var words = document.createElement("span");
        words.className = "visually-hidden";
        words.textContent = "Side ";
        label.appendChild(radio);
        label.appendChild(words);
        label.appendChild(document.createTextNode(SIDES[side]));
        row.appendChild(label);
      }
      picker.appendChild(row);
    }
    write(sides);
  }

  picker.addEventListener("change", function () {
    var sides = [];
    picker.querySelectorAll("input:checked").forEach(function (radio) {
      sides[parseInt(radio.dataset.seat, 10)] = parseInt(radio.value, 10);
    });
    write(sides);
  });
  players.addEventListener("change", draw);
  layout.addEventListener("change", draw);
  draw();
})();
