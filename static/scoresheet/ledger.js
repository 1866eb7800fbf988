// The score sheet's rules in the page: scoresheet/ledger.py's fold, step for step, so that
// a phone without signal shows the same entries, debts, totals and standings the server
// will. tests/browser/test_scoresheet_ledger.py holds it to ledger.tally on every case of
// tests/scoresheet's table tests. Change one, change both.
(function (root) {
  "use strict";

  function zeros(n) {
    var list = [];
    for (var i = 0; i < n; i++) list.push(0);
    return list;
  }

  function isInt(value) {
    return typeof value === "number" && Math.floor(value) === value;
  }

  // ledger.check_hand: throws an Error whose message says why the hand cannot be
  function checkHand(hand, index, sides, rules) {
    function refuse(reason) {
      var error = new Error("hand " + index + ": " + reason);
      error.reason = reason;
      throw error;
    }
    if (!isInt(hand.bidder) || hand.bidder < 0 || hand.bidder >= sides) {
      refuse("bidder " + hand.bidder + " is not a side 0 to " + (sides - 1));
    }
    if (!isInt(hand.bid) || hand.bid < rules.min_bid || hand.bid > rules.max_bid) {
      refuse("a bid is " + rules.min_bid + " to " + rules.max_bid + ", not " + hand.bid);
    }
    if (hand.made.length !== sides) {
      refuse("made has " + hand.made.length + " numbers for a sheet of " + sides + " sides");
    }
    var sum = 0;
    hand.made.forEach(function (points, side) {
      if (!isInt(points) || points < 0) {
        refuse("side " + side + " made " + points + ": points are whole numbers from 0 up");
      }
      sum += points;
    });
    if (sum > rules.points_per_hand) {
      refuse("the sides made " + sum + " points, more than the " + rules.points_per_hand +
        " a hand holds");
    }
  }

  // game.engine.rules.settle_round: the match after one hand, and who has won
  function settle(scores, made, bidder, bid, target, capped) {
    var after = scores.map(function (score, side) {
      var points = made[side];
      if (side === bidder) return score + (points >= bid ? points : -bid);
      if (capped) return score + Math.min(points, target - 1 - score);
      return score + points;
    });
    var winner = null;
    if (after[bidder] >= target) {
      winner = bidder;
    } else {
      var out = after.filter(function (score) { return score >= target; });
      if (out.length) {
        var best = Math.max.apply(null, out);
        var atBest = out.filter(function (score) { return score === best; }).length;
        if (atBest === 1) winner = after.indexOf(best);
      }
    }
    return { after: after, made: made[bidder] >= bid, winner: winner };
  }

  // ledger.tally: the hands, in order, folded into one row per hand
  function tally(hands, sides, rules) {
    var totals = zeros(sides);
    var debts = zeros(sides);
    var standings = zeros(sides);
    var rows = [];
    hands.forEach(function (hand, index) {
      checkHand(hand, index, sides, rules);
      var scoring = settle(standings, hand.made, hand.bidder, hand.bid, rules.target,
        rules.bidder_only_out);
      var entries = zeros(sides);
      for (var side = 0; side < sides; side++) {
        var change = scoring.after[side] - standings[side];
        standings[side] = scoring.after[side];
        if (rules.missed_bid === "negative") {
          entries[side] = change;
        } else if (change < 0) {
          debts[side] -= change; // owed against later points, nothing entered
        } else {
          var paid = Math.min(debts[side], change);
          debts[side] -= paid;
          entries[side] = change - paid;
        }
        totals[side] += entries[side];
      }
      rows.push({
        index: index,
        hand: hand,
        made: scoring.made,
        entries: entries,
        debts: debts.slice(),
        totals: totals.slice(),
        standings: standings.slice(),
        at_target: standings.map(function (s) { return s >= rules.target; }),
        bankable: scoring.winner !== null,
        winner: scoring.winner
      });
    });
    return rows;
  }

  // ledger.made_from_takers: the side that took each point (or null), added up
  function madeFromTakers(takers, sides) {
    var made = zeros(sides);
    takers.forEach(function (taker) {
      if (taker !== null) made[taker] += 1;
    });
    return made;
  }

  root.SmearLedger = { tally: tally, checkHand: checkHand, madeFromTakers: madeFromTakers };
})(window);
