// The card chooser (templates/game/card_chooser.html): a discard chosen by tapping the
// cards to keep, or the cards to throw. This counts the cards chosen as they are tapped
// ("Keep 6: 4 chosen"), says what is missing, and holds the button until the count is
// right; switching the mode keeps the same discard (each box's meaning flips, so each box
// flips). The cards the rule fixes are never boxes. The server still checks the rule and
// says what is wrong: without this script the form posts as it is.
(function () {
  "use strict";
  if (window.smearCardChooser) return; // loaded again by a swap: its listeners are there
  // a page that swaps fragments in by itself (the table's live.js) starts them with this
  window.smearCardChooser = start;

  function modeOf(chooser) {
    var radio = chooser.querySelector("input[name=mode]:checked");
    return radio ? radio.value : chooser.dataset.mode;
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  function update(chooser) {
    var mode = modeOf(chooser);
    var wanted = parseInt(mode === "keep" ? chooser.dataset.keep : chooser.dataset.throw, 10);
    var fixed = chooser.querySelectorAll('[data-fixed="' + mode + '"]').length;
    var chosen = fixed + chooser.querySelectorAll("input[name=card]:checked").length;
    chooser.dataset.mode = mode;
    chooser.querySelector("[data-chooser-count]").textContent =
      (mode === "keep" ? "Keep " : "Throw ") + wanted + ": " + chosen + " chosen";
    var why = "";
    if (chosen < wanted) {
      why = "choose " + plural(wanted - chosen, "more card") + " to " + mode + ".";
    } else if (chosen > wanted) {
      why = plural(chosen - wanted, "card") + " too many: tap one again to take it back.";
    }
    chooser.querySelector("[data-chooser-why]").textContent = why;
    chooser.querySelector("[data-chooser-submit]").disabled = chosen !== wanted;
  }

  function flip(chooser) {
    chooser.querySelectorAll("input[name=card]").forEach(function (box) {
      box.checked = !box.checked;
    });
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    var chooser = input.closest ? input.closest("[data-card-chooser]") : null;
    if (!chooser) return;
    if (input.name === "mode") flip(chooser);
    update(chooser);
  });

  function start(root) {
    if (!root || !root.querySelectorAll) return;
    if (root.matches && root.matches("[data-card-chooser]")) update(root);
    root.querySelectorAll("[data-card-chooser]").forEach(update);
  }

  // a refused answer swaps the question in again (htmx): its chooser starts afresh
  document.addEventListener("htmx:load", function (event) { start(event.target); });
  start(document);
})();
