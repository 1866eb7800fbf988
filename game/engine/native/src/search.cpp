// Alpha-beta over one complete deal with trump fixed, and the root questions above it.
#include "search.hpp"

#include <algorithm>
#include <climits>

namespace smear {

namespace {

constexpr int kInfinity = 1 << 30;
// entries in the transposition table: 2^17 of 64 bytes; 2^15 (2 MB) up to 4 seats
constexpr int kTableBits = 17;
constexpr int kSmallTableBits = 15;

std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// The last cut-off card in the same place (see Search::killer), when it is one of
// ``cards`` (the legal ones), is tried first.
void killer_first(int* cards, int n, int killer) {
    int* found = std::find(cards, cards + n, killer);
    if (found != cards + n) std::rotate(cards, found, found + 1);
}

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

TranspositionTable::TranspositionTable(int bits)
    : entries_(std::size_t{1} << bits), bits_(bits), mask_((std::uint64_t{1} << bits) - 1) {
    for (auto& e : entries_) e.generation = 0;
}

// A new entry goes to the bucket's first slot when it has more cards left than the one
// there (dearer to recompute), which moves to the second; else to the second.
void TranspositionTable::place(std::uint64_t base, const Entry& fresh, int lead) {
    Entry* target = &entries_[base];
    if (target->generation != generation_ ||
        popcount(fresh.key.cards) >= popcount(target->key.cards)) {
        if (target->generation == generation_) entries_[base + 1] = *target;
    } else {
        target = &entries_[base + 1];
    }
    *target = fresh;
    target->generation = generation_;
    target->lo_from = target->hi_to = std::int16_t(lead);
}

TranspositionTable& thread_table() {
    thread_local TranspositionTable table(kTableBits);
    return table;
}

// The search for one deal with trump fixed.
class Search {
   public:
    Search(const Rules& r, const Position& p, int trump, const Utility& u, const Budget& budget,
           Counters& counters, TranspositionTable& tt, int horizon);
    int after(int card, int alpha, int beta);
    // Searches from now on give up (throw ProbeLimit) once the node count passes ``limit``.
    void limit_nodes(std::uint64_t limit) { node_limit_ = limit; }

   private:
    void count_node();
    int play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat, int a,
             int b, std::uint64_t games, int alpha, int beta);
    int next(int seat, int leader, int led, Mask trick_mask, int trick_len, int winning,
             int win_seat, int a, int b, std::uint64_t games, int alpha, int beta);
    int trick_start(int leader, int a, int b, std::uint64_t games, int alpha, int beta);
    // ``kGame``: for the game search, valued in game points (``a``, ``b``, ``games`` unused)
    template <bool kGame>
    int last_two(int i, int leader, int led, Mask trick_mask, int winning, int win_seat, int a,
                 int b, std::uint64_t games, int alpha, int beta);
    int last_trick(int leader, int a, int b, std::uint64_t games) const;
    // Once game is the only point still open (two sides), the value is the utility of who
    // ends with more game, and that is monotone in one number: the game the maximising
    // side captures from here on minus what the other side does. Its minimax (the "game
    // search", in game points) depends on nothing but the cards still held, the leader
    // and trump, so its table entries serve every position with the same hands whatever
    // the points and game taken so far, and every threshold asked of them.
    int game_start(int leader, int alpha, int beta);
    int game_play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat,
                  int alpha, int beta);
    int last_trick_winner(int leader) const;
    struct Bounds {
        int lower, upper;
    };
    // What is decided at a point of the search: each side's points taken or sure, the
    // points still open, and the side game surely goes to (1 maximising, 0 the other,
    // -1 open; then ``game_ahead`` is the side ahead on game so far, or -1).
    struct Decided {
        int a_low, b_low, out, settled, game_ahead;
    };
    struct TrickSoFar {
        Mask cards = 0;
        int winning = -1, win_seat = -1;
        std::uint32_t pending = 0;  // seats still to play to it, one bit each
    };
    Decided decided(int a, int b, std::uint64_t games, Mask remaining,
                    const TrickSoFar& trick) const;
    Bounds bounds_of(const Decided& d) const;
    // A trick start's table key, and what serving it from an entry with loose cards needs.
    struct Keyed {
        TableKey key;
        std::uint64_t games;  // the game totals as the key tells them apart (or 0)
        std::uint32_t meta;
        std::uint64_t hash;
        Mask low;  // the plain low cards held (see canonical_key)
    };
    Keyed keyed(std::uint64_t games, std::uint32_t meta) const;
    bool covers(const TranspositionTable::Entry& e, const Keyed& k) const;
    const TranspositionTable::Entry* table_entry(const Keyed& k) const;
    // Record bounds found for ``k`` at game lead ``lead``, loose as far as pinned_ allows.
    void table_store(const Keyed& k, int lo, int hi, int lead);
    int game_lead(std::uint64_t games) const;
    Mask loose_region(const std::uint8_t* loose) const;
    void loose_counts(Mask low, std::uint8_t* loose) const;
    Mask pins_of(const std::uint8_t* loose, Mask low) const;
    Mask trick_pins(Mask trick_mask, int winning) const;
    Mask last_trick_pins(int leader) const;
    // What a trick start learns before it searches: its value when the bounds or the
    // table already answer for (alpha, beta), else what the search needs.
    struct StartProbe {
        bool answered;
        int value;
        bool game_only;  // only game is open: the game search takes over
        Decided d;
        int lower, upper;
        Keyed k;
        int lead;   // with two sides: the maximising side's lead on game (see Entry)
        Mask pins;  // the plain low cards the answer so far depends on (see pinned_)
    };
    StartProbe probe_start(int leader, int a, int b, std::uint64_t games, int alpha, int beta);
    int search_start(const StartProbe& sp, int leader, int a, int b, std::uint64_t games,
                     int alpha, int beta);
    // what the table answers for the trick start whose bounds left it open
    void consult_table(StartProbe& sp, int alpha, int beta) const;
    // ``search(alpha, beta)`` is the game search from the position
    template <typename GameSearch>
    int game_only(const Decided& d, std::uint64_t games, int alpha, int beta, GameSearch search);
    int estimate_at(int a, int b, std::uint64_t games, Mask remaining) const;
    int points_in(Mask cards) const;
    Mask beaters_of(int winning) const;
    bool interchangeable(int x, int y) const;
    int holder(int card) const;
    int final_value(int a, int b, std::uint64_t games) const;
    void take(Mask cards, int winner, int& a, int& b, std::uint64_t& games) const;
    int game_winner(std::uint64_t games) const;
    Mask merge(Mask legal, Mask trick_mask) const;
    bool beats(int card, int current) const;
    bool is_trump(int card) const { return (trump_mask_ >> card) & 1; }
    // a seat number counted on past the last seat, less than twice round (no division)
    int wrap(int seat) const { return seat < players_ ? seat : seat - players_; }
    // ``game``: for the game search, where a scoring card is worth only its game value
    int order(int* cards, int n, int seat, int trick_len, int winning, int win_seat,
              bool game = false) const;
    void order_pair(int* cards, int seat, int winning, int win_seat, bool game) const;
    int ordered_legal(int* cards, int seat, int led, Mask trick_mask, int trick_len, int winning,
                      int win_seat, bool game = false) const;
    Mask canonical_key(TableKey& key) const;
    std::uint64_t game_key(std::uint64_t games, int still_out) const;
    std::uint64_t key_hash(const TableKey& key, std::uint64_t relative, std::uint32_t meta) const;

