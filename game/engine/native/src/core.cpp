// The rules handed over by Python, and validation of everything Python passes in.
#include "core.hpp"

#include <algorithm>

namespace smear {

namespace {
Rules g_rules;
bool g_configured = false;

std::string card_text(int card) { return "card " + std::to_string(card); }
}  // namespace

bool configured() { return g_configured; }

const Rules& rules() {
    if (!g_configured) throw std::logic_error("smear_native.configure() has not been called");
    return g_rules;
}

void configure(const Rules& given) {
    Rules r = given;
    for (int card = 0; card < kCards; ++card) r.real_of[card] = card;
    finish(r);
    g_rules = r;
    g_configured = true;
}

void finish(Rules& r) {
    // The search finds the highest card of a suit by its bit: ranks must rise with codes.
    for (int card = 1; card < kCards; ++card) {
        const int suit = r.suit_of[card];
        if (suit >= 0 && suit == r.suit_of[card - 1] && r.rank_of[card] <= r.rank_of[card - 1])
            bad_input("ranks must rise with card codes within a suit");
    }
    // game totals are kept a byte per unit
    int deck_total = 0;
    std::fill(r.game_planes, r.game_planes + 8, Mask{0});
    r.game_plane_count = 0;
    for (int card = 0; card < kCards; ++card) {
        if (!((r.deck >> card) & 1)) continue;
        if (r.game_value[card] < 0) bad_input("a game value cannot be negative");
        deck_total += r.game_value[card];
        if (deck_total > 255) bad_input("the deck's game values must total at most 255");
        for (int k = 0; k < 8; ++k)
            if (r.game_value[card] >> k & 1) {
                r.game_planes[k] |= bit(card);
                r.game_plane_count = std::max(r.game_plane_count, k + 1);
            }
    }
}

void validate(const Position& p, const Rules& r) {
    if (p.players < r.min_players || p.players > kMaxSeats)
        bad_input("a position has " + std::to_string(r.min_players) + " to 8 seats, not " +
                  std::to_string(p.players));
    if (p.units < 1 || p.units > p.players) bad_input("units must number 1 to the seat count");
    bool used[kMaxSeats] = {};
    for (int s = 0; s < p.players; ++s) {
        if (p.unit_of[s] < 0 || p.unit_of[s] >= p.units)
            bad_input("seat " + std::to_string(s) + " has no unit in 0.." +
                      std::to_string(p.units - 1));
        used[p.unit_of[s]] = true;
    }
    for (int u = 0; u < p.units; ++u)
        if (!used[u]) bad_input("unit " + std::to_string(u) + " has no seat");
    if (p.trump < -1 || p.trump > 3) bad_input("trump is a suit 0..3 or -1");
    if (p.leader < 0 || p.leader >= p.players) bad_input("the leader is not a seat");
    if (p.trick_len >= p.players) bad_input("a trick in progress has fewer cards than seats");
    Mask in_play = 0, seen = 0;
    for (int s = 0; s < p.players; ++s) {
        if (p.dealt[s] & ~r.deck) bad_input("seat " + std::to_string(s) + " was dealt no card");
        if (in_play & p.dealt[s]) bad_input("a card was dealt to two seats");
        if (p.hands[s] & ~p.dealt[s])
            bad_input("seat " + std::to_string(s) + " holds a card it was not dealt");
        if (seen & p.hands[s]) bad_input("a card is held twice");
        in_play |= p.dealt[s];
        seen |= p.hands[s];
    }
    const Mask held = seen;
    for (int i = 0; i < p.trick_len; ++i) {
        const int card = p.trick[i];
        if (card < 0 || card >= kCards || !((in_play >> card) & 1))
            bad_input(card_text(card) + " in the trick was never dealt");
        if ((seen >> card) & 1) bad_input(card_text(card) + " is in the trick twice or still held");
        seen |= bit(card);
    }
    for (int u = 0; u < p.units; ++u) {
        if (p.taken[u] & ~in_play) bad_input("a unit took a card that was never dealt");
        if (p.taken[u] & seen) bad_input("a taken card is also held, taken twice or in the trick");
        seen |= p.taken[u];
    }
    if (seen != in_play) bad_input("every dealt card must be held, in the trick or taken");
    if (p.trump < 0 && (p.trick_len || held != in_play))
        bad_input("before trump is set no card has been played");
    // (a full-deck table may deal no trump at all: its high and low then go to nobody)
    if (p.trump >= 0 && !r.table && !(in_play & r.suit_mask[p.trump]))
        bad_input("no trump is in play");
    // each seat holds as many cards as the seat to act, or one fewer if it played to the trick
    const int size = popcount(p.hands[p.to_act()]);
    for (int i = 0; i < p.players; ++i) {
        const int seat = (p.leader + i) % p.players;
        const int expected = i < p.trick_len ? size - 1 : size;
        if (popcount(p.hands[seat]) != expected)
            bad_input("seat " + std::to_string(seat) + " holds the wrong number of cards");
    }
    if (size == 0) bad_input("the round is over: no card is left to play");
    // the search keeps its killers per hand size up to 7
    if (size > 7) bad_input("a hand in play holds at most 7 cards");
}

Utility make_utility(const std::vector<int>& side, const std::vector<std::vector<int>>& table) {
    Utility u;
    for (int unit : side) {
        if (unit < 0 || unit >= kMaxSeats) bad_input("a side unit must be 0..7");
        u.side_of_unit[unit] = true;
    }
    const int size = int(table.size());
    if (size < 1 || size > kPointsRange) bad_input("the utility table must have 1 to 8 rows");
    u.size = size;
    for (int a = 0; a < size; ++a) {
        if (int(table[a].size()) != size)
            bad_input("each utility row must have as many entries as the table has rows");
        for (int b = 0; b < size; ++b) {
            const int v = table[a][b];
            if (v < -(1 << 28) || v > (1 << 28)) bad_input("a utility entry is out of range");
            u.table[a][b] = v;
            if (a && v < u.table[a - 1][b]) bad_input("the table must rise with a");
            if (b && v > u.table[a][b - 1]) bad_input("the table must fall with b");
            u.values.push_back(v);
        }
    }
    std::sort(u.values.begin(), u.values.end());
    u.values.erase(std::unique(u.values.begin(), u.values.end()), u.values.end());
    return u;
}

}  // namespace smear
