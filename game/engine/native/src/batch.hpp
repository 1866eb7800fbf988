// Sampled deals solved in one call, on the calling thread and, when asked, on a helper.
#pragma once

#include <vector>

#include "core.hpp"
#include "sampler.hpp"

namespace smear {

constexpr int kMaxBatchThreads = 2;

struct BatchRequest {
    const Knowledge* knowledge = nullptr;
    const Utility* utility = nullptr;
    std::vector<int> cards;  // the knowing seat's legal cards, priced in actions mode
    int count = 0;
    std::uint64_t seed = 0;
    bool actions = false;
    Budget budget;
    int min_count = 0;  // deals solved whatever the budget
    int threads = 1;    // 1, or 2 to share the deals with the helper thread
    // When above 0, a timed deal may take at most this share of the time left when it
    // starts; one that takes longer is dropped and the next deal tried, so that one
    // hard deal cannot spend the whole budget.
    double deal_share = 0;
    // Above 0: an estimate (see Root), that many tricks searched exactly.
    int exact_tricks = 0;
};

// The deals solved, in index order: a deal its share of the budget cut short is
// dropped while later ones are kept (so are later ones another thread finished).
struct BatchResult {
    std::vector<Position> deals;
    std::vector<std::vector<int>> values;
    bool complete = true;
    int dropped = 0;  // deals begun and given up
    std::uint64_t nodes = 0;
};

// 2 while the last minute's load average leaves a whole core idle, else 1: a helper
// fighting other work for a core would only slow the search it helps.
int idle_core_threads();

// Call without the GIL. Rethrows on the calling thread whatever a search raised.
BatchResult solve_batch(const BatchRequest& request);

}  // namespace smear
