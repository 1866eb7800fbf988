// Dealing the unseen cards consistently with what one seat knows (see knowledge.py).
#pragma once

#include <vector>

#include "core.hpp"

namespace smear {

// splitmix64: the same generator, bit for bit, as game/engine/knowledge.py.
class SplitMix64 {
   public:
    explicit SplitMix64(std::uint64_t state) : state_(state) {}
    static std::uint64_t mix(std::uint64_t z);
    // The generator of deal ``index`` under ``seed``: it depends on nothing else.
    static SplitMix64 for_deal(std::uint64_t seed, std::uint64_t index);
    std::uint64_t next();
    // A number in [0, n) (n > 0), by multiply and shift.
    int below(int n) { return int((unsigned __int128)next() * unsigned(n) >> 64); }

   private:
    std::uint64_t state_;
};

struct Knowledge {
    int players = 0;
    int units = 0;
    int unit_of[kMaxSeats] = {};
    int seat = 0;
    Mask hand = 0;
    Mask unseen = 0;
    int needs[kMaxSeats] = {};
    Mask barred[kMaxSeats] = {};
    Mask played_by[kMaxSeats] = {};
    int trump = -1;
    int leader = 0;
    int trick[kMaxSeats] = {};
    int trick_len = 0;
    Mask taken[kMaxSeats] = {};
};

void validate(const Knowledge& k);
// Deal ``index`` of ``seed``: every seat's current cards, as a Position.
Position deal(const Knowledge& k, std::uint64_t seed, std::uint64_t index);

}  // namespace smear