    const Rules& r_;
    const Position& p_;
    const Utility& u_;
    const Budget& budget_;
    Counters& counters_;
    TranspositionTable& tt_;
    const int trump_;
    const int players_;
    // How game is counted: by the layout's units or, while relaxed (see relax_), by the
    // two sides as two units. Switched whole.
    struct Counting {
        int units = 0;
        int unit_of[kMaxSeats] = {};
        bool side_of_unit[kMaxSeats] = {};
        bool two_sides = false;    // two units, one on each side
        int max_unit = 0;          // then: the maximising side's unit
        bool game_search = false;  // two sides and no estimate: see game_only
        bool relaxed = false;
    };
    Counting count_, relaxed_count_;
    Mask trump_mask_;
    Mask once_, twice_;
    bool merges_;
    Mask plain_zero_[4];  // cards in play worth nothing toward game and scoring nothing
    int suit_base_[4];    // the lowest card code of each suit
    Mask plain_spots_ = 0;  // plain_zero_ of the suits that are not trump
    // The cards of plain_spots_ whose rank the search below the innermost trick start so
    // far depended on: one won a trick over another card of its suit, or the cards that
    // could still beat one winning a trick settled a bound. Below the lowest of them in
    // a suit, the low cards could change hands (each hand keeping its count of them) and
    // every answer would stand, so a table entry records how many such cards there are
    // and serves every position that differs from its own only there (see covers).
    Mask pinned_ = 0;
    // some suit but trump has two such cards in play, so they could change hands
    bool loosens_ = false;
    bool side_of_seat_[kMaxSeats];
    Mask hands_[kMaxSeats];
    // kept with hands_: every card still held, and those of each side [other, maximising]
    Mask held_ = 0;
    Mask side_held_[2] = {0, 0};
    void remove(int seat, Mask card) {
        hands_[seat] ^= card;
        held_ ^= card;
        side_held_[side_of_seat_[seat]] ^= card;
    }
    void restore(int seat, Mask card) { remove(seat, card); }
    void reset_hands() {
        held_ = side_held_[0] = side_held_[1] = 0;
        for (int s = 0; s < players_; ++s) {
            hands_[s] = p_.hands[s];
            held_ |= hands_[s];
            side_held_[side_of_seat_[s]] |= hands_[s];
        }
    }
    int sure_a_ = 0, sure_b_ = 0;  // points already fixed: the maximising side's, the other's
    std::uint64_t games0_ = 0;     // each unit's game total so far, one byte each
    // [0] for the search, [1] for the game search
    int lead_key_[kCards], feed_key_[2][kCards], cheap_key_[kCards], dump_key_[2][kCards];
    std::uint64_t node_limit_ = UINT64_MAX;
    Mask last_cards_ = 0;  // in the last two tricks: every card still held or in the trick
    // Relaxed bounds (more than two units, no estimate). Count game by each side's summed
    // total instead of each unit's: with the maximising side one unit, every outcome of
    // that game is as bad for it as the real one or worse (it takes game when it beats the
    // others' sum, so when it beats each of them; a tie on the sums leaves it tied or
    // ahead), so the relaxed value is a lower bound on the real one; with the other side
    // one unit, by the same argument the other way, an upper bound. The relaxed game has
    // two sides, which the search settles far sooner (see decided and game_only).
    enum class Relax { none, lower, upper };
    Relax relax_ = Relax::none;
    std::optional<int> relaxed_bound(int leader, int a, int b, std::uint64_t games, int alpha,
                                     int beta);
    const int horizon_;
    // The last cut-off card (the "killer"), per seat, place in the trick, cards in hand and
    // card winning the trick so far, and the suit led when a trump wins a trick led in
    // another suit: one table for the search and one for the game search. (A killer only
    // orders cards: contexts that share a slot cost nodes, never values.)
    static constexpr int kContexts = kCards + 1 + 13 * 4;
    std::vector<int> killers_, game_killers_;
    int& killer(std::vector<int>& table, int seat, int trick_len, int winning, int led) {
        const int place = (seat * players_ + trick_len) * 8 + popcount(hands_[seat]);
        const bool trumped = winning >= 0 && is_trump(winning) && !is_trump(led) &&
                             !r_.is_joker(led);
        const int context =
            trumped ? kCards + 1 + std::min(winning - suit_base_[trump_], 12) * 4 + r_.suit_of[led]
                    : winning + 1;
        return table[place * kContexts + context];
    }
};

// Checked every 1024 nodes: the deadline, and the node limit of a probe.
void Search::count_node() {
    if (++counters_.nodes & 1023) return;
    if (budget_.passed()) throw Timeout{};
    if (counters_.nodes >= node_limit_) throw ProbeLimit{};
}

Search::Search(const Rules& r, const Position& p, int trump, const Utility& u,
               const Budget& budget, Counters& counters, TranspositionTable& tt, int horizon)
    : r_(r),
      p_(p),
      u_(u),
      budget_(budget),
      counters_(counters),
      tt_(tt),
      trump_(trump),
      players_(p.players),
      horizon_(horizon) {
    const Mask in_play = p.in_play();
    trump_mask_ = r_.suit_mask[trump];
    const Mask trumps = in_play & trump_mask_;
    for (int s = 0; s < players_; ++s) side_of_seat_[s] = u.side_of_unit[p.unit_of[s]];
    int dealt_points = 0;  // points the deal itself gives the seats dealt their cards
    if (r_.table) {
        // a full-deck table: its point cards score for their capturer, once each, and
        // (ace and two) for the seat dealt them
        once_ = in_play & r_.capture_points;
        twice_ = 0;
        for (Mask rest = in_play & r_.holder_points; rest; rest &= rest - 1)
            for (int s = 0; s < players_; ++s)
                if ((p.dealt[s] >> lowest(rest)) & 1) {
                    (side_of_seat_[s] ? sure_a_ : sure_b_) += 1;
                    ++dealt_points;
                }
    } else {
        const Mask high = bit(highest(trumps));
        const Mask jack = in_play & r_.jack_of[trump];
        once_ = high | jack | (in_play & r_.jokers);
        twice_ = high & jack;
        // low goes to whoever was dealt it, whoever captures it
        const int low = lowest(trumps);
        for (int s = 0; s < players_; ++s)
            if ((p.dealt[s] >> low) & 1) (side_of_seat_[s] ? sure_a_ : sure_b_) += 1;
        dealt_points = 1;
    }
    // the deal's points, those captured and game: a side's points index the utility table
    const int most = dealt_points + popcount(once_) + popcount(twice_) + 1;
    if (most > u.size - 1)
        bad_input("a round here holds " + std::to_string(most) +
                  " points: the utility table needs " + std::to_string(most + 1) + " rows");
    reset_hands();
    for (int unit = 0; unit < p.units; ++unit) {
        const Mask cards = p.taken[unit];
        const int points = popcount(cards & once_) + popcount(cards & twice_);
        (u.side_of_unit[unit] ? sure_a_ : sure_b_) += points;
        games0_ += std::uint64_t(r_.game_total(cards)) << (8 * unit);
    }
    // equivalent cards exist only where touching ranks can share a game value
    merges_ = false;
    for (int card = 0; card + 1 < kCards; ++card) {
        const Mask pair = bit(card) | bit(card + 1);
        if ((in_play & pair) == pair && !r_.is_joker(card) && !r_.is_joker(card + 1) &&
            r_.suit_of[card] == r_.suit_of[card + 1] &&
            r_.game_value[card] == r_.game_value[card + 1] && !((once_ >> card) & 1) &&
            !((once_ >> (card + 1)) & 1))
            merges_ = true;
    }
    count_.units = p.units;
    std::copy(p.unit_of, p.unit_of + players_, count_.unit_of);
    std::copy(u.side_of_unit, u.side_of_unit + p.units, count_.side_of_unit);
    count_.two_sides = p.units == 2 && u.side_of_unit[0] != u.side_of_unit[1];
    count_.max_unit = u.side_of_unit[0] ? 0 : 1;
    count_.game_search = count_.two_sides && horizon_ == 0;
    for (int suit = 0; suit < 4; ++suit) {
        plain_zero_[suit] = 0;
        for (Mask rest = in_play & r_.suit_mask[suit] & ~once_; rest; rest &= rest - 1)
            if (!r_.game_value[lowest(rest)]) plain_zero_[suit] |= bit(lowest(rest));
        suit_base_[suit] = lowest(r_.suit_mask[suit]);
        if (suit != trump) plain_spots_ |= plain_zero_[suit];
        if (suit != trump && popcount(plain_zero_[suit]) > 1) loosens_ = true;
    }
    if (p.units > 2 && horizon_ == 0) {
        int per_side[2] = {0, 0};
        for (int unit = 0; unit < p.units; ++unit) ++per_side[u.side_of_unit[unit]];
        if (per_side[1] == 1)
            relax_ = Relax::lower;
        else if (per_side[0] == 1)
            relax_ = Relax::upper;
        relaxed_count_.units = 2;
        std::copy(side_of_seat_, side_of_seat_ + players_, relaxed_count_.unit_of);
        relaxed_count_.side_of_unit[1] = true;
        relaxed_count_.two_sides = relaxed_count_.game_search = relaxed_count_.relaxed = true;
        relaxed_count_.max_unit = 1;
    }
    killers_.assign(std::size_t(players_) * players_ * 8 * kContexts, -1);
    game_killers_ = killers_;
    for (int c = 0; c < kCards; ++c) {
        const bool joker = r_.is_joker(c);
        const int rank = r_.rank_of[c];
        const bool scoring = (once_ >> c) & 1;
        lead_key_[c] = joker ? 50 : is_trump(c) ? -100 - rank : -rank;
        for (int game = 0; game < 2; ++game) {
            const int points = scoring && !game;
            feed_key_[game][c] = -2 * r_.game_value[c] - 100 * points;
            dump_key_[game][c] = r_.game_value[c] * 20 + rank + 200 * points;
        }
        cheap_key_[c] = rank + 20 * (joker || is_trump(c));
    }
}

