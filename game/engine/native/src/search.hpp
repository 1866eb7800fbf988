// The search below one position for one trump: exact alpha-beta over the tricks of a
// complete deal (the same meaning as game/engine/solver_py.py), and once game is the only
// point open, the game search in game points. One class, defined by concern: the search
// itself in search.cpp, its move ordering in ordering.cpp, the keys of its transposition
// table entries in transposition.cpp. The root (root.hpp) asks it its questions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core.hpp"
#include "ordering.hpp"
#include "transposition.hpp"

namespace smear {

// Raised inside the search when a probe passes the node limit it was given at the root.
struct ProbeLimit {};

// The search for one deal with trump fixed.
class Search {
   public:
    Search(const Rules& r, const Position& p, int trump, const Utility& u, const Budget& budget,
           Counters& counters, TranspositionTable& tt, int horizon);
    int after(int card, int alpha, int beta);
    // Searches from now on give up (throw ProbeLimit) once the node count passes ``limit``.
    void limit_nodes(std::uint64_t limit) { node_limit_ = limit; }

   private:
    // --- The search (search.cpp; its small helpers inline below) -------------------------

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
    int game_lead(std::uint64_t games) const;
    // A trick start's table key, and what serving it from an entry with loose cards needs.
    struct Keyed {
        TableKey key;
        std::uint64_t games;  // the game totals as the key tells them apart (or 0)
        std::uint32_t meta;
        std::uint64_t hash;
        Mask low;  // the plain low cards held (see canonical_key)
    };
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
    int holder(int card) const;
    int final_value(int a, int b, std::uint64_t games) const;
    void take(Mask cards, int winner, int& a, int& b, std::uint64_t& games) const;
    int game_winner(std::uint64_t games) const;
    bool beats(int card, int current) const;
    bool is_trump(int card) const { return (trump_mask_ >> card) & 1; }
    // a seat number counted on past the last seat, less than twice round (no division)
    int wrap(int seat) const { return seat < players_ ? seat : seat - players_; }
    std::optional<int> relaxed_bound(int leader, int a, int b, std::uint64_t games, int alpha,
                                     int beta);

    // --- Move ordering (ordering.cpp; killer and interchangeable inline below) -----------

    // The cards ``seat`` may play, equivalent ones merged, in the order they are tried
    // (``game``: for the game search); how many.
    int ordered_legal(int* cards, int seat, int led, Mask trick_mask, int trick_len, int winning,
                      int win_seat, bool game = false) const;
    // ``game``: for the game search, where a scoring card is worth only its game value
    int order(int* cards, int n, int seat, int trick_len, int winning, int win_seat,
              bool game = false) const;
    void order_pair(int* cards, int seat, int winning, int win_seat, bool game) const;
    Mask merge(Mask legal, Mask trick_mask) const;
    bool interchangeable(int x, int y) const;
    int& killer(Killers& killers, int seat, int trick_len, int winning, int led);

    // --- Transposition table keys (transposition.cpp; the pins inline below) ------------

    Keyed keyed(std::uint64_t games, std::uint32_t meta) const;
    bool covers(const TranspositionTable::Entry& e, const Keyed& k) const;
    // The entry that serves the position of ``k``, if any.
    const TranspositionTable::Entry* table_entry(const Keyed& k) const;
    // Record bounds found for ``k`` at game lead ``lead``, loose as far as pinned_ allows.
    void table_store(const Keyed& k, int lo, int hi, int lead);
    Mask loose_region(const std::uint8_t* loose) const;
    void loose_counts(Mask low, std::uint8_t* loose) const;
    Mask pins_of(const std::uint8_t* loose, Mask low) const;
    Mask trick_pins(Mask trick_mask, int winning) const;
    Mask last_trick_pins(int leader) const;
    Mask canonical_key(TableKey& key) const;
    std::uint64_t game_key(std::uint64_t games, int still_out) const;
    std::uint64_t key_hash(const TableKey& key, std::uint64_t relative, std::uint32_t meta) const;

