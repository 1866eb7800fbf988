// The root: the questions asked of a position (its value, each card's value, the best
// card, the principal variation) and the entry points that ask them. Each question is
// answered by null-window probes of the search (search.hpp) below each legal card:
// goals from the top of the utility table down, the cards raced against each other.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core.hpp"

namespace smear {

class Search;

// The searches below one position: one per trump the next card could set, sharing a
// transposition table across every question asked of the position.
class Root {
   public:
    // ``exact_tricks`` above 0 asks for an estimate: that many tricks (the current one
    // first) searched exactly, each trick start after them valued by estimate_at.
    // ``rules``: the house rules unless a table's renumbered ones (table.hpp) are given.
    Root(const Position& position, const Utility& utility, const Budget& budget,
         Counters& counters, int exact_tricks = 0, const Rules* rules = nullptr);
    ~Root();
    const std::vector<int>& order() const { return order_; }
    int after(int card, int alpha, int beta, std::uint64_t node_limit = UINT64_MAX);
    bool at_least(int card, int goal) { return after(card, goal - 1, goal) >= goal; }
    int value();
    int card_value(int card, std::optional<int> guess = std::nullopt);
    int best_card();

   private:
    template <typename Probe>
    int narrow(Probe probe, int low, int high, int first) const;
    int index_of(int value) const;
    int race_cards(int goal, bool side_moves);

    const Rules& rules_;
    const Position& position_;
    const Utility& utility_;
    const Budget budget_;  // a copy: callers may pass a temporary
    Counters& counters_;
    const int horizon_;  // cards held at the first trick start valued by estimate (0: none)
    std::vector<int> order_;
    std::unique_ptr<Search> searches_[4];
};

Position advance(const Position& p, int card, const Rules& r);
std::vector<int> principal_variation(const Position& p, const Utility& u, Counters& counters,
                                     const Rules& r);
// The legal cards in the order the root tries them: a table's in its own codes' order.
std::vector<int> root_order(const Position& p, const Rules& r);

}  // namespace smear
