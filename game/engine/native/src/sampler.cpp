// The sampler: a card at a time, never a choice that leaves the other seats unfillable.
#include "sampler.hpp"

namespace smear {

std::uint64_t SplitMix64::mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t SplitMix64::next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return mix(state_);
}

SplitMix64 SplitMix64::for_deal(std::uint64_t seed, std::uint64_t index) {
    return SplitMix64(mix(mix(seed) + index));
}

namespace {

int kth_card(Mask cards, int k) {
    for (int i = 0; i < k; ++i) cards &= cards - 1;
    return lowest(cards);
}

// Hall's condition: every set of seats still short of cards can be filled from the pool.
bool fillable(const Knowledge& k, Mask pool, const int* needs) {
    int seats[kMaxSeats];
    int n = 0;
    for (int s = 0; s < k.players; ++s)
        if (needs[s] > 0) seats[n++] = s;
    Mask reach[1 << kMaxSeats];
    int wanted[1 << kMaxSeats];
    reach[0] = 0;
    wanted[0] = 0;
    for (int subset = 1; subset < (1 << n); ++subset) {
        const int i = lowest(Mask(subset));
        const int rest = subset & (subset - 1);
        reach[subset] = reach[rest] | (pool & ~k.barred[seats[i]]);
        wanted[subset] = wanted[rest] + needs[seats[i]];
        if (popcount(reach[subset]) < wanted[subset]) return false;
    }
    return true;
}

}  // namespace

void validate(const Knowledge& k) {
    const Rules& r = rules();
    if (k.players < 3 || k.players > kMaxSeats) bad_input("knowledge has 3 to 8 seats");
    if (k.seat < 0 || k.seat >= k.players) bad_input("the knowing seat is not at the table");
    if (k.leader < 0 || k.leader >= k.players) bad_input("the leader is not a seat");
    if (k.trump < -1 || k.trump > 3) bad_input("trump is a suit 0..3 or -1");
    if ((k.hand | k.unseen) & ~r.deck) bad_input("a card code does not exist");
    if (k.hand & k.unseen) bad_input("a card is both in the hand and unseen");
    if (k.needs[k.seat] != 0) bad_input("the knowing seat needs no cards dealt");
    int wanted = 0;
    Mask played = 0;
    for (int s = 0; s < k.players; ++s) {
        if (k.needs[s] < 0 || k.needs[s] > r.hand_size) bad_input("a seat's need is out of range");
        wanted += k.needs[s];
        if (k.played_by[s] & (played | k.hand | k.unseen))
            bad_input("a played card is played twice, held or unseen");
        played |= k.played_by[s];
    }
    if (wanted > popcount(k.unseen)) bad_input("the seats need more cards than are unseen");
}

Position deal(const Knowledge& k, std::uint64_t seed, std::uint64_t index) {
    SplitMix64 rng = SplitMix64::for_deal(seed, index);
    int needs[kMaxSeats];
    std::copy(k.needs, k.needs + k.players, needs);
    Mask pool = k.unseen;
    if (!fillable(k, pool, needs)) throw NoConsistentDeal("no deal fits what this seat has seen");
    bool constrained = false;
    for (int s = 0; s < k.players; ++s) constrained |= needs[s] > 0 && (k.barred[s] & pool);
    Position p;
    p.players = k.players;
    p.units = k.units;
    std::copy(k.unit_of, k.unit_of + k.players, p.unit_of);
    p.hands[k.seat] = k.hand;
    for (int s = 0; s < k.players; ++s) {
        while (needs[s] > 0) {
            Mask candidates = pool & ~k.barred[s];
            int card;
            while (true) {
                if (!candidates) throw std::logic_error("the sampler lost a fillable deal");
                card = kth_card(candidates, rng.below(popcount(candidates)));
                if (!constrained) break;
                --needs[s];
                const bool ok = fillable(k, pool & ~bit(card), needs);
                ++needs[s];
                if (ok) break;
                candidates &= ~bit(card);
            }
            p.hands[s] |= bit(card);
            pool &= ~bit(card);
            --needs[s];
        }
    }
    for (int s = 0; s < k.players; ++s) p.dealt[s] = p.hands[s] | k.played_by[s];
    p.trump = k.trump;
    p.leader = k.leader;
    std::copy(k.trick, k.trick + k.trick_len, p.trick);
    p.trick_len = k.trick_len;
    std::copy(k.taken, k.taken + k.units, p.taken);
    return p;
}

}  // namespace smear
