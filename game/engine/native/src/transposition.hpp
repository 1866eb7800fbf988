// The transposition table at trick starts and the keys it stores positions under: the
// table itself (TableKey, TranspositionTable, one per thread) here; how the search keys
// a position (its worthless low cards renumbered, its game totals as far as they still
// matter, the low cards an entry may leave loose) in Search's members defined in
// transposition.cpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core.hpp"

namespace smear {

// entries in the transposition table: 2^17 of 64 bytes; 2^15 (2 MB) up to 4 seats
constexpr int kTableBits = 17;
constexpr int kSmallTableBits = 15;

// A position's hands in 32 bytes whatever the seat count: the cards still held and, for
// each bit of a seat's number, the cards whose holder's number has that bit set.
struct TableKey {
    Mask cards = 0;
    Mask seat_bits[3] = {0, 0, 0};

    static TableKey of(const Mask* hands, int players) {
        TableKey key;
        for (int s = 0; s < players; ++s) {
            key.cards |= hands[s];
            for (int k = 0; k < 3; ++k)
                if (s >> k & 1) key.seat_bits[k] |= hands[s];
        }
        return key;
    }
};

// A fixed-size transposition table at trick starts; a new generation empties it in O(1).
class TranspositionTable {
   public:
    // One cache line each, two to a bucket. Where only the maximising side's lead on game
    // (its game total minus the other's) tells positions apart, the value can only rise
    // with that lead, so one entry serves every lead: ``lo`` bounds the value from below
    // at ``lo_from`` and every greater lead, ``hi`` from above at ``hi_to`` and every
    // smaller one. Elsewhere both are 0. ``loose`` counts, per suit, the lowest plain
    // cards whose holders the bounds did not depend on (see Search::covers).
    struct alignas(64) Entry {
        TableKey key;
        std::uint64_t games;
        std::uint32_t meta;
        std::uint32_t generation;
        int lo, hi;
        std::int16_t lo_from, hi_to;
        std::uint8_t loose[4];

        int lower_at(int lead, int otherwise) const { return lead >= lo_from ? lo : otherwise; }
        int upper_at(int lead, int otherwise) const { return lead <= hi_to ? hi : otherwise; }
    };
    static_assert(sizeof(Entry) == 64, "an entry fills one cache line");
    explicit TranspositionTable(int bits = 16);
    // Empty it, using only the first 2^bits entries: a small table stays in cache when
    // the search is small.
    void clear(int bits) {
        ++generation_;
        mask_ = (std::uint64_t{1} << std::min(bits, bits_)) - 1;
    }
    // The entry of the bucket that ``serves(entry)`` accepts, if any.
    template <typename Serves>
    const Entry* find(std::uint64_t hash, Serves serves) const {
        const std::uint64_t base = hash & mask_ & ~std::uint64_t{1};
        for (std::uint64_t slot = base; slot <= base + 1; ++slot)
            if (entries_[slot].generation == generation_ && serves(entries_[slot]))
                return &entries_[slot];
        return nullptr;
    }
    // Record ``fresh`` (its key, games, meta, bounds and loose counts; its bounds hold at
    // game lead ``lead``). An entry that serves the position takes its key, the fewer
    // loose cards of the two in each suit, and whichever bound of each kind is the
    // tighter at ``lead``: what each knew holds for every position both serve.
    template <typename Serves>
    void store(std::uint64_t hash, Serves serves, const Entry& fresh, int lead) {
        const std::uint64_t base = hash & mask_ & ~std::uint64_t{1};
        for (std::uint64_t slot = base; slot <= base + 1; ++slot) {
            Entry& e = entries_[slot];
            if (e.generation != generation_ || !serves(e)) continue;
            e.key = fresh.key;
            for (int suit = 0; suit < 4; ++suit)
                e.loose[suit] = std::min(e.loose[suit], fresh.loose[suit]);
            if (fresh.lo > e.lower_at(lead, fresh.lo - 1)) {
                e.lo = fresh.lo;
                e.lo_from = std::int16_t(lead);
            }
            if (fresh.hi < e.upper_at(lead, fresh.hi + 1)) {
                e.hi = fresh.hi;
                e.hi_to = std::int16_t(lead);
            }
            return;
        }
        place(base, fresh, lead);
    }

   private:
    void place(std::uint64_t base, const Entry& fresh, int lead);

    std::vector<Entry> entries_;
    int bits_;
    std::uint64_t mask_;
    std::uint32_t generation_ = 1;
};

// The table of the calling thread: each thread searches with its own.
TranspositionTable& thread_table();

}  // namespace smear
