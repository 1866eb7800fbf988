// The batch loop. Deals are taken in index order from a shared counter by the calling
// thread and, with two threads, by one helper thread that lives as long as the process
// (each thread searches with its own transposition table). The caller always works
// too, so a helper busy with another call, or absent, only costs speed.
#include "batch.hpp"

#include <atomic>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include <unistd.h>

#include "root.hpp"

namespace smear {

namespace {

struct Shared {
    explicit Shared(const BatchRequest& r) : request(r), rows(r.count), deals(r.count) {}
    const BatchRequest& request;
    std::atomic<int> next{0};
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> nodes{0};
    std::atomic<int> dropped{0};
    std::vector<std::optional<std::vector<int>>> rows;  // per deal index, once solved
    std::vector<Position> deals;
    std::mutex mutex;  // guards helpers and error
    std::condition_variable helpers_done;
    int helpers = 0;
    std::exception_ptr error;
};

std::vector<int> solve_one(const BatchRequest& r, const Position& p, const Budget& budget,
                           Counters& counters) {
    Root root(p, *r.utility, budget, counters, r.exact_tricks);
    std::vector<int> row;
    if (!r.actions) {
        row.push_back(root.value());
        return row;
    }
    std::optional<int> last;
    for (int card : r.cards) row.push_back(*(last = root.card_value(card, last)));
    return row;
}

// The budget of a deal starting now: the batch's, or its share of the time left.
Budget deal_budget(const BatchRequest& r) {
    if (r.deal_share <= 0 || !r.budget.active) return r.budget;
    Budget budget = r.budget;
    const auto now = Clock::now();
    if (now < r.budget.deadline)
        budget.deadline = now + std::chrono::duration_cast<Clock::duration>(
                                    (r.budget.deadline - now) * r.deal_share);
    return budget;
}

// Take deals until none is left or the batch's budget has passed (for every thread at
// once: the deadline is shared). A deal cut short by its own share is skipped.
void work(Shared& s) {
    const BatchRequest& r = s.request;
    Counters counters;
    try {
        while (!s.stop.load(std::memory_order_relaxed)) {
            const int i = s.next.fetch_add(1);
            if (i >= r.count) break;
            // the first min_count indices are taken before any timed one, and finish
            const bool timed = i >= r.min_count;
            if (timed && r.budget.passed()) {
                s.stop = true;
                break;
            }
            const Position p = deal(*r.knowledge, r.seed, std::uint64_t(i));
            const Budget budget = timed ? deal_budget(r) : Budget{};
            try {
                s.rows[i] = solve_one(r, p, budget, counters);
                s.deals[i] = p;
            } catch (const Timeout&) {
                ++s.dropped;
                if (r.budget.passed()) s.stop = true;
            }
        }
    } catch (...) {
        std::lock_guard<std::mutex> guard(s.mutex);
        if (!s.error) s.error = std::current_exception();
        s.stop = true;
    }
    s.nodes += counters.nodes;
}

// One helper thread per process, started on first use and never stopped. A process
// forked from one that had it (the trainer's workers) starts its own: the fork copied
// the queue but not the thread.
class Helper {
   public:
    static Helper& instance() {
        static std::mutex starting;
        static Helper* helper = nullptr;  // never destroyed: it outlives every call
        std::lock_guard<std::mutex> guard(starting);
        if (!helper || helper->pid_ != getpid()) helper = new Helper();
        return *helper;
    }
    void offer(Shared* s) {
        std::lock_guard<std::mutex> guard(mutex_);
        queue_.push_back(s);
        ready_.notify_one();
    }
    // After this the helper never starts on ``s``; it may still be working on it.
    void withdraw(Shared* s) {
        std::lock_guard<std::mutex> guard(mutex_);
        for (auto it = queue_.begin(); it != queue_.end(); ++it)
            if (*it == s) {
                queue_.erase(it);
                return;
            }
    }

   private:
    Helper() : pid_(getpid()) { std::thread([this] { run(); }).detach(); }
    void run() {
        while (true) {
            Shared* s;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                ready_.wait(lock, [this] { return !queue_.empty(); });
                s = queue_.front();
                queue_.pop_front();
                // counted while the queue is locked, so a caller that no longer finds
                // its batch queued knows to wait for this helper
                std::lock_guard<std::mutex> guard(s->mutex);
                ++s->helpers;
            }
            work(*s);
            std::lock_guard<std::mutex> guard(s->mutex);
            --s->helpers;
            s->helpers_done.notify_all();
        }
    }
    const pid_t pid_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Shared*> queue_;
};

}  // namespace

int idle_core_threads() {
    double load[1];
    if (getloadavg(load, 1) != 1) return 1;
    const unsigned cores = std::thread::hardware_concurrency();
    return cores >= 2 && double(cores) - load[0] >= 1.0 ? 2 : 1;
}

BatchResult solve_batch(const BatchRequest& request) {
    if (request.threads < 1 || request.threads > kMaxBatchThreads)
        bad_input("a batch runs on 1 or 2 threads");
    Shared shared(request);
    Helper* helper = request.threads > 1 && request.count > 1 ? &Helper::instance() : nullptr;
    if (helper) helper->offer(&shared);
    work(shared);
    if (helper) {
        helper->withdraw(&shared);
        std::unique_lock<std::mutex> lock(shared.mutex);
        shared.helpers_done.wait(lock, [&] { return shared.helpers == 0; });
    }
    if (shared.error) std::rethrow_exception(shared.error);
    BatchResult result;
    for (int i = 0; i < request.count; ++i) {
        if (!shared.rows[i]) {
            result.complete = false;
            continue;
        }
        result.deals.push_back(shared.deals[i]);
        result.values.push_back(std::move(*shared.rows[i]));
    }
    result.nodes = shared.nodes;
    result.dropped = shared.dropped;
    return result;
}

}  // namespace smear
