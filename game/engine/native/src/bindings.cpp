// The Python module smear_native: positions, knowledge and batch answers as named
// classes (Position, Knowledge, SampledDeals), utilities and the small answers as plain
// tuples (solver_native.py wraps them). Arguments are read and checked with the GIL
// held; every search runs with it released.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "batch.hpp"
#include "sampler.hpp"
#include "root.hpp"
#include "table.hpp"

namespace py = pybind11;
using namespace smear;

namespace {

long long read_int(py::handle h, const std::string& what) {
    if (!py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h))
        bad_input(what + " must be an int, not " + std::string(py::str(py::type::of(h).attr("__name__"))));
    try {
        return h.cast<long long>();
    } catch (const py::cast_error&) {
        bad_input(what + " is out of range");
    }
}

Mask read_mask(py::handle h, const std::string& what) {
    const long long value = read_int(h, what);
    if (value < 0 || value >= (1LL << kCards)) bad_input(what + " is not a mask of card codes");
    return Mask(value);
}

std::vector<py::handle> read_items(py::handle h, const std::string& what, std::size_t expected) {
    if (!py::isinstance<py::sequence>(h) || py::isinstance<py::str>(h))
        bad_input(what + " must be a sequence");
    std::vector<py::handle> items;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(h)) items.push_back(item);
    if (expected != std::size_t(-1) && items.size() != expected)
        bad_input(what + " must have " + std::to_string(expected) + " items, not " +
                  std::to_string(items.size()));
    return items;
}

int read_units(py::handle h, int* unit_of, int& players) {
    const auto items = read_items(h, "unit_of", -1);
    // (the house rules take 3 seats or more: validate says so)
    if (items.size() < 2 || items.size() > kMaxSeats)
        bad_input("a table has 3 to 8 seats (2 with the full deck), not " +
                  std::to_string(items.size()));
    players = int(items.size());
    int units = 0;
    for (int s = 0; s < players; ++s) {
        const long long unit = read_int(items[s], "unit_of[" + std::to_string(s) + "]");
        if (unit < 0 || unit >= players) bad_input("a unit is 0 to the seat count - 1");
        unit_of[s] = int(unit);
        units = std::max(units, int(unit) + 1);
    }
    return units;
}

void read_trick(py::handle h, int players, int* trick, int& len) {
    const auto items = read_items(h, "trick", -1);
    if (int(items.size()) >= players) bad_input("a trick in progress has fewer cards than seats");
    len = int(items.size());
    for (int i = 0; i < len; ++i) {
        const long long card = read_int(items[i], "a trick card");
        if (card < 0 || card >= kCards) bad_input("a trick card is not a card code");
        trick[i] = int(card);
    }
}

// One mask per seat: ``count`` of them, named ``what[i]`` in errors.
void read_masks(py::handle h, const std::string& what, int count, Mask* out) {
    const auto items = read_items(h, what, count);
    for (int i = 0; i < count; ++i) out[i] = read_mask(items[i], what + "[" + std::to_string(i) + "]");
}

void read_taken(py::handle h, int units, Mask* taken) {
    const auto items = read_items(h, "taken", -1);
    if (items.empty()) return;  // nothing taken yet
    if (int(items.size()) != units)
        bad_input("taken must have one mask per unit (" + std::to_string(units) + "), not " +
                  std::to_string(items.size()));
    for (int u = 0; u < units; ++u) taken[u] = read_mask(items[u], "taken[" + std::to_string(u) + "]");
}

// A Position's fields, each checked for its shape and range only: a search checks the
// position against the rules it is asked under (see Asked).
Position read_position(py::handle unit_of, py::handle hands, py::handle dealt, py::handle trump,
                       py::handle leader, py::handle trick, py::handle taken) {
    Position p;
    p.units = read_units(unit_of, p.unit_of, p.players);
    read_masks(hands, "hands", p.players, p.hands);
    read_masks(dealt, "dealt", p.players, p.dealt);
    p.trump = int(read_int(trump, "trump"));
    p.leader = int(read_int(leader, "leader"));
    read_trick(trick, p.players, p.trick, p.trick_len);
    read_taken(taken, p.units, p.taken);
    return p;
}

// A position asked of the core: under the house rules as given, or a table's renumbered
// (see table.hpp), with the cards of the answers told back in the table's codes.
struct Asked {
    const TableRules* table = nullptr;
    Position position;
    const Rules* rules = nullptr;