bool Search::beats(int card, int current) const {
    if (r_.is_joker(card)) return !r_.is_joker(current) && !is_trump(current);
    if (is_trump(card)) return !is_trump(current) || card > current;
    if (r_.is_joker(current) || is_trump(current)) return false;
    return r_.suit_of[card] == r_.suit_of[current] && card > current;
}

int Search::after(int card, int alpha, int beta) {
    const int seat = p_.to_act();
    int trick[kMaxSeats];
    std::copy(p_.trick, p_.trick + p_.trick_len, trick);
    trick[p_.trick_len] = card;
    const int len = p_.trick_len + 1;
    Mask trick_mask = 0;
    for (int i = 0; i < len; ++i) trick_mask |= bit(trick[i]);
    const int index = trick_winner(r_, trick, len, trump_);
    const int win_seat = (p_.leader + index) % players_;
    remove(seat, bit(card));
    pinned_ = 0;
    int value;
    try {
        value = next(seat, p_.leader, trick[0], trick_mask, len, trick[index], win_seat, sure_a_,
                     sure_b_, games0_, alpha, beta);
    } catch (...) {
        // every hand, not only this one: a probe given up is not the end of the search
        reset_hands();
        throw;
    }
    restore(seat, bit(card));
    return value;
}

int Search::game_winner(std::uint64_t games) const {
    int best = -1, winner = -1;
    bool tie = false;
    for (int unit = 0; unit < count_.units; ++unit) {
        const int total = int((games >> (8 * unit)) & 0xFF);
        if (total > best) {
            best = total;
            winner = unit;
            tie = false;
        } else if (total == best) {
            tie = true;
        }
    }
    return tie ? -1 : winner;
}

int Search::final_value(int a, int b, std::uint64_t games) const {
    const int winner = game_winner(games);
    if (winner >= 0) (count_.side_of_unit[winner] ? a : b) += 1;
    return u_.table[a][b];
}

void Search::take(Mask cards, int winner, int& a, int& b, std::uint64_t& games) const {
    const int points = popcount(cards & once_) + popcount(cards & twice_);
    (side_of_seat_[winner] ? a : b) += points;
    games += std::uint64_t(r_.game_total(cards)) << (8 * count_.unit_of[winner]);
}

// After ``seat`` added the card that made ``trick_len`` cards: finish the trick or pass on.
int Search::next(int seat, int leader, int led, Mask trick_mask, int trick_len, int winning,
                 int win_seat, int a, int b, std::uint64_t games, int alpha, int beta) {
    if (trick_len < players_)
        return play(seat + 1 == players_ ? 0 : seat + 1, leader, led, trick_mask, winning,
                    win_seat, a, b, games, alpha, beta);
    pinned_ |= trick_pins(trick_mask, winning);
    take(trick_mask, win_seat, a, b, games);
    return trick_start(win_seat, a, b, games, alpha, beta);
}

// ``key`` (the hands as TableKey::of gives them) with each suit's worthless low cards
// renumbered from the bottom of the suit: which of them were played no longer matters once
// none is left between them, so the transposition table meets more positions it already
// solved.
//
// Returns those low cards (the plain low cards) of the suits but trump: the cards an
// entry may leave loose (see pinned_).
Mask Search::canonical_key(TableKey& key) const {
    const Mask remaining = key.cards;
    Mask plain_low = 0;
    for (int suit = 0; suit < 4; ++suit) {
        Mask low = remaining & plain_zero_[suit];
        const Mask others = remaining & r_.suit_mask[suit] & ~low;
        if (others) low &= bit(lowest(others)) - 1;  // only those below every other card
        if (!low) continue;
        if (suit != trump_) plain_low |= low;
        const int base = suit_base_[suit];
        const Mask renumbered = (bit(popcount(low)) - 1) << base;
        if (low == renumbered) continue;  // none of them played yet: already the bottom
        key.cards = (key.cards & ~low) | renumbered;
        for (auto& plane : key.seat_bits) {
            Mask marked = plane & low;
            plane &= ~low;
            // each marked card takes its place among the low cards
            for (; marked; marked &= marked - 1)
                plane |= bit(base + popcount(low & ((marked & -marked) - 1)));
        }
    }
    return plain_low;
}

// The game totals as far as the rest of the round can tell them apart: only who ends
// with the unique highest total matters, so a unit too far behind to reach the top, or a
// leader too far ahead to be caught, is as good as any other such; then only the
// differences count.
std::uint64_t Search::game_key(std::uint64_t games, int still_out) const {
    int totals[kMaxSeats];
    int top = 0;
    for (int unit = 0; unit < count_.units; ++unit) {
        totals[unit] = int((games >> (8 * unit)) & 0xFF);
        top = std::max(top, totals[unit]);
    }
    int leader = -1, second = -1;
    for (int unit = 0; unit < count_.units; ++unit) {
        totals[unit] = std::max(totals[unit], top - still_out - 1);
        if (totals[unit] == top && leader < 0)
            leader = unit;
        else
            second = std::max(second, totals[unit]);
    }
    if (second >= 0 && top > second + still_out) totals[leader] = second + still_out + 1;
    int least = totals[0];
    for (int unit = 1; unit < count_.units; ++unit) least = std::min(least, totals[unit]);
    std::uint64_t key = 0;
    for (int unit = 0; unit < count_.units; ++unit) key |= std::uint64_t(totals[unit] - least) << (8 * unit);
    return key;
}

