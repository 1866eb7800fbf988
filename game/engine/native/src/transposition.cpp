// The transposition table (transposition.hpp) and the keys the search stores trick
// starts under: each suit's worthless low cards renumbered from the bottom, the game
// totals only as far as the rest of the round can tell them apart, and the low cards whose
// holders an entry may leave loose (a partition search: see Search::pinned_).
#include <algorithm>

#include "search.hpp"

namespace smear {

namespace {

std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

Mask seat_cards(const TableKey& key, int seat) {
    Mask cards = key.cards;
    for (int k = 0; k < 3; ++k) cards &= (seat >> k & 1) ? key.seat_bits[k] : ~key.seat_bits[k];
    return cards;
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

// An entry's loose cards for the position with plain low cards ``low``: the loose ones
// below the lowest pinned card of each suit.
void Search::loose_counts(Mask low, std::uint8_t* loose) const {
    for (int suit = 0; suit < 4; ++suit) {
        Mask run = low & r_.suit_mask[suit];
        if (const Mask pins = pinned_ & r_.suit_mask[suit]) run &= bit(lowest(pins)) - 1;
        loose[suit] = std::uint8_t(popcount(run));
    }
}

std::uint64_t Search::key_hash(const TableKey& key, std::uint64_t relative,
                              std::uint32_t meta) const {
    std::uint64_t h = mix64(key.cards ^ relative * 0x2545F4914F6CDD1DULL ^ std::uint64_t(meta) << 40);
    h = mix64(h ^ key.seat_bits[0] * 0x9E3779B97F4A7C15ULL ^ key.seat_bits[1]);
    return mix64(h ^ key.seat_bits[2]);
}

}  // namespace smear