    Asked(const Position& given, const TableRules* t) : table(t) {
        if (t) {
            position = t->virtual_position(given);
            rules = &t->by_trump[position.trump];
        } else {
            validate(given, smear::rules());
            position = given;
            rules = &smear::rules();
        }
    }
    int real(int card) const { return table ? table->real_card(position.trump, card) : card; }
};

// (side units, 7 x 7 table)
Utility read_utility(py::handle h) {
    const auto fields = read_items(h, "a utility", 2);
    std::vector<int> side;
    for (py::handle unit : read_items(fields[0], "the side", -1))
        side.push_back(int(read_int(unit, "a side unit")));
    std::vector<std::vector<int>> table;
    for (py::handle row : read_items(fields[1], "the utility table", -1)) {
        table.emplace_back();
        for (py::handle entry : read_items(row, "a utility row", -1))
            table.back().push_back(int(read_int(entry, "a utility entry")));
    }
    return make_utility(side, table);
}

// A Knowledge's fields, each checked for its shape and range only: a call checks the
// whole against the rules (validate).
Knowledge read_knowledge(py::handle unit_of, py::handle seat, py::handle hand,
                         py::handle unseen, py::handle needs, py::handle barred,
                         py::handle played_by, py::handle trump, py::handle leader,
                         py::handle trick, py::handle taken) {
    Knowledge k;
    k.units = read_units(unit_of, k.unit_of, k.players);
    k.seat = int(read_int(seat, "seat"));
    k.hand = read_mask(hand, "hand");
    k.unseen = read_mask(unseen, "unseen");
    const auto each_need = read_items(needs, "needs", k.players);
    for (int s = 0; s < k.players; ++s) {
        const long long need = read_int(each_need[s], "needs[" + std::to_string(s) + "]");
        if (need < 0 || need > 64) bad_input("a seat's need is out of range");
        k.needs[s] = int(need);
    }
    read_masks(barred, "barred", k.players, k.barred);
    read_masks(played_by, "played_by", k.players, k.played_by);
    k.trump = int(read_int(trump, "trump"));
    k.leader = int(read_int(leader, "leader"));
    read_trick(trick, k.players, k.trick, k.trick_len);
    read_taken(taken, k.units, k.taken);
    return k;
}

// The first ``count`` items of ``items`` as a tuple (a seat's or a unit's worth of a field).
template <typename T>
py::tuple tuple_of(const T* items, int count) {
    py::tuple out(count);
    for (int i = 0; i < count; ++i) out[i] = py::cast(items[i]);
    return out;
}

// A read-only property of an array field: a tuple of its first ``s.*count`` items (one a
// seat, one a unit, or the cards of the trick).
template <typename S, typename T, std::size_t N>
auto tuple_field(T (S::*field)[N], int S::*count) {
    return [field, count](const S& s) { return tuple_of(s.*field, s.*count); };
}

// What solve_sampled answers (see batch.hpp's BatchResult).
struct SampledDeals {
    BatchResult result;
    std::vector<int> cards;  // the cards priced, in the order of each deal's values

    py::list hands() const {
        py::list hands;
        for (const auto& p : result.deals) hands.append(tuple_of(p.hands, p.players));
        return hands;
    }
    py::list values() const {
        py::list rows;
        for (const auto& row : result.values) rows.append(tuple_of(row.data(), int(row.size())));
        return rows;
    }
};

Budget budget_of(py::object seconds) {
    Budget b;
    if (seconds.is_none()) return b;
    const double s = seconds.cast<double>();
    b.active = true;
    b.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(s > 0 ? s : 0));
    return b;
}

void configure_rules(const std::vector<int>& suit_of, const std::vector<int>& rank_of,
                     const std::vector<int>& game_value, const std::vector<int>& jokers,
                     int jack_rank, Mask deck, int hand_size) {
    if (suit_of.size() != kCards || rank_of.size() != kCards || game_value.size() != kCards)
        bad_input("rules give 54 entries per card table");
    Rules r;
    for (int s = 0; s < 4; ++s) r.suit_mask[s] = r.jack_of[s] = 0;
    for (int c = 0; c < kCards; ++c) {
        r.suit_of[c] = suit_of[c];
        r.rank_of[c] = rank_of[c];
        r.game_value[c] = game_value[c];
        if (suit_of[c] < -1 || suit_of[c] > 3) bad_input("a suit is 0..3, or -1 for a joker");
        if (suit_of[c] >= 0) {
            r.suit_mask[suit_of[c]] |= bit(c);
            if (rank_of[c] == jack_rank) r.jack_of[suit_of[c]] |= bit(c);
        }
    }
    for (int j : jokers) {
        if (j < 0 || j >= kCards || suit_of[j] != -1) bad_input("a joker is a suitless card");
        r.jokers |= bit(j);
    }
    r.deck = deck;
    r.hand_size = hand_size;
    configure(r);
}

}  // namespace

