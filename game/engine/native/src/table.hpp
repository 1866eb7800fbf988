// A full-deck table's rules as data (RulesData), and the same search for them.
//
// With trump named, a full-deck table plays as the house rules do once its cards are
// renumbered: each suit's cards in one run of codes, ranked upward, the trump run holding
// the jick and the jokers in their places (A K Q J, jick, high joker, low joker, 10 .. 2).
// Then a trump beats every other card and the higher code wins within a run, as the
// search assumes; no card is a house joker; and only the follow rule (schmier) and the
// points differ, which the renumbered Rules carry. Every question about a table's position
// is asked of its renumbered copy and the answers told in the table's own codes.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core.hpp"

namespace smear {

// What Python says of a table (solver_native.rules_data builds it from variants.Rules).
struct RulesData {
    Mask deck = 0;                  // every card the table plays
    std::vector<int> suit_of;       // per card: its printed suit, -1 for a joker
    std::vector<int> rank_of;       // per card: its rank within its printed suit
    std::vector<int> game_value;    // per card: toward game
    // per trump suit: every trump, lowest first (the jick and the jokers among them)
    std::vector<std::vector<int>> trump_order;
    std::string follow;             // "trump_any_time" or "schmier"
    // per trump suit: the cards that score for the unit capturing them (the jack, the jick,
    // the jokers the table counts) and those that score for the unit of the seat dealt them
    // (the ace and the two under ace_two)
    std::vector<Mask> capture_points;
    std::vector<Mask> holder_points;
    bool game = true;               // the game point (the core plays none without it)
};

// The renumbered rules of a table, one per trump suit.
struct TableRules {
    Mask deck = 0;
    std::array<Rules, 4> by_trump;
    // per trump suit: a card's renumbered code (-1 outside the deck), and back
    std::array<std::array<int, kCards>, 4> to_virtual, to_real;

    Mask virtual_mask(int trump, Mask real) const;
    Mask real_mask(int trump, Mask cards) const;
    // ``p`` (in the table's codes) checked and renumbered; trump must be named
    Position virtual_position(const Position& p) const;
    int real_card(int trump, int card) const { return to_real[trump][card]; }
    int virtual_card(int trump, int card) const;
};

// Checks ``data`` and renumbers it; raises std::invalid_argument on bad data.
TableRules compile_table(const RulesData& data);

}  // namespace smear