int Search::points_in(Mask cards) const {
    return popcount(cards & once_) + popcount(cards & twice_);
}

// The cards that beat ``winning``, the card winning a trick so far (all of them legal to
// whoever holds one: trumps and jokers always are, and a plain winner is of the suit led).
Mask Search::beaters_of(int winning) const {
    const Mask above = ~((bit(winning) << 1) - 1);
    if (is_trump(winning)) return trump_mask_ & above;
    if (r_.is_joker(winning)) return trump_mask_;  // a later joker loses to the first
    return trump_mask_ | r_.jokers | (r_.suit_mask[r_.suit_of[winning]] & above);
}

// The interval the value lies in, from what is decided: points taken, points whose
// capture is sure, and game once the rest cannot change who wins it. Mid-trick, the
// cards played so far go to the side winning the trick once no opponent still to play
// (a seat in ``pending``) can beat its winning card.
Search::Decided Search::decided(int a, int b, std::uint64_t games, Mask remaining,
                                const TrickSoFar& trick) const {
    const Mask* hands_of_side = side_held_;  // [other side, maximising side]
    int sure[2] = {0, 0};       // points, per side
    int game_sure[2] = {0, 0};  // game value, per side
    int out = points_in(remaining);
    const int still_out = r_.game_total(remaining | trick.cards);
    int losing_side = -1;  // mid-trick, the side not winning the trick so far
    if (trick.cards) {
        const bool side = side_of_seat_[trick.win_seat];
        losing_side = !side;
        Mask opponents = 0;
        for (int s = 0; s < players_; ++s)
            if ((trick.pending >> s & 1) && side_of_seat_[s] != side) opponents |= hands_[s];
        if (opponents & beaters_of(trick.winning)) {
            out += points_in(trick.cards);
        } else {
            sure[side] += points_in(trick.cards);
            game_sure[side] += r_.game_total(trick.cards);
        }
    }
    // A trump (or joker) its holder's opponents cannot beat wins the trick it is played
    // to, so it is captured by its holder's side: its points and its game value with it.
    // A trump is beaten only by a higher one, a joker by any trump or the other joker.
    const Mask candidates = remaining & (trump_mask_ | r_.jokers);
    for (int side = 0; side < 2; ++side) {
        const Mask own = candidates & hands_of_side[side];
        if (!own) continue;
        const Mask against = hands_of_side[!side] & (trump_mask_ | r_.jokers);
        const Mask their_trumps = against & trump_mask_;
        Mask unbeaten = own & trump_mask_;
        if (their_trumps) unbeaten &= ~((bit(highest(their_trumps)) << 1) - 1);
        if (!against) unbeaten |= own & r_.jokers;
        if (side == losing_side && unbeaten) {
            // played now, a card of a seat still to play meets the card winning so far
            Mask pending_cards = 0;
            for (std::uint32_t rest = trick.pending; rest; rest &= rest - 1)
                pending_cards |= hands_[__builtin_ctz(rest)];
            const int w = trick.winning;
            const Mask beaten_by_winner = is_trump(w) ? (trump_mask_ & (bit(w) - 1)) | r_.jokers
                                          : r_.is_joker(w) ? r_.jokers
                                                           : 0;
            unbeaten &= ~(pending_cards & beaten_by_winner);
        }
        game_sure[side] += r_.game_total(unbeaten);
        const int points = points_in(unbeaten);
        sure[side] += points;
        out -= points;
    }
    const int a_low = a + sure[1], b_low = b + sure[0];
    int settled = -1, game_ahead = -1;
    if (count_.two_sides) {
        // each side is one unit: game is settled once even the rest cannot tie it
        const int lead = game_lead(games) + game_sure[1] - game_sure[0];
        const int open = still_out - game_sure[0] - game_sure[1];
        if (lead > open)
            settled = 1;
        else if (-lead > open)
            settled = 0;
        game_ahead = lead > 0 ? 1 : lead < 0 ? 0 : -1;
    } else {
        int top = -1, second = -1, top_unit = 0;
        for (int unit = 0; unit < count_.units; ++unit) {
            const int total = int((games >> (8 * unit)) & 0xFF);
            if (total > top) {
                second = top;
                top = total;
                top_unit = unit;
            } else if (total > second) {
                second = total;
            }
        }
        if (count_.units == 1 || top > second + still_out) settled = count_.side_of_unit[top_unit] ? 1 : 0;
        if (top > second) game_ahead = count_.side_of_unit[top_unit] ? 1 : 0;
    }
    return {a_low, b_low, out, settled, game_ahead};
}

Search::Bounds Search::bounds_of(const Decided& d) const {
    const auto [a_low, b_low, out, settled, game_ahead] = d;
    const auto& t = u_.table;
    if (settled < 0) return {t[a_low][b_low + out + 1], t[a_low + out + 1][b_low]};
    if (settled == 1) return {t[a_low + 1][b_low + out], t[a_low + out + 1][b_low]};
    return {t[a_low][b_low + out + 1], t[a_low + out][b_low + 1]};
}

// An ESTIMATE, not the value: what is decided, the open points shared evenly (an odd one
// to neither side), game to the side sure of it or else ahead on it. Always between the
// bounds, and a table entry.
int Search::estimate_at(int a, int b, std::uint64_t games, Mask remaining) const {
    const auto [a_low, b_low, out, settled, game_ahead] =
        decided(a, b, games, remaining, TrickSoFar{});
    const int game = settled >= 0 ? settled : game_ahead;
    return u_.table[a_low + out / 2 + (game == 1)][b_low + out / 2 + (game == 0)];
}

namespace {

Mask seat_cards(const TableKey& key, int seat) {
    Mask cards = key.cards;
    for (int k = 0; k < 3; ++k) cards &= (seat >> k & 1) ? key.seat_bits[k] : ~key.seat_bits[k];
    return cards;
}

}  // namespace

// The table key of the position (as canonical_key gives it), and a hash that leaves out
// who holds each plain low card: the same for every position an entry with loose cards
// may serve.
Search::Keyed Search::keyed(std::uint64_t games, std::uint32_t meta) const {
    Keyed k;
    k.key = TableKey::of(hands_, players_);
    k.games = games;
    k.meta = meta;
    k.low = 0;
    if (merges_) {
        const Mask low = canonical_key(k.key);
        if (loosens_) k.low = low;
    }
    TableKey coarse = k.key;
    std::uint64_t counts = 0;
    if (k.low) {
        std::uint8_t all[4];
        for (int suit = 0; suit < 4; ++suit) all[suit] = popcount(k.low & r_.suit_mask[suit]);
        const Mask region = loose_region(all);
        // how many of them each bit of a holder's number marks, per suit: the same
        // whichever hands hold them, given each hand's count
        for (auto& plane : coarse.seat_bits) {
            for (int suit = 0; suit < 4; ++suit)
                if (all[suit]) counts = counts * 8 + popcount(plane & region & r_.suit_mask[suit]);
            plane &= ~region;
        }
    }
    k.hash = key_hash(coarse, games ^ mix64(counts), meta);
    return k;
}

// Where the ``loose`` lowest plain cards of each suit lie in a canonical key.
Mask Search::loose_region(const std::uint8_t* loose) const {
    Mask region = 0;
    for (int suit = 0; suit < 4; ++suit) region |= (bit(loose[suit]) - 1) << suit_base_[suit];
    return region;
}

