// The analysis board's round so far, tapped in (templates/learn/analysis_new.html#moves):
// a call or a card tapped is written at the end of the typed field, a discard is the cards
// tapped then "Discard", and "Take back" drops the last action. The field stays the truth:
// the form posts it as typed and the server judges it; after each tap the field's change
// asks the server (htmx) what can be tapped next. Without this script the field is typed.
(function () {
  "use strict";

  function fieldOf(button) {
    var moves = button.closest("[data-moves]");
    return moves ? document.getElementById(moves.dataset.moves) : null;
  }

  function tokens(field) {
    return field.value.split(/[\s,;.]+/).filter(Boolean);
  }

  function write(field, list) {
    field.value = list.join(" ");
    field.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button) return;
    var field = fieldOf(button);
    if (!field) return;
    if (button.hasAttribute("data-toggle")) {
      var pressed = button.getAttribute("aria-pressed") === "true";
      button.setAttribute("aria-pressed", pressed ? "false" : "true");
    } else if (button.hasAttribute("data-undo")) {
      write(field, tokens(field).slice(0, -1));
    } else if (button.dataset.append) {
      var token = button.dataset.append;
      if (button.hasAttribute("data-discard")) {
        button.closest("[data-moves]").querySelectorAll('[data-toggle][aria-pressed="true"]')
          .forEach(function (card) { token += card.dataset.code; });
      }
      write(field, tokens(field).concat([token]));
    }
  });
})();
