// Move ordering (ordering.hpp): each card's keys in the bands, the legal cards merged
// where they play alike, and the order a seat's cards are tried in.
#include <algorithm>

#include "search.hpp"

namespace smear {

namespace {

// Small stable insertion sort of cards by key: hands hold at most a few cards.
void sort_by(int* cards, int n, int* keys) {
    for (int i = 1; i < n; ++i) {
        const int card = cards[i], key = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > key) {
            cards[j + 1] = cards[j];
            keys[j + 1] = keys[j];
            --j;
        }
        cards[j + 1] = card;
        keys[j + 1] = key;
    }
}

}  // namespace

// Not inline: play and game_play, the search's hottest loops, stay as small as they were
// when search.cpp was one file (inlined there, they grew by an eighth and a fifth, and
// 8 seats searched 1 to 5% slower).
void killer_first(int* cards, int n, int killer) {
    int* found = std::find(cards, cards + n, killer);
    if (found != cards + n) std::rotate(cards, found, found + 1);
}

void OrderKeys::fill(const Rules& r, Mask trumps, Mask scoring) {
    for (int c = 0; c < kCards; ++c) {
        const bool joker = r.is_joker(c);
        const bool trump = (trumps >> c) & 1;
        const int rank = r.rank_of[c];
        lead[c] = joker ? band::kLeadJoker : trump ? band::kLeadTrump - rank : -rank;
        for (int game = 0; game < 2; ++game) {
            const int points = ((scoring >> c) & 1) && !game;
            feed[game][c] = band::kFeedPerGame * r.game_value[c] + band::kFeedPoint * points;
            dump[game][c] = band::kDumpPerGame * r.game_value[c] + rank + band::kDumpPoint * points;
        }
        cheap[c] = rank + band::kCheapTrump * (joker || trump);
    }
}

// The cards ``seat`` may play, equivalent ones merged, in the order they are tried; how many.
int Search::ordered_legal(int* cards, int seat, int led, Mask trick_mask, int trick_len,
                          int winning, int win_seat, bool game) const {
    Mask legal = legal_cards(r_, hands_[seat], led, trump_);
    if (merges_) legal = merge(legal, trick_mask);
    int n = 0;
    for (Mask rest = legal; rest; rest &= rest - 1) cards[n++] = lowest(rest);
    order(cards, n, seat, trick_len, winning, win_seat, game);
    return n;
}

// Keep one card of each run of touching cards worth the same (and not scoring): no card
// still in play, the current trick included, ranks between them.
Mask Search::merge(Mask legal, Mask trick_mask) const {
    const Mask others = (trick_mask | held_) & ~legal;
    Mask keep = legal & (r_.jokers | once_);
    Mask plain = legal & ~keep;
    int last = -1, run_value = -1;
    while (plain) {
        const int card = lowest(plain);
        const Mask low = bit(card);
        plain ^= low;
        const int value = r_.game_value[card];
        if (value == run_value && r_.suit_of[card] == r_.suit_of[last] &&
            !(others & (low - 1) & ~((Mask{2} << last) - 1))) {
            last = card;
            continue;
        }
        keep |= low;
        run_value = value;
        last = card;
    }
    return keep;
}

// Sort ``cards``, the ``n`` cards ``seat`` may play, into the order they are tried: by
// their keys in the bands of ordering.hpp, chosen by who is winning the trick so far and
// who still to play can beat what.
int Search::order(int* cards, int n, int seat, int trick_len, int winning, int win_seat,
                  bool game) const {
    if (n < 2) return n;
    const int* feed_key = keys_.feed[game];
    const int* dump_key = keys_.dump[game];
    int keys[kMaxSeats * 2];
    const bool maximizing = side_of_seat_[seat];
    // A card is safe when no opponent still to play to the trick holds one that beats it.
    // Measured from the first lead, nodes a deal (seeds 100 on, 120 deals at 8 seats, 100
    // at 6), against feeding only at the trick's last card and winning cheapest first:
    // 8 seats 508k -> 387k, 6 seats 44.2k -> 34.9k, 6 cutthroat 1.08 M -> 0.96 M, 4 seats
    // 3.5k -> 3.2k. Trying the unsafe winners after the dumps was worse.
    //
    // Against an opponent's trick that a partner still to play can take with a card no
    // opponent after it beats (judged by its strongest such card: a trump, else a joker,
    // else the highest of the suit led), the cards that cannot win feed it rather than
    // throw the cheapest (nodes a deal, seeds 0 on: 6 cutthroat 773k -> 634k, 5 cutthroat
    // 47.2k -> 45.3k, 4 seats 2,716 -> 2,633, 8 seats 323k -> 317k).
    //
    // One pass over the seats still to play, from the last back: ``later`` gathers the
    // opponents' cards after each seat, ending with all of them after this one.
    const bool partner_winning = trick_len && side_of_seat_[win_seat] == maximizing;
    Mask later = 0;
    bool partner_takes = false;
    for (int place = trick_len ? players_ - 1 : 0; place > trick_len; --place) {
        const int s = wrap(seat + place - trick_len);
        if (side_of_seat_[s] != maximizing) {
            later |= hands_[s];
            continue;
        }
        const Mask beaters = partner_winning ? 0 : hands_[s] & beaters_of(winning);
        if (!beaters) continue;
        const Mask trumps = beaters & trump_mask_, jokers = beaters & r_.jokers;
        const int strongest = trumps   ? highest(trumps)
                              : jokers ? lowest(jokers)
                                       : highest(beaters);
        if (!(later & beaters_of(strongest))) partner_takes = true;
    }
    auto safe = [&](int card) { return !(later & beaters_of(card)); };
    const bool partner_safe = partner_winning && safe(winning);
    for (int i = 0; i < n; ++i) {
        const int c = cards[i];
        if (!trick_len)
            keys[i] = keys_.lead[c];
        else if (partner_safe)  // feed the partner's trick
            keys[i] = feed_key[c];
        else if (partner_winning)  // take it over where that is safe, else throw the cheapest
            keys[i] = beats(c, winning) && safe(c) ? band::kTakeOver + keys_.cheap[c]
                                                   : dump_key[c];
        else  // win as cheaply as possible, safely first, else feed or throw the cheapest
            keys[i] = beats(c, winning) ? keys_.cheap[c] + (safe(c) ? 0 : band::kUnsafeWinner)
                      : partner_takes   ? band::kFeedPartner + feed_key[c]
                                        : band::kThrow + dump_key[c];
    }
    sort_by(cards, n, keys);
    return n;
}

// Two cards to follow with, in the order to try them: in the last two tricks, order()
// costs more than it saves. Measured from the first lead at 8 seats: 0.4% fewer nodes,
// 9% less CPU.
void Search::order_pair(int* cards, int seat, int winning, int win_seat, bool game) const {
    const int x = cards[0], y = cards[1];
    const bool x_wins = beats(x, winning), y_wins = beats(y, winning);
    bool y_first;
    if (side_of_seat_[win_seat] == side_of_seat_[seat])
        y_first = keys_.feed[game][y] < keys_.feed[game][x];
    else if (x_wins != y_wins)
        y_first = y_wins;
    else if (x_wins)
        y_first = keys_.cheap[y] < keys_.cheap[x];
    else
        y_first = keys_.dump[game][y] < keys_.dump[game][x];
    if (y_first) std::swap(cards[0], cards[1]);
}

}  // namespace smear