// Whether entry ``e`` serves the position of ``k``: the same in everything but which
// hands hold the entry's loose cards, each hand holding as many of them in each suit.
bool Search::covers(const TranspositionTable::Entry& e, const Keyed& k) const {
    const TableKey& key = k.key;
    if (e.meta != k.meta || e.games != k.games || e.key.cards != key.cards) return false;
    const Mask loose = loose_region(e.loose);
    for (int k = 0; k < 3; ++k)
        if ((e.key.seat_bits[k] ^ key.seat_bits[k]) & ~loose) return false;
    if (!loose) return true;
    for (int s = 0; s < players_; ++s) {
        const Mask theirs = seat_cards(e.key, s) & loose, mine = seat_cards(key, s) & loose;
        if (theirs == mine) continue;
        for (int suit = 0; suit < 4; ++suit)
            if (popcount(theirs & r_.suit_mask[suit]) != popcount(mine & r_.suit_mask[suit]))
                return false;
    }
    return true;
}

const TranspositionTable::Entry* Search::table_entry(const Keyed& k) const {
    return tt_.find(k.hash, [&](const TranspositionTable::Entry& e) { return covers(e, k); });
}

void Search::table_store(const Keyed& k, int lo, int hi, int lead) {
    TranspositionTable::Entry fresh;
    fresh.key = k.key;
    fresh.games = k.games;
    fresh.meta = k.meta;
    fresh.lo = lo;
    fresh.hi = hi;
    loose_counts(k.low, fresh.loose);
    tt_.store(
        k.hash, [&](const TranspositionTable::Entry& e) { return covers(e, k); }, fresh, lead);
}

// The maximising side's game total less the other's (two sides).
int Search::game_lead(std::uint64_t games) const {
    return int((games >> (8 * count_.max_unit)) & 0xFF) -
           int((games >> (8 * (1 - count_.max_unit))) & 0xFF);
}

// An entry's loose cards for the position with plain low cards ``low``: the loose ones
// below the lowest pinned card of each suit.
void Search::loose_counts(Mask low, std::uint8_t* loose) const {
    for (int suit = 0; suit < 4; ++suit) {
        Mask run = low & r_.suit_mask[suit];
        if (const Mask pins = pinned_ & r_.suit_mask[suit]) run &= bit(lowest(pins)) - 1;
        loose[suit] = std::uint8_t(popcount(run));
    }
}

// What an answer taken from an entry with ``loose`` cards pins in the position: in each
// suit, its lowest plain low card that is not loose.
Mask Search::pins_of(const std::uint8_t* loose, Mask low) const {
    Mask pins = 0;
    for (int suit = 0; suit < 4; ++suit) {
        Mask run = low & r_.suit_mask[suit];
        for (int i = 0; i < loose[suit] && run; ++i) run &= run - 1;
        if (run) pins |= bit(lowest(run));
    }
    return pins;
}

// A plain low card that wins a trick over another card of its suit must keep its rank.
Mask Search::trick_pins(Mask trick_mask, int winning) const {
    if (!((plain_spots_ >> winning) & 1)) return 0;
    return trick_mask & r_.suit_mask[r_.suit_of[winning]] & ~bit(winning) ? bit(winning) : 0;
}

Mask Search::last_trick_pins(int leader) const {
    const Mask cards = held_;
    if (cards & (trump_mask_ | r_.jokers)) return 0;
    const Mask led = cards & r_.suit_mask[r_.suit_of[lowest(hands_[leader])]];
    return trick_pins(cards, highest(led));
}

std::uint64_t Search::key_hash(const TableKey& key, std::uint64_t relative,
                              std::uint32_t meta) const {
    std::uint64_t h = mix64(key.cards ^ relative * 0x2545F4914F6CDD1DULL ^ std::uint64_t(meta) << 40);
    h = mix64(h ^ key.seat_bits[0] * 0x9E3779B97F4A7C15ULL ^ key.seat_bits[1]);
    return mix64(h ^ key.seat_bits[2]);
}

Search::StartProbe Search::probe_start(int leader, int a, int b, std::uint64_t games, int alpha,
                                       int beta) {
    StartProbe sp{};
    sp.answered = true;
    const Mask remaining = held_;
    if (!remaining) {
        sp.value = final_value(a, b, games);
        return sp;
    }
    if (popcount(remaining) == players_) {
        sp.value = last_trick(leader, a, b, games);
        sp.pins = last_trick_pins(leader);
        return sp;
    }
    if (popcount(remaining) <= horizon_) {
        sp.value = estimate_at(a, b, games, remaining);
        return sp;
    }
    // stop when the points still out cannot change the answer
    sp.d = decided(a, b, games, remaining, TrickSoFar{});
    auto [lower, upper] = bounds_of(sp.d);
    if (upper <= alpha || lower == upper) {
        sp.value = upper;
        return sp;
    }
    if (lower >= beta) {
        sp.value = lower;
        return sp;
    }
    sp.answered = false;
    if (count_.game_search && sp.d.out == 0) {
        sp.game_only = true;
        return sp;
    }
    const int still_out = r_.game_total(remaining);
    // with two sides the entry serves every lead on game (see Entry); beyond the game
    // still out, a greater lead changes nothing
    sp.lead = count_.two_sides ? std::clamp(game_lead(games), -still_out - 1, still_out + 1) : 0;
    const std::uint64_t relative = count_.two_sides ? 0 : game_key(games, still_out);
    const std::uint32_t meta = std::uint32_t(trump_) | std::uint32_t(leader) << 2 |
                               std::uint32_t(a) << 5 | std::uint32_t(b) << 8 |
                               std::uint32_t(count_.relaxed) << 30;
    sp.k = keyed(relative, meta);
    sp.lower = lower;
    sp.upper = upper;
    consult_table(sp, alpha, beta);
    return sp;
}

void Search::consult_table(StartProbe& sp, int alpha, int beta) const {
    int lower = sp.lower, upper = sp.upper;
    if (const auto* entry = table_entry(sp.k)) {
        sp.pins |= pins_of(entry->loose, sp.k.low);
        lower = std::max(lower, entry->lower_at(sp.lead, lower));
        upper = std::min(upper, entry->upper_at(sp.lead, upper));
        sp.answered = true;
        if (lower >= beta || lower == upper) {
            sp.value = lower;
            return;
        }
        if (upper <= alpha) {
            sp.value = upper;
            return;
        }
        sp.answered = false;
    }
    sp.lower = lower;
    sp.upper = upper;
}

int Search::trick_start(int leader, int a, int b, std::uint64_t games, int alpha, int beta) {
    const Mask outer = pinned_;
    const StartProbe sp = probe_start(leader, a, b, games, alpha, beta);
    pinned_ = sp.pins;
    int value;
    if (sp.answered)
        value = sp.value;
    else if (sp.game_only)
        value = game_only(sp.d, games, alpha, beta,
                          [&](int lo, int hi) { return game_start(leader, lo, hi); });
    else
        value = search_start(sp, leader, a, b, games, alpha, beta);
    pinned_ |= outer;
    return value;
}

// A trick start that neither its bounds nor the table answer.
int Search::search_start(const StartProbe& sp, int leader, int a, int b, std::uint64_t games,
                         int alpha, int beta) {
    const int lower = sp.lower, upper = sp.upper;
    const int alpha0 = alpha > lower ? alpha : lower;
    const int beta0 = beta < upper ? beta : upper;
    int value;
    if (const std::optional<int> bound = relaxed_bound(leader, a, b, games, alpha0, beta0)) {
        value = *bound;
    } else if (popcount(held_) == 2 * players_) {
        last_cards_ = held_;
        value = last_two<false>(0, leader, -1, 0, -1, -1, a, b, games, alpha0, beta0);
    } else {
        value = play(leader, leader, -1, 0, -1, -1, a, b, games, alpha0, beta0);
    }
    table_store(sp.k, value <= alpha0 ? lower : value, value >= beta0 ? upper : value, sp.lead);
    return value;
}