    // --- State ----------------------------------------------------------------------------

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
    OrderKeys keys_;
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
    const int horizon_;
    // The last cut-off cards: one table for the search and one for the game search.
    Killers killers_, game_killers_;
};

// --- Inline: called at every node, or at every node of the last two tricks ----------------

// Whether ``card`` beats ``current``, the card winning a trick so far.
inline bool Search::beats(int card, int current) const {
    if (r_.is_joker(card)) return !r_.is_joker(current) && !is_trump(current);
    if (is_trump(card)) return !is_trump(current) || card > current;
    if (r_.is_joker(current) || is_trump(current)) return false;
    return r_.suit_of[card] == r_.suit_of[current] && card > current;
}

// The cards that beat ``winning``, the card winning a trick so far (all of them legal to
// whoever holds one: trumps and jokers always are, and a plain winner is of the suit led).
inline Mask Search::beaters_of(int winning) const {
    const Mask above = ~((bit(winning) << 1) - 1);
    if (is_trump(winning)) return trump_mask_ & above;
    if (r_.is_joker(winning)) return trump_mask_;  // a later joker loses to the first
    return trump_mask_ | r_.jokers | (r_.suit_mask[r_.suit_of[winning]] & above);
}

inline int Search::points_in(Mask cards) const {
    return popcount(cards & once_) + popcount(cards & twice_);
}

// The maximising side's game total less the other's (two sides).
inline int Search::game_lead(std::uint64_t games) const {
    return int((games >> (8 * count_.max_unit)) & 0xFF) -
           int((games >> (8 * (1 - count_.max_unit))) & 0xFF);
}

// Move ordering. The killer slot of a place (see Killers): the seat, its place in the
// trick and cards in hand, and the card winning the trick so far, or the suit led when a
// trump wins a trick led in another suit.
inline int& Search::killer(Killers& killers, int seat, int trick_len, int winning, int led) {
    const bool trumped = winning >= 0 && is_trump(winning) && !is_trump(led) &&
                         !r_.is_joker(led);
    const int context =
        trumped ? kCards + 1 + std::min(winning - suit_base_[trump_], 12) * 4 + r_.suit_of[led]
                : winning + 1;
    return killers.at(seat, trick_len, popcount(hands_[seat]), context);
}

// Move ordering. Two cards of one hand that play alike: touching in their suit (no card of
// the last two tricks between them), worth the same toward game and neither scoring.
inline bool Search::interchangeable(int x, int y) const {
    if (x > y) std::swap(x, y);
    if (((r_.jokers | once_) >> x & 1) || ((r_.jokers | once_) >> y & 1)) return false;
    if (r_.suit_of[x] != r_.suit_of[y] || r_.game_value[x] != r_.game_value[y]) return false;
    return !(last_cards_ & (bit(y) - 1) & ~((bit(x) << 1) - 1));
}

// Table keys. A plain low card that wins a trick over another card of its suit must keep
// its rank.
inline Mask Search::trick_pins(Mask trick_mask, int winning) const {
    if (!((plain_spots_ >> winning) & 1)) return 0;
    return trick_mask & r_.suit_mask[r_.suit_of[winning]] & ~bit(winning) ? bit(winning) : 0;
}

// Table keys. The last trick's pin: its winner, when a plain low card wins it over
// another card of its suit.
inline Mask Search::last_trick_pins(int leader) const {
    const Mask cards = held_;
    if (cards & (trump_mask_ | r_.jokers)) return 0;
    const Mask led = cards & r_.suit_mask[r_.suit_of[lowest(hands_[leader])]];
    return trick_pins(cards, highest(led));
}

// Table keys. What an answer taken from an entry with ``loose`` cards pins in the
// position: in each suit, its lowest plain low card that is not loose.
inline Mask Search::pins_of(const std::uint8_t* loose, Mask low) const {
    Mask pins = 0;
    for (int suit = 0; suit < 4; ++suit) {
        Mask run = low & r_.suit_mask[suit];
        for (int i = 0; i < loose[suit] && run; ++i) run &= run - 1;
        if (run) pins |= bit(lowest(run));
    }
    return pins;
}

}  // namespace smear
