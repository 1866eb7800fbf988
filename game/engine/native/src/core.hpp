// The native search core: shared types, the rules it was handed, validation.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace smear {

using Mask = std::uint64_t;
constexpr int kCards = 54;
constexpr int kMaxSeats = 8;
// a utility table is at most 8 x 8: 0..7 points per side (the house rules' tables are 7 x 7)
constexpr int kPointsRange = 8;

inline int popcount(Mask m) { return __builtin_popcountll(m); }
inline int highest(Mask m) { return 63 - __builtin_clzll(m); }
inline int lowest(Mask m) { return __builtin_ctzll(m); }
inline Mask bit(int card) { return Mask{1} << card; }

// The rules the search needs: the house rules, handed over once by Python (see
// solver_native.py), or a full-deck table's with trump named, renumbered so that the same
// search serves both (see table.hpp).
struct Rules {
    int suit_of[kCards];     // -1 for the jokers
    int rank_of[kCards];     // rank within its suit; -1 for the jokers
    int game_value[kCards];  // toward game
    Mask suit_mask[4];
    Mask jokers = 0;
    Mask jack_of[4];
    Mask deck = 0;  // every card code that exists
    int hand_size = 0;
    // the game values as bit planes (plane k: the cards whose value has bit k set), so a
    // mask's game total is a popcount a plane; the deck's total fits a byte
    Mask game_planes[8] = {};
    int game_plane_count = 0;
    // The follow rule beyond the house's: ``ruff`` is every card, or none where a seat that
    // holds the suit led must follow it (schmier).
    Mask ruff = ~Mask{0};
    int min_players = 3;
    // A full-deck table's points (table.hpp): the cards that score for the unit capturing
    // them and those that score for the unit of the seat dealt them; house scoring when
    // ``table`` is false.
    bool table = false;
    Mask capture_points = 0, holder_points = 0;
    // the card code Python knows each card by (the table's renumbering), for the root order
    int real_of[kCards] = {};

    int game_total(Mask cards) const {
        int total = 0;
        for (int k = 0; k < game_plane_count; ++k) total += popcount(cards & game_planes[k]) << k;
        return total;
    }
    bool is_joker(int card) const { return (jokers >> card) & 1; }
};

const Rules& rules();
void configure(const Rules& given);
bool configured();
// Checks ``r`` and fills its game planes (configure does this for the house rules).
void finish(Rules& r);

struct Position {
    int players = 0;
    int units = 0;
    int unit_of[kMaxSeats] = {};
    Mask hands[kMaxSeats] = {};
    Mask dealt[kMaxSeats] = {};
    int trump = -1;
    int leader = 0;
    int trick[kMaxSeats] = {};
    int trick_len = 0;
    Mask taken[kMaxSeats] = {};  // per unit

    int to_act() const { return (leader + trick_len) % players; }
    Mask in_play() const {
        Mask all = 0;
        for (int s = 0; s < players; ++s) all |= dealt[s];
        return all;
    }
};

struct Utility {
    bool side_of_unit[kMaxSeats] = {};
    int size = 0;  // rows and columns of the table: a side's points are 0 .. size - 1
    int table[kPointsRange][kPointsRange] = {};
    std::vector<int> values;  // the table's distinct entries, ascending
};

// Raised inside the search when the deadline passes; the deal has no answer.
struct Timeout {};
// No deal fits the knowledge.
struct NoConsistentDeal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using Clock = std::chrono::steady_clock;

struct Budget {
    bool active = false;
    Clock::time_point deadline{};
    bool passed() const { return active && Clock::now() > deadline; }
};

struct Counters {
    std::uint64_t nodes = 0;
};

[[noreturn]] inline void bad_input(const std::string& why) { throw std::invalid_argument(why); }

void validate(const Position& p, const Rules& r);
Utility make_utility(const std::vector<int>& side, const std::vector<std::vector<int>>& table);

// The legal cards of ``hand``: ``led`` is -1 when leading, ``trump`` -1 before the first card.
inline Mask legal_cards(const Rules& r, Mask hand, int led, int trump) {
    if (led < 0) return trump < 0 ? hand & ~r.jokers : hand;
    if (r.is_joker(led)) return hand;
    const Mask trumpish = hand & (r.suit_mask[trump] | r.jokers);
    const int led_suit = r.suit_of[led];
    if (led_suit == trump) return trumpish ? trumpish : hand;
    const Mask following = hand & r.suit_mask[led_suit];
    return following ? following | (trumpish & r.ruff) : hand;
}

// Index in ``trick`` of the winning card: highest trump, else the first joker, else the
// highest card of the suit led.
inline int trick_winner(const Rules& r, const int* trick, int len, int trump) {
    Mask played = 0;
    for (int i = 0; i < len; ++i) played |= bit(trick[i]);
    int wanted = -1;
    if (Mask trumps = played & r.suit_mask[trump]) {
        wanted = highest(trumps);
    } else if (played & r.jokers) {
        for (int i = 0; i < len; ++i)
            if (r.is_joker(trick[i])) return i;
    } else {
        wanted = highest(played & r.suit_mask[r.suit_of[trick[0]]]);
    }
    for (int i = 0; i < len; ++i)
        if (trick[i] == wanted) return i;
    return 0;
}

}  // namespace smear