// The relaxed game's value from a trick start (see relax_) when, as a bound on the real
// value, it already falls outside (alpha, beta): a lower bound reaching beta, an upper
// one at alpha or below.
std::optional<int> Search::relaxed_bound(int leader, int a, int b, std::uint64_t games,
                                         int alpha, int beta) {
    if (relax_ == Relax::none || count_.relaxed) return std::nullopt;
    std::uint64_t sides = 0;  // the game totals of the sides as two units
    for (int unit = 0; unit < count_.units; ++unit)
        sides += ((games >> (8 * unit)) & 0xFF) << (8 * count_.side_of_unit[unit]);
    const bool lower_bound = relax_ == Relax::lower;
    const int goal = lower_bound ? beta : alpha + 1;
    struct Restore {
        Search& s;
        const Counting layout;
        ~Restore() { s.count_ = layout; }
    } restore{*this, count_};
    count_ = relaxed_count_;
    const int bound = trick_start(leader, a, b, sides, goal - 1, goal);
    if ((bound >= goal) == lower_bound) return bound;
    return std::nullopt;
}

// The seat holding ``card``.
int Search::holder(int card) const {
    for (int s = 0;; ++s)
        if ((hands_[s] >> card) & 1) return s;
}

// One card each: the last trick plays itself. The order of play matters only between
// two jokers (the first one wins) and for the suit led.
int Search::last_trick(int leader, int a, int b, std::uint64_t games) const {
    take(held_, last_trick_winner(leader), a, b, games);
    return final_value(a, b, games);
}

int Search::last_trick_winner(int leader) const {
    const Mask cards = held_;
    if (const Mask trumps = cards & trump_mask_) return holder(highest(trumps));
    if (const Mask jokers = cards & r_.jokers) {
        int winner = leader;
        while (!(hands_[winner] & jokers)) winner = winner + 1 == players_ ? 0 : winner + 1;
        return winner;
    }
    const int led_suit = r_.suit_of[lowest(hands_[leader])];
    return holder(highest(cards & r_.suit_mask[led_suit]));
}

// The value of a trick start where game is the only point open and settled by neither
// side: the three outcomes' values (game to the maximising side, to nobody, to the
// other) and the game search asked only what the window needs of it. Fail-soft like the
// search it stands in for.
template <typename GameSearch>
int Search::game_only(const Decided& d, std::uint64_t games, int alpha, int beta,
                      GameSearch game_search) {
    const auto& t = u_.table;
    const int v_win = t[d.a_low + 1][d.b_low], v_tie = t[d.a_low][d.b_low],
              v_lose = t[d.a_low][d.b_low + 1];
    const int ahead = game_lead(games);
    const int win_at = 1 - ahead, tie_at = -ahead;  // game search results that win, tie
    if (v_tie <= alpha) {  // only a win reaches the window
        const int found = game_search(win_at - 1, win_at);
        return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
    }
    if (v_tie >= beta) {  // a tie already passes it
        const int found = game_search(tie_at - 1, tie_at);
        return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
    }
    const int found = game_search(tie_at - 1, win_at);
    return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
}

// The game search from a trick start: the maximising side's game captured from here
// minus the other's, fail-soft in (alpha, beta).
int Search::game_start(int leader, int alpha, int beta) {
    const Mask remaining = held_;
    if (!remaining) return 0;
    if (popcount(remaining) == players_) {
        const int total = r_.game_total(remaining);
        pinned_ |= last_trick_pins(leader);
        return side_of_seat_[last_trick_winner(leader)] ? total : -total;
    }
    // a trump no opponent can beat takes its own game value to its holder's side
    int sure[2] = {0, 0};
    for (Mask rest = remaining & trump_mask_; rest; rest &= rest - 1) {
        const int card = lowest(rest);
        if (!r_.game_value[card]) continue;
        const bool mine = (side_held_[1] >> card) & 1;
        if (side_held_[!mine] & trump_mask_ & ~((bit(card) << 1) - 1)) continue;
        sure[mine] += r_.game_value[card];
    }
    const int open = r_.game_total(remaining) - sure[0] - sure[1];
    int lower = sure[1] - sure[0] - open, upper = sure[1] - sure[0] + open;
    if (upper <= alpha || lower == upper) return upper;
    if (lower >= beta) return lower;
    const std::uint32_t meta = 1u << 31 | std::uint32_t(trump_) | std::uint32_t(leader) << 2 |
                               std::uint32_t(merges_) << 5;
    const Keyed k = keyed(0, meta);
    const Mask outer = pinned_;
    pinned_ = 0;
    if (const auto* entry = table_entry(k)) {
        pinned_ = pins_of(entry->loose, k.low);
        const bool lower_answers = entry->lo >= beta || entry->lo == entry->hi;
        if (lower_answers || entry->hi <= alpha) {
            pinned_ |= outer;
            return lower_answers ? entry->lo : entry->hi;
        }
        lower = std::max(lower, entry->lo);
        upper = std::min(upper, entry->hi);
    }
    const int alpha0 = std::max(alpha, lower), beta0 = std::min(beta, upper);
    int value;
    if (popcount(remaining) == 2 * players_) {  // the last two tricks, as in search_start
        last_cards_ = remaining;
        value = last_two<true>(0, leader, -1, 0, -1, -1, 0, 0, 0, alpha0, beta0);
    } else {
        value = game_play(leader, leader, -1, 0, -1, -1, alpha0, beta0);
    }
    table_store(k, value <= alpha0 ? lower : value, value >= beta0 ? upper : value, 0);
    pinned_ |= outer;
    return value;
}

int Search::game_play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat,
                      int alpha, int beta) {
    count_node();
    const int trick_len = popcount(trick_mask);
    int cards[16];
    const int n = ordered_legal(cards, seat, led, trick_mask, trick_len, winning, win_seat, true);
    // the last cut-off goes first, as in play (a table of its own)
    int& killer = this->killer(game_killers_, seat, trick_len, winning, led);
    killer_first(cards, n, killer);
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int i = 0; i < n; ++i) {
        const int card = cards[i];
        const bool wins = winning < 0 || beats(card, winning);
        const int now_winning = wins ? card : winning, now_seat = wins ? seat : win_seat;
        const Mask now_trick = trick_mask | bit(card);
        remove(seat, bit(card));
        int value;
        if (trick_len + 1 < players_) {
            value = game_play(seat + 1 == players_ ? 0 : seat + 1, leader, led < 0 ? card : led,
                              now_trick, now_winning, now_seat, alpha, beta);
        } else {
            pinned_ |= trick_pins(now_trick, now_winning);
            const int total = r_.game_total(now_trick);
            const int gain = side_of_seat_[now_seat] ? total : -total;
            value = gain + game_start(now_seat, alpha - gain, beta - gain);
        }
        restore(seat, bit(card));
        if (maximizing) {
            if (value > best) best = value;
            if (best > alpha) alpha = best;
        } else {
            if (value < best) best = value;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) {
            killer = card;
            break;
        }
    }
    return best;
}

// Two cards of one hand that play alike: touching in their suit (no card of the last two
// tricks between them), worth the same toward game and neither scoring.
bool Search::interchangeable(int x, int y) const {
    if (x > y) std::swap(x, y);
    if (((r_.jokers | once_) >> x & 1) || ((r_.jokers | once_) >> y & 1)) return false;
    if (r_.suit_of[x] != r_.suit_of[y] || r_.game_value[x] != r_.game_value[y]) return false;
    return !(last_cards_ & (bit(y) - 1) & ~((bit(x) << 1) - 1));
}

