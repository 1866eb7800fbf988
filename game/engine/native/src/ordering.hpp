// Move ordering: the order in which the search tries a seat's legal cards. It never
// changes a value, only how soon a cut-off comes. Here: each card's ordering keys
// (OrderKeys) and the last cut-offs (Killers); the ordering itself, and which legal cards
// are merged as equivalent, in Search's members defined in ordering.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core.hpp"

namespace smear {

// Each card's ordering keys, for one trump (the lower, the sooner tried): [0] for the
// search, [1] for the game search, where a scoring card is worth only its game value.
struct OrderKeys {
    int lead[kCards], feed[2][kCards], cheap[kCards], dump[2][kCards];

    // ``trumps``: the trump suit; ``scoring``: the cards in play that score a point
    void fill(const Rules& r, Mask trumps, Mask scoring);
};

// The last cut-off card (the "killer") per place in the search: seat, cards already in
// the trick, cards in the seat's hand, and a context (see Search::killer) out of
// kContexts. A killer only orders cards: places that share a slot cost nodes, never values.
class Killers {
   public:
    // the card winning the trick so far (or none), or a trump winning a trick led in
    // another suit: its rank (the 13th and above as one) and the suit led
    static constexpr int kContexts = kCards + 1 + 13 * 4;

    void reset(int players) {
        players_ = players;
        slots_.assign(std::size_t(players) * players * 8 * kContexts, -1);
    }
    int& at(int seat, int trick_len, int hand_size, int context) {
        const int place = (seat * players_ + trick_len) * 8 + hand_size;
        return slots_[place * kContexts + context];
    }

   private:
    int players_ = 0;
    std::vector<int> slots_;
};

// The last cut-off card in the same place, when it is one of ``cards`` (the legal ones),
// is tried first.
void killer_first(int* cards, int n, int killer);

}  // namespace smear
