// Move ordering: the order in which the search tries a seat's legal cards. It never
// changes a value, only how soon a cut-off comes. Here: the ordering bands, each card's
// keys within them (OrderKeys) and the last cut-offs (Killers); the ordering itself, and
// which legal cards are merged as equivalent, in Search's members defined in ordering.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "core.hpp"

namespace smear {

// Ordering keys: the lower a card's key, the sooner it is tried. OrderKeys weighs each
// card's rank, game value and points; Search::order adds an offset for the kind of play,
// and the offsets lie further apart than the keys they are added to can span (ranks run
// 0 to 15, a table's trump suit holding the jick and two jokers; game values 0 to 10).
namespace band {

// Leading a trick: trumps, highest first (a trump's key is kLeadTrump - rank); then plain
// cards, highest first (-rank); jokers last.
constexpr int kLeadTrump = -100;
constexpr int kLeadJoker = 50;

// Feeding a trick one's side will win: a scoring card first (kFeedPoint), then the most
// game (kFeedPerGame a game point).
constexpr int kFeedPoint = -100;
constexpr int kFeedPerGame = -2;

// Throwing a card away: the least game first (kDumpPerGame a game point), then the lowest
// rank; a scoring card weighs kDumpPoint more.
constexpr int kDumpPerGame = 20;
constexpr int kDumpPoint = 200;

// Winning a trick as cheaply as possible: the lowest rank, a trump or joker after every
// plain card (kCheapTrump).
constexpr int kCheapTrump = 20;

// Following to a trick (see Search::order): offsets added to the keys above.
//
// A partner's trick an opponent still to play can take: a winner no opponent after it can
// beat takes it over first, before the cheapest card is thrown.
constexpr int kTakeOver = -1000;
// An opponent's trick: the cheapest winner no opponent after it can beat, then the
// cheapest one they can (kUnsafeWinner), then the cards that cannot win: thrown cheapest
// first (kThrow), or fed to a partner still to play who can take the trick (kFeedPartner).
constexpr int kUnsafeWinner = 100;
constexpr int kThrow = 1000;
constexpr int kFeedPartner = 1300;

}  // namespace band

// Each card's keys within the bands, for one trump: [0] for the search, [1] for the game
// search, where a scoring card is worth only its game value.
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