// The last two tricks, every hand holding two cards, seat ``i`` of the trick to play:
// each choice of card settles both tricks, so this is plain alpha-beta over at most two
// cards a seat with the last trick played out at the leaves, with none of the general
// search's bookkeeping below the transposition table.
template <bool kGame>
int Search::last_two(int i, int leader, int led, Mask trick_mask, int winning, int win_seat,
                     int a, int b, std::uint64_t games, int alpha, int beta) {
    if (i == players_) {
        pinned_ |= trick_pins(trick_mask, winning) | last_trick_pins(win_seat);
        if constexpr (kGame) {
            const int first = r_.game_total(trick_mask), last = r_.game_total(held_);
            return (side_of_seat_[win_seat] ? first : -first) +
                   (side_of_seat_[last_trick_winner(win_seat)] ? last : -last);
        }
        take(trick_mask, win_seat, a, b, games);
        return last_trick(win_seat, a, b, games);
    }
    count_node();
    const int seat = wrap(leader + i);
    const Mask hand = hands_[seat];
    const Mask legal = legal_cards(r_, hand, led, trump_);
    int cards[2];
    int n = 0;
    for (Mask rest = legal; rest; rest &= rest - 1) cards[n++] = lowest(rest);
    if (n == 2 && interchangeable(cards[0], cards[1])) n = 1;
    if (n == 2 && i)
        order_pair(cards, seat, winning, win_seat, kGame);
    else
        order(cards, n, seat, i, winning, win_seat, kGame);
    // the last cut-off first, as in play (at 8 seats from trick 2, 12% fewer nodes)
    int* killer = nullptr;
    if (n == 2) {
        killer = &this->killer(kGame ? game_killers_ : killers_, seat, i, winning, led);
        if (*killer == cards[1]) std::swap(cards[0], cards[1]);
    }
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int k = 0; k < n; ++k) {
        const int card = cards[k];
        const bool wins = winning < 0 || beats(card, winning);
        remove(seat, bit(card));
        const int value =
            last_two<kGame>(i + 1, leader, led < 0 ? card : led, trick_mask | bit(card),
                            wins ? card : winning, wins ? seat : win_seat, a, b, games, alpha,
                            beta);
        restore(seat, bit(card));
        if (maximizing ? value > best : value < best) best = value;
        if (maximizing) alpha = std::max(alpha, value);
        else beta = std::min(beta, value);
        if (alpha >= beta) {
            if (killer) *killer = card;
            break;
        }
    }
    return best;
}

// Two cards to follow with, in the order to try them: in the last two tricks, order()
// costs more than it saves. Measured from the first lead at 8 seats: 0.4% fewer nodes,
// 9% less CPU.
void Search::order_pair(int* cards, int seat, int winning, int win_seat, bool game) const {
    const int x = cards[0], y = cards[1];
    const bool x_wins = beats(x, winning), y_wins = beats(y, winning);
    bool y_first;
    if (side_of_seat_[win_seat] == side_of_seat_[seat])
        y_first = feed_key_[game][y] < feed_key_[game][x];
    else if (x_wins != y_wins)
        y_first = y_wins;
    else if (x_wins)
        y_first = cheap_key_[y] < cheap_key_[x];
    else
        y_first = dump_key_[game][y] < dump_key_[game][x];
    if (y_first) std::swap(cards[0], cards[1]);
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

int Search::order(int* cards, int n, int seat, int trick_len, int winning, int win_seat,
                  bool game) const {
    if (n < 2) return n;
    const int* feed_key = feed_key_[game];
    const int* dump_key = dump_key_[game];
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
            keys[i] = lead_key_[c];
        else if (partner_safe)  // feed the partner's trick
            keys[i] = feed_key[c];
        else if (partner_winning)  // take it over where that is safe, else throw the cheapest
            keys[i] = beats(c, winning) && safe(c) ? cheap_key_[c] - 1000 : dump_key[c];
        else  // win as cheaply as possible, safely first, else feed or throw the cheapest
            keys[i] = beats(c, winning)  ? cheap_key_[c] + (safe(c) ? 0 : 100)
                      : partner_takes ? 1300 + feed_key[c]
                                      : 1000 + dump_key[c];
    }
    sort_by(cards, n, keys);
    return n;
}

int Search::play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat, int a,
                 int b, std::uint64_t games, int alpha, int beta) {
    count_node();
    if (trick_mask & once_) {
        // mid-trick, once a scoring card is in the trick, stop when what is decided settles
        // the answer (checking every mid-trick node costs more than it saves: at 8 seats
        // 1% fewer nodes for 7% less speed, since killers know the winning card)
        TrickSoFar trick{trick_mask, winning, win_seat, 0};
        const Mask remaining = held_;
        for (int s = seat; s != leader; s = s + 1 == players_ ? 0 : s + 1) trick.pending |= 1u << s;
        const Decided d = decided(a, b, games, remaining, trick);
        const auto [lower, upper] = bounds_of(d);
        // which cards can still beat the one winning the trick is part of what decided
        auto settled = [&](int value) {
            pinned_ |= plain_spots_ & bit(winning);
            return value;
        };
        if (upper <= alpha || lower == upper) return settled(upper);
        if (lower >= beta) return settled(lower);
        if (count_.game_search && d.out == 0)
            return settled(game_only(d, games, alpha, beta, [&](int lo, int hi) {
                return game_play(seat, leader, led, trick_mask, winning, win_seat, lo, hi);
            }));
    }
    const int trick_len = popcount(trick_mask);
    int cards[16];
    const int n = ordered_legal(cards, seat, led, trick_mask, trick_len, winning, win_seat);
    // The last cut-off in the same place goes first. Keyed by the card winning the trick so
    // far as well (and so by who holds it): without it, a killer that overtook an opponent
    // was tried first when a partner was winning, and the other way round. Nodes a deal
    // from the first lead, seat, place and hand size alone -> with the winning card too:
    // 8 seats (the only size that used killers then) 609k -> 436k; with killers at every
    // size, 4 seats every lead 19.1k -> 12.7k, 6 seats 124k -> 46k. With the suit led
    // under a trump that wins (seeds from 100): 8 seats 405k -> 370k, 6 seats 36.3k ->
    // 34.1k.
    int& killer = this->killer(killers_, seat, trick_len, winning, led);
    killer_first(cards, n, killer);
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int i = 0; i < n; ++i) {
        const int card = cards[i];
        const bool wins = winning < 0 || beats(card, winning);
        remove(seat, bit(card));
        const int value = next(seat, leader, led < 0 ? card : led, trick_mask | bit(card),
                               trick_len + 1, wins ? card : winning, wins ? seat : win_seat, a, b,
                               games, alpha, beta);
        restore(seat, bit(card));
        if (maximizing) {
            if (value > best) {
                best = value;
                if (value > alpha) {
                    alpha = value;
                    if (alpha >= beta) {
                        killer = card;
                        break;
                    }
                }
            }
        } else if (value < best) {
            best = value;
            if (value < beta) {
                beta = value;
                if (alpha >= beta) {
                    killer = card;
                    break;
                }
            }
        }
    }
    return best;
}

// --- The root ----------------------------------------------------------------------------

