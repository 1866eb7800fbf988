// A full-deck table's rules renumbered for the search (see table.hpp).
#include "table.hpp"

#include <algorithm>

namespace smear {

namespace {

std::string card_text(int card) { return "card " + std::to_string(card); }

void check_size(std::size_t size, std::size_t expected, const std::string& what) {
    if (size != expected)
        bad_input(what + " must have " + std::to_string(expected) + " items, not " +
                  std::to_string(size));
}

}  // namespace

TableRules compile_table(const RulesData& data) {
    check_size(data.suit_of.size(), kCards, "suit_of");
    check_size(data.rank_of.size(), kCards, "rank_of");
    check_size(data.game_value.size(), kCards, "game_value");
    check_size(data.trump_order.size(), 4, "trump_order");
    check_size(data.capture_points.size(), 4, "capture_points");
    check_size(data.holder_points.size(), 4, "holder_points");
    if (data.follow != "trump_any_time" && data.follow != "schmier")
        bad_input("follow is trump_any_time or schmier, not " + data.follow);
    if (!data.game) bad_input("the core plays the game point: a table without it searches in Python");
    if (data.deck >> kCards) bad_input("the deck is a mask of card codes");
    TableRules t;
    t.deck = data.deck;
    for (int trump = 0; trump < 4; ++trump) {
        Rules r;
        auto& to_virtual = t.to_virtual[trump];
        auto& to_real = t.to_real[trump];
        to_virtual.fill(-1);
        to_real.fill(-1);
        for (int s = 0; s < 4; ++s) r.suit_mask[s] = r.jack_of[s] = 0;
        std::fill(r.suit_of, r.suit_of + kCards, -1);
        std::fill(r.rank_of, r.rank_of + kCards, -1);
        std::fill(r.game_value, r.game_value + kCards, 0);
        std::fill(r.real_of, r.real_of + kCards, -1);
        int code = 0;
        auto place = [&](int card, int suit, int rank) {
            if (card < 0 || card >= kCards || !((data.deck >> card) & 1))
                bad_input(card_text(card) + " is not in the deck");
            if (to_virtual[card] >= 0) bad_input(card_text(card) + " is ranked twice");
            to_virtual[card] = code;
            to_real[code] = card;
            r.real_of[code] = card;
            r.suit_of[code] = suit;
            r.rank_of[code] = rank;
            r.game_value[code] = data.game_value[card];
            r.suit_mask[suit] |= bit(code);
            r.deck |= bit(code);
            ++code;
        };
        Mask trumps = 0;
        for (int card : data.trump_order[trump])
            if (card >= 0 && card < kCards) trumps |= bit(card);
        for (int suit = 0; suit < 4; ++suit) {
            if (suit == trump) {
                int rank = 0;
                for (int card : data.trump_order[trump]) place(card, suit, rank++);
                continue;
            }
            // the plain cards of the suit (the jick has left it for trump), by rank
            std::vector<int> plain;
            for (int card = 0; card < kCards; ++card)
                if ((data.deck >> card & 1) && !(trumps >> card & 1) && data.suit_of[card] == suit)
                    plain.push_back(card);
            std::stable_sort(plain.begin(), plain.end(),
                             [&](int x, int y) { return data.rank_of[x] < data.rank_of[y]; });
            int rank = 0;
            for (int card : plain) place(card, suit, rank++);
        }
        for (int card = 0; card < kCards; ++card)
            if ((data.deck >> card & 1) && to_virtual[card] < 0)
                bad_input(card_text(card) + " is in the deck but neither a trump nor in a suit");
        if ((data.capture_points[trump] | data.holder_points[trump]) & ~data.deck)
            bad_input("a point card is not in the deck");
        if (data.capture_points[trump] & data.holder_points[trump])
            bad_input("a card scores for its capturer or for its holder, not both");
        r.ruff = data.follow == "schmier" ? 0 : ~Mask{0};
        r.min_players = 2;
        r.table = true;
        r.capture_points = t.virtual_mask(trump, data.capture_points[trump]);
        r.holder_points = t.virtual_mask(trump, data.holder_points[trump]);
        r.hand_size = 6;
        finish(r);
        t.by_trump[trump] = r;
    }
    return t;
}

Mask TableRules::virtual_mask(int trump, Mask real) const {
    Mask out = 0;
    for (Mask rest = real; rest; rest &= rest - 1) {
        const int card = to_virtual[trump][lowest(rest)];
        if (card < 0) bad_input(card_text(lowest(rest)) + " is not in the table's deck");
        out |= bit(card);
    }
    return out;
}

Mask TableRules::real_mask(int trump, Mask cards) const {
    Mask out = 0;
    for (Mask rest = cards; rest; rest &= rest - 1) out |= bit(to_real[trump][lowest(rest)]);
    return out;
}

int TableRules::virtual_card(int trump, int card) const {
    if (card < 0 || card >= kCards || to_virtual[trump][card] < 0)
        bad_input(card_text(card) + " is not in the table's deck");
    return to_virtual[trump][card];
}

Position TableRules::virtual_position(const Position& p) const {
    if (p.trump < 0 || p.trump > 3) bad_input("a full-deck table's position has trump named (0..3)");
    Position v = p;
    for (int s = 0; s < p.players; ++s) {
        v.hands[s] = virtual_mask(p.trump, p.hands[s]);
        v.dealt[s] = virtual_mask(p.trump, p.dealt[s]);
    }
    for (int u = 0; u < p.units; ++u) v.taken[u] = virtual_mask(p.trump, p.taken[u]);
    for (int i = 0; i < p.trick_len; ++i) v.trick[i] = virtual_card(p.trump, p.trick[i]);
    validate(v, by_trump[p.trump]);
    return v;
}

}  // namespace smear