PYBIND11_MODULE(smear_native, m) {
    m.doc() = "The native Smear search core (see game/engine/solver_native.py).";
    static py::exception<NoConsistentDeal> no_deal(m, "NoConsistentDeal", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr raised) {
        try {
            if (raised) std::rethrow_exception(raised);
        } catch (const NoConsistentDeal& e) {
            py::set_error(no_deal, e.what());
        }
    });

    // module_local: another build of the core may be loaded beside this one (solver_ab.py)
    py::class_<RulesData>(m, "RulesData", py::module_local(),
                          "A full-deck table's rules as data (see table.hpp and "
                          "solver_native.rules_data).")
        .def(py::init([](Mask deck, std::vector<int> suit_of, std::vector<int> rank_of,
                         std::vector<int> game_value, std::vector<std::vector<int>> trump_order,
                         std::string follow, std::vector<Mask> capture_points,
                         std::vector<Mask> holder_points, bool game) {
                 return RulesData{deck, std::move(suit_of), std::move(rank_of),
                                  std::move(game_value), std::move(trump_order),
                                  std::move(follow), std::move(capture_points),
                                  std::move(holder_points), game};
             }),
             py::kw_only(), py::arg("deck"), py::arg("suit_of"), py::arg("rank_of"),
             py::arg("game_value"), py::arg("trump_order"), py::arg("follow"),
             py::arg("capture_points"), py::arg("holder_points"), py::arg("game"))
        .def_readonly("deck", &RulesData::deck)
        .def_readonly("suit_of", &RulesData::suit_of)
        .def_readonly("rank_of", &RulesData::rank_of)
        .def_readonly("game_value", &RulesData::game_value)
        .def_readonly("trump_order", &RulesData::trump_order)
        .def_readonly("follow", &RulesData::follow)
        .def_readonly("capture_points", &RulesData::capture_points)
        .def_readonly("holder_points", &RulesData::holder_points)
        .def_readonly("game", &RulesData::game);

    py::class_<TableRules>(m, "Table", py::module_local(),
                           "A table's RulesData checked and renumbered for the search: pass it "
                           "as ``table`` with a position in the table's codes.")
        .def(py::init(&compile_table), py::arg("rules"))
        .def_readonly("deck", &TableRules::deck);

    py::class_<Position>(m, "Position", py::module_local(),
                         "A complete deal in mid-round, as solver_py.Position: each seat's "
                         "unit, hand and dealt cards, trump (-1 before the first card), the "
                         "leader, the trick so far and each unit's cards taken (empty: none "
                         "yet). Checked for shape here, against the rules by each search.")
        .def(py::init(&read_position), py::kw_only(), py::arg("unit_of"), py::arg("hands"),
             py::arg("dealt"), py::arg("trump"), py::arg("leader"), py::arg("trick") = py::tuple(),
             py::arg("taken") = py::tuple())
        .def_property_readonly("unit_of", tuple_field(&Position::unit_of, &Position::players))
        .def_property_readonly("hands", tuple_field(&Position::hands, &Position::players))
        .def_property_readonly("dealt", tuple_field(&Position::dealt, &Position::players))
        .def_readonly("trump", &Position::trump)
        .def_readonly("leader", &Position::leader)
        .def_property_readonly("trick", tuple_field(&Position::trick, &Position::trick_len))
        .def_property_readonly("taken", tuple_field(&Position::taken, &Position::units));

    py::class_<Knowledge>(m, "Knowledge", py::module_local(),
                          "What one seat knows, as knowledge.Knowledge: each seat's unit, the "
                          "knowing seat, its hand, the unseen cards, the cards each seat still "
                          "needs, its barred cards and its plays, trump, the leader, the trick "
                          "so far and each unit's cards taken. Checked for shape here, against "
                          "the rules by each call.")
        .def(py::init(&read_knowledge), py::kw_only(), py::arg("unit_of"), py::arg("seat"),
             py::arg("hand"), py::arg("unseen"), py::arg("needs"), py::arg("barred"),
             py::arg("played_by"), py::arg("trump"), py::arg("leader"),
             py::arg("trick") = py::tuple(), py::arg("taken") = py::tuple())
        .def_property_readonly("unit_of", tuple_field(&Knowledge::unit_of, &Knowledge::players))
        .def_readonly("seat", &Knowledge::seat)
        .def_readonly("hand", &Knowledge::hand)
        .def_readonly("unseen", &Knowledge::unseen)
        .def_property_readonly("needs", tuple_field(&Knowledge::needs, &Knowledge::players))
        .def_property_readonly("barred", tuple_field(&Knowledge::barred, &Knowledge::players))
        .def_property_readonly("played_by", tuple_field(&Knowledge::played_by, &Knowledge::players))
        .def_readonly("trump", &Knowledge::trump)
        .def_readonly("leader", &Knowledge::leader)
        .def_property_readonly("trick", tuple_field(&Knowledge::trick, &Knowledge::trick_len))
        .def_property_readonly("taken", tuple_field(&Knowledge::taken, &Knowledge::units));

    py::class_<SampledDeals>(m, "SampledDeals", py::module_local(),
                             "What solve_sampled answers: the deals solved in index order "
                             "(each seat's hand), each deal's values (one per card of "
                             "``cards``, or the value alone), whether every deal asked for "
                             "was solved, the nodes searched and the deals dropped.")
        .def_property_readonly("hands", &SampledDeals::hands)
        .def_property_readonly("values", &SampledDeals::values)
        .def_property_readonly("cards",
                               [](const SampledDeals& s) {
                                   return tuple_of(s.cards.data(), int(s.cards.size()));
                               })
        .def_property_readonly("complete",
                               [](const SampledDeals& s) { return s.result.complete; })
        .def_property_readonly("nodes", [](const SampledDeals& s) { return s.result.nodes; })
        .def_property_readonly("dropped", [](const SampledDeals& s) { return s.result.dropped; });

    m.def("configure", &configure_rules, py::arg("suit_of"), py::arg("rank_of"),
          py::arg("game_value"), py::arg("jokers"), py::arg("jack_rank"), py::arg("deck"),
          py::arg("hand_size"), "Hand the rules to the core once, before any search.");

    m.def(
        "solve",
        [](const Position& position, py::handle utility, py::object seconds,
           const TableRules* table) {
            const Asked asked(position, table);
            const Utility u = read_utility(utility);
            const Budget budget = budget_of(seconds);
            Counters counters;
            int value = 0;
            bool finished = true;
            {
                py::gil_scoped_release release;
                try {
                    Root root(asked.position, u, budget, counters, 0, asked.rules);
                    value = root.value();
                } catch (const Timeout&) {
                    finished = false;
                }
            }
            return py::make_tuple(finished ? py::object(py::int_(value)) : py::object(py::none()),
                                  counters.nodes);
        },
        py::arg("position"), py::arg("utility"), py::arg("seconds") = py::none(),
        py::arg("table") = nullptr,
        "(value or None if the budget ran out, nodes); ``table``: a full-deck table's rules "
        "(Table), the position in its codes");

    m.def(
        "action_values",
        [](const Position& position, py::handle utility, py::object seconds,
           const TableRules* table) {
            const Asked asked(position, table);
            const Utility u = read_utility(utility);
            const Budget budget = budget_of(seconds);
            Counters counters;
            std::vector<std::pair<int, int>> values;
            bool finished = true;
            {
                py::gil_scoped_release release;
                try {
                    Root root(asked.position, u, budget, counters, 0, asked.rules);
                    std::optional<int> last;
                    for (int card : root.order()) {
                        last = root.card_value(card, last);
                        values.emplace_back(asked.real(card), *last);
                    }
                } catch (const Timeout&) {
                    finished = false;
                }
            }
            const py::object found = finished ? py::cast(values) : py::object(py::none());
            return py::make_tuple(found, counters.nodes);
        },
        py::arg("position"), py::arg("utility"), py::arg("seconds") = py::none(),
        py::arg("table") = nullptr,
        "([(card, value)] in root order, or None if the budget ran out; nodes)");

    m.def(
        "best_card",
        [](const Position& position, py::handle utility, const TableRules* table) {
            const Asked asked(position, table);
            const Utility u = read_utility(utility);
            Counters counters;
            int card;
            {
                py::gil_scoped_release release;
                Root root(asked.position, u, Budget{}, counters, 0, asked.rules);
                card = root.best_card();
            }
            return py::make_tuple(asked.real(card), counters.nodes);
        },
        py::arg("position"), py::arg("utility"), py::arg("table") = nullptr);

    m.def(
        "principal_variation",
        [](const Position& position, py::handle utility, const TableRules* table) {
            const Asked asked(position, table);
            const Utility u = read_utility(utility);
            Counters counters;
            std::vector<int> line;
            {
                py::gil_scoped_release release;
                line = principal_variation(asked.position, u, counters, *asked.rules);
            }
            for (int& card : line) card = asked.real(card);
            return py::make_tuple(py::cast(line), counters.nodes);
        },
        py::arg("position"), py::arg("utility"), py::arg("table") = nullptr);

    m.def(
        "sample_deals",
        [](const Knowledge& knowledge, int count, Mask seed) {
            const Knowledge k = knowledge;
            validate(k);
            if (count < 0) bad_input("the count cannot be negative");
            std::vector<Position> deals;
            {
                py::gil_scoped_release release;
                for (int i = 0; i < count; ++i) deals.push_back(deal(k, seed, Mask(i)));
            }
            py::list out;
            for (const auto& p : deals) out.append(tuple_of(p.hands, p.players));
            return out;
        },
        py::arg("knowledge"), py::arg("count"), py::arg("seed"),
        "[hands of deal i for i < count]; deal i depends only on (seed, i)");

    m.def(
        "solve_sampled",
        [](const Knowledge& knowledge, py::handle utility, int count, Mask seed, bool actions,
           py::object seconds, int min_count, int threads, double deal_share,
           int exact_tricks) {
            const Knowledge k = knowledge;
            validate(k);
            const Utility u = read_utility(utility);
            if (count < 0) bad_input("the count cannot be negative");
            if (threads < 0 || threads > kMaxBatchThreads)
                bad_input("a batch runs on 1 or 2 threads (0: as many as cores are idle)");
            const int to_act = (k.leader + k.trick_len) % k.players;
            if (actions && to_act != k.seat) bad_input("actions are priced for the seat to act");
            BatchRequest request;
            request.knowledge = &k;
            request.utility = &u;
            const Mask legal =
                legal_cards(rules(), k.hand, k.trick_len ? k.trick[0] : -1, k.trump);
            for (Mask rest = legal; rest; rest &= rest - 1) request.cards.push_back(lowest(rest));
            request.count = count;
            request.seed = seed;
            request.actions = actions;
            request.budget = budget_of(seconds);
            request.min_count = min_count;
            request.threads = threads ? threads : idle_core_threads();
            if (!(deal_share >= 0 && deal_share <= 1)) bad_input("a deal's share is 0 to 1");
            request.deal_share = deal_share;
            if (exact_tricks < 0) bad_input("exact tricks cannot be negative");
            request.exact_tricks = exact_tricks;
            if (count > 0) validate(deal(k, seed, 0), rules());  // a malformed knowledge fails here
            SampledDeals sampled;
            sampled.cards = request.cards;
            {
                py::gil_scoped_release release;
                sampled.result = solve_batch(request);
            }
            return sampled;
        },
        py::arg("knowledge"), py::arg("utility"), py::arg("count"), py::arg("seed"),
        py::arg("actions"), py::arg("seconds"), py::arg("min_count"), py::arg("threads") = 0,
        py::arg("deal_share") = 0.0, py::arg("exact_tricks") = 0,
        "SampledDeals; deals on 1 or 2 threads, each timed deal within deal_share of the time "
        "left (0: all of it); exact_tricks above 0: ESTIMATES, that many tricks searched and "
        "the rest guessed");

    m.def("idle_threads", &idle_core_threads,
          "Threads a batch uses when not told: 2 while the last minute's load average leaves "
          "a whole core idle, else 1.");

    m.def(
        "splitmix64",
        [](Mask seed, Mask index, int count) {
            SplitMix64 rng = SplitMix64::for_deal(seed, index);
            std::vector<Mask> out;
            for (int i = 0; i < count; ++i) out.push_back(rng.next());
            return out;
        },
        py::arg("seed"), py::arg("index"), py::arg("count"),
        "The first ``count`` outputs of deal ``index``'s generator, for tests.");
}