std::vector<int> root_order(const Position& p, const Rules& r) {
    const int seat = p.to_act();
    const Mask legal = legal_cards(r, p.hands[seat], p.trick_len ? p.trick[0] : -1, p.trump);
    std::vector<int> cards;
    for (Mask rest = legal; rest; rest &= rest - 1) cards.push_back(lowest(rest));
    if (r.table)  // as Python tries them: the table's codes ascending
        std::sort(cards.begin(), cards.end(),
                  [&](int x, int y) { return r.real_of[x] < r.real_of[y]; });
    if (p.trump >= 0) return cards;
    // the opening lead also picks trump: the longest, strongest suit first, top card down
    const Mask hand = p.hands[seat];
    auto strength = [&](int card) {
        const Mask suit = hand & r.suit_mask[r.suit_of[card]];
        int ranks = 0;
        for (Mask rest = suit; rest; rest &= rest - 1) ranks += r.rank_of[lowest(rest)];
        return std::make_pair(-(popcount(suit) * 16 + ranks), -card);
    };
    std::stable_sort(cards.begin(), cards.end(),
                     [&](int x, int y) { return strength(x) < strength(y); });
    return cards;
}

// The cards held at the first trick start an estimate answers for: after the current
// trick and ``exact_tricks`` - 1 more.
static int horizon_of(const Position& p, int exact_tricks) {
    if (exact_tricks <= 0) return 0;
    int held = 0;
    for (int s = 0; s < p.players; ++s) held += popcount(p.hands[s]);
    return std::max(0, held - (p.players - p.trick_len) - (exact_tricks - 1) * p.players);
}

Root::Root(const Position& position, const Utility& utility, const Budget& budget,
           Counters& counters, int exact_tricks, const Rules* rules)
    : rules_(rules ? *rules : smear::rules()),
      position_(position),
      utility_(utility),
      budget_(budget),
      counters_(counters),
      horizon_(horizon_of(position, exact_tricks)),
      order_(root_order(position, rules_)) {
    thread_table().clear(position.players <= 4 ? kSmallTableBits : kTableBits);
}

Root::~Root() = default;

int Root::after(int card, int alpha, int beta, std::uint64_t node_limit) {
    const int trump = position_.trump >= 0 ? position_.trump : rules_.suit_of[card];
    auto& search = searches_[trump];
    if (!search)
        search = std::make_unique<Search>(rules_, position_, trump, utility_, budget_, counters_,
                                          thread_table(), horizon_);
    search->limit_nodes(node_limit == UINT64_MAX ? UINT64_MAX : counters_.nodes + node_limit);
    return search->after(card, alpha, beta);
}

// The index of the value, known to lie in [low, high] (the value is always a table
// entry). ``probe(goal)`` answers "does the value reach goal?" fail-soft: an answer at or
// above goal is a lower bound on the value, one below it an upper bound, so one probe
// can rule out more than its half of the range. ``first`` is tested first (by default the
// top: a side with the lead and a free choice of trump often takes everything); when it
// is reached, its neighbour above next, which settles a value equal to a guess.
template <typename Probe>
int Root::narrow(Probe probe, int low, int high, int first) const {
    const auto& values = utility_.values;
    int next = std::min(first, high);
    while (low < high) {
        const int k = next > low ? next : (low + high + 1) / 2;
        const int goal = values[k];
        const int found = probe(goal);
        if (found >= goal) {
            low = std::min(high, std::max(k, index_of(found)));
            next = k == first ? k + 1 : -1;
        } else {
            const int at_most = index_of(found + 1) - 1;  // the last entry <= found
            high = std::max(low, std::min(k - 1, at_most));
            next = -1;
        }
    }
    return low;
}

int Root::index_of(int value) const {
    const auto& values = utility_.values;
    return int(std::lower_bound(values.begin(), values.end(), value) - values.begin());
}

// Whether some card decides "the value reaches ``goal``" for the side to move: one that
// reaches it when that side maximises, one that falls short when it minimises; returned
// as a fail-soft value (that card's answer, or the best of every card's when none
// decides). One card that decides cheaply spares proving the others, and which card that
// is shows only in the searching: so every card gets a small node allowance in turn,
// growing fourfold each round, until one decides or every card is done. A probe given up
// keeps what it stored in the transposition table, so its next turn starts where it
// stopped; values never depend on the allowances, only the work does.
int Root::race_cards(int goal, bool side_moves) {
    constexpr std::uint64_t kFirstAllowance = 2048;
    std::vector<int> pending = order_;
    int best = side_moves ? INT_MIN : INT_MAX;
    for (std::uint64_t allowance = kFirstAllowance; !pending.empty(); allowance *= 4) {
        std::vector<int> unfinished;
        for (int card : pending) {
            // the last card standing has nothing to race against
            const bool alone = unfinished.empty() && card == pending.back();
            try {
                const int found = after(card, goal - 1, goal, alone ? UINT64_MAX : allowance);
                if ((found >= goal) == side_moves) return found;
                best = side_moves ? std::max(best, found) : std::min(best, found);
            } catch (const ProbeLimit&) {
                unfinished.push_back(card);
            }
        }
        pending.swap(unfinished);
    }
    return best;
}

// Goals from the top of the table down: a goal not reached answers with an upper bound on
// the value (fail-soft), and the next goal is the highest entry it still allows; the
// first goal reached is the value. The goals above the value usually fail cheaply, and a
// deal is usually worth near the top to the side that leads and chooses trump, whereas a
// binary search's low goals can be dear to prove (8 seats: a deal worth 4 took 3 M nodes
// to reach 0). Measured against the binary search, nodes a deal from the first lead: 8
// seats 682k -> 609k (p95 deal 3.14 M -> 2.58 M), 4 seats 5,351 -> 4,431, 6 seats and
// cutthroat tables the same or fewer.
int Root::value() {
    const bool side_moves = utility_.side_of_unit[position_.unit_of[position_.to_act()]];
    const auto& values = utility_.values;
    int high = int(values.size()) - 1;
    while (high > 0) {
        const int goal = values[high];
        const int found = race_cards(goal, side_moves);
        if (found >= goal) break;
        high = std::min(high - 1, index_of(found + 1) - 1);
    }
    return values[std::max(high, 0)];
}

// A card's exact value; ``guess`` (a table entry, or none) is tested first and its
// neighbour above, which settles the common case of a value equal to the last one found.
int Root::card_value(int card, std::optional<int> guess) {
    auto probe = [&](int goal) { return after(card, goal - 1, goal); };
    const int top = int(utility_.values.size()) - 1;
    return utility_.values[narrow(probe, 0, top, guess ? index_of(*guess) : top)];
}

int Root::best_card() {
    const int value = this->value();
    for (int card : order_)
        if (at_least(card, value) && !at_least(card, value + 1)) return card;
    throw std::logic_error("no card reaches the solved value");
}

Position advance(const Position& p, int card, const Rules& r) {
    Position next = p;
    const int seat = p.to_act();
    next.hands[seat] &= ~bit(card);
    if (next.trump < 0) next.trump = r.suit_of[card];
    next.trick[next.trick_len++] = card;
    if (next.trick_len < p.players) return next;
    const int winner = (p.leader + trick_winner(r, next.trick, next.trick_len, next.trump)) %
                       p.players;
    for (int i = 0; i < next.trick_len; ++i) next.taken[p.unit_of[winner]] |= bit(next.trick[i]);
    next.trick_len = 0;
    next.leader = winner;
    return next;
}

std::vector<int> principal_variation(const Position& start, const Utility& u,
                                     Counters& counters, const Rules& r) {
    std::vector<int> line;
    Position p = start;
    const Budget none;
    while (true) {
        Mask held = 0;
        for (int s = 0; s < p.players; ++s) held |= p.hands[s];
        if (!held) return line;
        Root root(p, u, none, counters, 0, &r);
        const int card = root.best_card();
        line.push_back(card);
        p = advance(p, card, r);
    }
}

}  // namespace smear
