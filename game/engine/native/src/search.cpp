// The search (search.hpp): alpha-beta over the tricks of one deal with trump fixed,
// bounded at each trick start by what is already decided and by the transposition table,
// and the game search that takes over once game is the only point open.
#include "search.hpp"

#include <algorithm>

namespace smear {

namespace {

constexpr int kInfinity = 1 << 30;

}  // namespace

// Checked every 1024 nodes: the deadline, and the node limit of a probe.
void Search::count_node() {
    if (++counters_.nodes & 1023) return;
    if (budget_.passed()) throw Timeout{};
    if (counters_.nodes >= node_limit_) throw ProbeLimit{};
}

Search::Search(const Rules& r, const Position& p, int trump, const Utility& u,
               const Budget& budget, Counters& counters, TranspositionTable& tt, int horizon)
    : r_(r),
      p_(p),
      u_(u),
      budget_(budget),
      counters_(counters),
      tt_(tt),
      trump_(trump),
      players_(p.players),
      horizon_(horizon) {
    const Mask in_play = p.in_play();
    trump_mask_ = r_.suit_mask[trump];
    const Mask trumps = in_play & trump_mask_;
    for (int s = 0; s < players_; ++s) side_of_seat_[s] = u.side_of_unit[p.unit_of[s]];
    int dealt_points = 0;  // points the deal itself gives the seats dealt their cards
    if (r_.table) {
        // a full-deck table: its point cards score for their capturer, once each, and
        // (ace and two) for the seat dealt them
        once_ = in_play & r_.capture_points;
        twice_ = 0;
        for (Mask rest = in_play & r_.holder_points; rest; rest &= rest - 1)
            for (int s = 0; s < players_; ++s)
                if ((p.dealt[s] >> lowest(rest)) & 1) {
                    (side_of_seat_[s] ? sure_a_ : sure_b_) += 1;
                    ++dealt_points;
                }
    } else {
        const Mask high = bit(highest(trumps));
        const Mask jack = in_play & r_.jack_of[trump];
        once_ = high | jack | (in_play & r_.jokers);
        twice_ = high & jack;
        // low goes to whoever was dealt it, whoever captures it
        const int low = lowest(trumps);
        for (int s = 0; s < players_; ++s)
            if ((p.dealt[s] >> low) & 1) (side_of_seat_[s] ? sure_a_ : sure_b_) += 1;
        dealt_points = 1;
    }
    // the deal's points, those captured and game: a side's points index the utility table
    const int most = dealt_points + popcount(once_) + popcount(twice_) + 1;
    if (most > u.size - 1)
        bad_input("a round here holds " + std::to_string(most) +
                  " points: the utility table needs " + std::to_string(most + 1) + " rows");
    reset_hands();
    for (int unit = 0; unit < p.units; ++unit) {
        const Mask cards = p.taken[unit];
        const int points = popcount(cards & once_) + popcount(cards & twice_);
        (u.side_of_unit[unit] ? sure_a_ : sure_b_) += points;
        games0_ += std::uint64_t(r_.game_total(cards)) << (8 * unit);
    }
    // equivalent cards exist only where touching ranks can share a game value
    merges_ = false;
    for (int card = 0; card + 1 < kCards; ++card) {
        const Mask pair = bit(card) | bit(card + 1);
        if ((in_play & pair) == pair && !r_.is_joker(card) && !r_.is_joker(card + 1) &&
            r_.suit_of[card] == r_.suit_of[card + 1] &&
            r_.game_value[card] == r_.game_value[card + 1] && !((once_ >> card) & 1) &&
            !((once_ >> (card + 1)) & 1))
            merges_ = true;
    }
    count_.units = p.units;
    std::copy(p.unit_of, p.unit_of + players_, count_.unit_of);
    std::copy(u.side_of_unit, u.side_of_unit + p.units, count_.side_of_unit);
    count_.two_sides = p.units == 2 && u.side_of_unit[0] != u.side_of_unit[1];
    count_.max_unit = u.side_of_unit[0] ? 0 : 1;
    count_.game_search = count_.two_sides && horizon_ == 0;
    for (int suit = 0; suit < 4; ++suit) {
        plain_zero_[suit] = 0;
        for (Mask rest = in_play & r_.suit_mask[suit] & ~once_; rest; rest &= rest - 1)
            if (!r_.game_value[lowest(rest)]) plain_zero_[suit] |= bit(lowest(rest));
        suit_base_[suit] = lowest(r_.suit_mask[suit]);
        if (suit != trump) plain_spots_ |= plain_zero_[suit];
        if (suit != trump && popcount(plain_zero_[suit]) > 1) loosens_ = true;
    }
    if (p.units > 2 && horizon_ == 0) {
        int per_side[2] = {0, 0};
        for (int unit = 0; unit < p.units; ++unit) ++per_side[u.side_of_unit[unit]];
        if (per_side[1] == 1)
            relax_ = Relax::lower;
        else if (per_side[0] == 1)
            relax_ = Relax::upper;
        relaxed_count_.units = 2;
        std::copy(side_of_seat_, side_of_seat_ + players_, relaxed_count_.unit_of);
        relaxed_count_.side_of_unit[1] = true;
        relaxed_count_.two_sides = relaxed_count_.game_search = relaxed_count_.relaxed = true;
        relaxed_count_.max_unit = 1;
    }
    killers_.reset(players_);
    game_killers_ = killers_;
    keys_.fill(r_, trump_mask_, once_);
}

int Search::after(int card, int alpha, int beta) {
    const int seat = p_.to_act();
    int trick[kMaxSeats];
    std::copy(p_.trick, p_.trick + p_.trick_len, trick);
    trick[p_.trick_len] = card;
    const int len = p_.trick_len + 1;
    Mask trick_mask = 0;
    for (int i = 0; i < len; ++i) trick_mask |= bit(trick[i]);
    const int index = trick_winner(r_, trick, len, trump_);
    const int win_seat = (p_.leader + index) % players_;
    remove(seat, bit(card));
    pinned_ = 0;
    int value;
    try {
        value = next(seat, p_.leader, trick[0], trick_mask, len, trick[index], win_seat, sure_a_,
                     sure_b_, games0_, alpha, beta);
    } catch (...) {
        // every hand, not only this one: a probe given up is not the end of the search
        reset_hands();
        throw;
    }
    restore(seat, bit(card));
    return value;
}

int Search::game_winner(std::uint64_t games) const {
    int best = -1, winner = -1;
    bool tie = false;
    for (int unit = 0; unit < count_.units; ++unit) {
        const int total = int((games >> (8 * unit)) & 0xFF);
        if (total > best) {
            best = total;
            winner = unit;
            tie = false;
        } else if (total == best) {
            tie = true;
        }
    }
    return tie ? -1 : winner;
}

int Search::final_value(int a, int b, std::uint64_t games) const {
    const int winner = game_winner(games);
    if (winner >= 0) (count_.side_of_unit[winner] ? a : b) += 1;
    return u_.table[a][b];
}

void Search::take(Mask cards, int winner, int& a, int& b, std::uint64_t& games) const {
    const int points = popcount(cards & once_) + popcount(cards & twice_);
    (side_of_seat_[winner] ? a : b) += points;
    games += std::uint64_t(r_.game_total(cards)) << (8 * count_.unit_of[winner]);
}

// After ``seat`` added the card that made ``trick_len`` cards: finish the trick or pass on.
int Search::next(int seat, int leader, int led, Mask trick_mask, int trick_len, int winning,
                 int win_seat, int a, int b, std::uint64_t games, int alpha, int beta) {
    if (trick_len < players_)
        return play(seat + 1 == players_ ? 0 : seat + 1, leader, led, trick_mask, winning,
                    win_seat, a, b, games, alpha, beta);
    pinned_ |= trick_pins(trick_mask, winning);
    take(trick_mask, win_seat, a, b, games);
    return trick_start(win_seat, a, b, games, alpha, beta);
}

// The interval the value lies in, from what is decided: points taken, points whose
// capture is sure, and game once the rest cannot change who wins it. Mid-trick, the
// cards played so far go to the side winning the trick once no opponent still to play
// (a seat in ``pending``) can beat its winning card.
Search::Decided Search::decided(int a, int b, std::uint64_t games, Mask remaining,
                                const TrickSoFar& trick) const {
    const Mask* hands_of_side = side_held_;  // [other side, maximising side]
    int sure[2] = {0, 0};       // points, per side
    int game_sure[2] = {0, 0};  // game value, per side
    int out = points_in(remaining);
    const int still_out = r_.game_total(remaining | trick.cards);
    int losing_side = -1;  // mid-trick, the side not winning the trick so far
    if (trick.cards) {
        const bool side = side_of_seat_[trick.win_seat];
        losing_side = !side;
        Mask opponents = 0;
        for (int s = 0; s < players_; ++s)
            if ((trick.pending >> s & 1) && side_of_seat_[s] != side) opponents |= hands_[s];
        if (opponents & beaters_of(trick.winning)) {
            out += points_in(trick.cards);
        } else {
            sure[side] += points_in(trick.cards);
            game_sure[side] += r_.game_total(trick.cards);
        }
    }
    // A trump (or joker) its holder's opponents cannot beat wins the trick it is played
    // to, so it is captured by its holder's side: its points and its game value with it.
    // A trump is beaten only by a higher one, a joker by any trump or the other joker.
    const Mask candidates = remaining & (trump_mask_ | r_.jokers);
    for (int side = 0; side < 2; ++side) {
        const Mask own = candidates & hands_of_side[side];
        if (!own) continue;
        const Mask against = hands_of_side[!side] & (trump_mask_ | r_.jokers);
        const Mask their_trumps = against & trump_mask_;
        Mask unbeaten = own & trump_mask_;
        if (their_trumps) unbeaten &= ~((bit(highest(their_trumps)) << 1) - 1);
        if (!against) unbeaten |= own & r_.jokers;
        if (side == losing_side && unbeaten) {
            // played now, a card of a seat still to play meets the card winning so far
            Mask pending_cards = 0;
            for (std::uint32_t rest = trick.pending; rest; rest &= rest - 1)
                pending_cards |= hands_[__builtin_ctz(rest)];
            const int w = trick.winning;
            const Mask beaten_by_winner = is_trump(w) ? (trump_mask_ & (bit(w) - 1)) | r_.jokers
                                          : r_.is_joker(w) ? r_.jokers
                                                           : 0;
            unbeaten &= ~(pending_cards & beaten_by_winner);
        }
        game_sure[side] += r_.game_total(unbeaten);
        const int points = points_in(unbeaten);
        sure[side] += points;
        out -= points;
    }
    const int a_low = a + sure[1], b_low = b + sure[0];
    int settled = -1, game_ahead = -1;
    if (count_.two_sides) {
        // each side is one unit: game is settled once even the rest cannot tie it
        const int lead = game_lead(games) + game_sure[1] - game_sure[0];
        const int open = still_out - game_sure[0] - game_sure[1];
        if (lead > open)
            settled = 1;
        else if (-lead > open)
            settled = 0;
        game_ahead = lead > 0 ? 1 : lead < 0 ? 0 : -1;
    } else {
        int top = -1, second = -1, top_unit = 0;
        for (int unit = 0; unit < count_.units; ++unit) {
            const int total = int((games >> (8 * unit)) & 0xFF);
            if (total > top) {
                second = top;
                top = total;
                top_unit = unit;
            } else if (total > second) {
                second = total;
            }
        }
        if (count_.units == 1 || top > second + still_out) settled = count_.side_of_unit[top_unit] ? 1 : 0;
        if (top > second) game_ahead = count_.side_of_unit[top_unit] ? 1 : 0;
    }
    return {a_low, b_low, out, settled, game_ahead};
}

Search::Bounds Search::bounds_of(const Decided& d) const {
    const auto [a_low, b_low, out, settled, game_ahead] = d;
    const auto& t = u_.table;
    if (settled < 0) return {t[a_low][b_low + out + 1], t[a_low + out + 1][b_low]};
    if (settled == 1) return {t[a_low + 1][b_low + out], t[a_low + out + 1][b_low]};
    return {t[a_low][b_low + out + 1], t[a_low + out][b_low + 1]};
}

// An ESTIMATE, not the value: what is decided, the open points shared evenly (an odd one
// to neither side), game to the side sure of it or else ahead on it. Always between the
// bounds, and a table entry.
int Search::estimate_at(int a, int b, std::uint64_t games, Mask remaining) const {
    const auto [a_low, b_low, out, settled, game_ahead] =
        decided(a, b, games, remaining, TrickSoFar{});
    const int game = settled >= 0 ? settled : game_ahead;
    return u_.table[a_low + out / 2 + (game == 1)][b_low + out / 2 + (game == 0)];
}

Search::StartProbe Search::probe_start(int leader, int a, int b, std::uint64_t games, int alpha,
                                       int beta) {
    StartProbe sp{};
    sp.answered = true;
    const Mask remaining = held_;
    if (!remaining) {
        sp.value = final_value(a, b, games);
        return sp;
    }
    if (popcount(remaining) == players_) {
        sp.value = last_trick(leader, a, b, games);
        sp.pins = last_trick_pins(leader);
        return sp;
    }
    if (popcount(remaining) <= horizon_) {
        sp.value = estimate_at(a, b, games, remaining);
        return sp;
    }
    // stop when the points still out cannot change the answer
    sp.d = decided(a, b, games, remaining, TrickSoFar{});
    auto [lower, upper] = bounds_of(sp.d);
    if (upper <= alpha || lower == upper) {
        sp.value = upper;
        return sp;
    }
    if (lower >= beta) {
        sp.value = lower;
        return sp;
    }
    sp.answered = false;
    if (count_.game_search && sp.d.out == 0) {
        sp.game_only = true;
        return sp;
    }
    const int still_out = r_.game_total(remaining);
    // with two sides the entry serves every lead on game (see Entry); beyond the game
    // still out, a greater lead changes nothing
    sp.lead = count_.two_sides ? std::clamp(game_lead(games), -still_out - 1, still_out + 1) : 0;
    const std::uint64_t relative = count_.two_sides ? 0 : game_key(games, still_out);
    const std::uint32_t meta = std::uint32_t(trump_) | std::uint32_t(leader) << 2 |
                               std::uint32_t(a) << 5 | std::uint32_t(b) << 8 |
                               std::uint32_t(count_.relaxed) << 30;
    sp.k = keyed(relative, meta);
    sp.lower = lower;
    sp.upper = upper;
    consult_table(sp, alpha, beta);
    return sp;
}

void Search::consult_table(StartProbe& sp, int alpha, int beta) const {
    int lower = sp.lower, upper = sp.upper;
    if (const auto* entry = table_entry(sp.k)) {
        sp.pins |= pins_of(entry->loose, sp.k.low);
        lower = std::max(lower, entry->lower_at(sp.lead, lower));
        upper = std::min(upper, entry->upper_at(sp.lead, upper));
        sp.answered = true;
        if (lower >= beta || lower == upper) {
            sp.value = lower;
            return;
        }
        if (upper <= alpha) {
            sp.value = upper;
            return;
        }
        sp.answered = false;
    }
    sp.lower = lower;
    sp.upper = upper;
}

int Search::trick_start(int leader, int a, int b, std::uint64_t games, int alpha, int beta) {
    const Mask outer = pinned_;
    const StartProbe sp = probe_start(leader, a, b, games, alpha, beta);
    pinned_ = sp.pins;
    int value;
    if (sp.answered)
        value = sp.value;
    else if (sp.game_only)
        value = game_only(sp.d, games, alpha, beta,
                          [&](int lo, int hi) { return game_start(leader, lo, hi); });
    else
        value = search_start(sp, leader, a, b, games, alpha, beta);
    pinned_ |= outer;
    return value;
}

// A trick start that neither its bounds nor the table answer.
int Search::search_start(const StartProbe& sp, int leader, int a, int b, std::uint64_t games,
                         int alpha, int beta) {
    const int lower = sp.lower, upper = sp.upper;
    const int alpha0 = alpha > lower ? alpha : lower;
    const int beta0 = beta < upper ? beta : upper;
    int value;
    if (const std::optional<int> bound = relaxed_bound(leader, a, b, games, alpha0, beta0)) {
        value = *bound;
    } else if (popcount(held_) == 2 * players_) {
        last_cards_ = held_;
        value = last_two<false>(0, leader, -1, 0, -1, -1, a, b, games, alpha0, beta0);
    } else {
        value = play(leader, leader, -1, 0, -1, -1, a, b, games, alpha0, beta0);
    }
    table_store(sp.k, value <= alpha0 ? lower : value, value >= beta0 ? upper : value, sp.lead);
    return value;
}

// The relaxed game's value from a trick start (see relax_) when, as a bound on the real
// value, it already falls outside (alpha, beta): a lower bound reaching beta, an upper
// one at alpha or below.
std::optional<int> Search::relaxed_bound(int leader, int a, int b, std::uint64_t games,
                                         int alpha, int beta) {
    if (relax_ == Relax::none || count_.relaxed) return std::nullopt;
    std::uint64_t sides = 0;  // the game totals of the sides as two units
    for (int unit = 0; unit < count_.units; ++unit)
        sides += ((games >> (8 * unit)) & 0xFF) << (8 * count_.side_of_unit[unit]);
    const bool lower_bound = relax_ == Relax::lower;
    const int goal = lower_bound ? beta : alpha + 1;
    struct Restore {
        Search& s;
        const Counting layout;
        ~Restore() { s.count_ = layout; }
    } restore{*this, count_};
    count_ = relaxed_count_;
    const int bound = trick_start(leader, a, b, sides, goal - 1, goal);
    if ((bound >= goal) == lower_bound) return bound;
    return std::nullopt;
}

// The seat holding ``card``.
int Search::holder(int card) const {
    for (int s = 0;; ++s)
        if ((hands_[s] >> card) & 1) return s;
}

// One card each: the last trick plays itself. The order of play matters only between
// two jokers (the first one wins) and for the suit led.
int Search::last_trick(int leader, int a, int b, std::uint64_t games) const {
    take(held_, last_trick_winner(leader), a, b, games);
    return final_value(a, b, games);
}

int Search::last_trick_winner(int leader) const {
    const Mask cards = held_;
    if (const Mask trumps = cards & trump_mask_) return holder(highest(trumps));
    if (const Mask jokers = cards & r_.jokers) {
        int winner = leader;
        while (!(hands_[winner] & jokers)) winner = winner + 1 == players_ ? 0 : winner + 1;
        return winner;
    }
    const int led_suit = r_.suit_of[lowest(hands_[leader])];
    return holder(highest(cards & r_.suit_mask[led_suit]));
}

// The value of a trick start where game is the only point open and settled by neither
// side: the three outcomes' values (game to the maximising side, to nobody, to the
// other) and the game search asked only what the window needs of it. Fail-soft like the
// search it stands in for.
template <typename GameSearch>
int Search::game_only(const Decided& d, std::uint64_t games, int alpha, int beta,
                      GameSearch game_search) {
    const auto& t = u_.table;
    const int v_win = t[d.a_low + 1][d.b_low], v_tie = t[d.a_low][d.b_low],
              v_lose = t[d.a_low][d.b_low + 1];
    const int ahead = game_lead(games);
    const int win_at = 1 - ahead, tie_at = -ahead;  // game search results that win, tie
    if (v_tie <= alpha) {  // only a win reaches the window
        const int found = game_search(win_at - 1, win_at);
        return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
    }
    if (v_tie >= beta) {  // a tie already passes it
        const int found = game_search(tie_at - 1, tie_at);
        return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
    }
    const int found = game_search(tie_at - 1, win_at);
    return found >= win_at ? v_win : found >= tie_at ? v_tie : v_lose;
}

// The game search from a trick start: the maximising side's game captured from here
// minus the other's, fail-soft in (alpha, beta).
int Search::game_start(int leader, int alpha, int beta) {
    const Mask remaining = held_;
    if (!remaining) return 0;
    if (popcount(remaining) == players_) {
        const int total = r_.game_total(remaining);
        pinned_ |= last_trick_pins(leader);
        return side_of_seat_[last_trick_winner(leader)] ? total : -total;
    }
    // a trump no opponent can beat takes its own game value to its holder's side
    int sure[2] = {0, 0};
    for (Mask rest = remaining & trump_mask_; rest; rest &= rest - 1) {
        const int card = lowest(rest);
        if (!r_.game_value[card]) continue;
        const bool mine = (side_held_[1] >> card) & 1;
        if (side_held_[!mine] & trump_mask_ & ~((bit(card) << 1) - 1)) continue;
        sure[mine] += r_.game_value[card];
    }
    const int open = r_.game_total(remaining) - sure[0] - sure[1];
    int lower = sure[1] - sure[0] - open, upper = sure[1] - sure[0] + open;
    if (upper <= alpha || lower == upper) return upper;
    if (lower >= beta) return lower;
    const std::uint32_t meta = 1u << 31 | std::uint32_t(trump_) | std::uint32_t(leader) << 2 |
                               std::uint32_t(merges_) << 5;
    const Keyed k = keyed(0, meta);
    const Mask outer = pinned_;
    pinned_ = 0;
    if (const auto* entry = table_entry(k)) {
        pinned_ = pins_of(entry->loose, k.low);
        const bool lower_answers = entry->lo >= beta || entry->lo == entry->hi;
        if (lower_answers || entry->hi <= alpha) {
            pinned_ |= outer;
            return lower_answers ? entry->lo : entry->hi;
        }
        lower = std::max(lower, entry->lo);
        upper = std::min(upper, entry->hi);
    }
    const int alpha0 = std::max(alpha, lower), beta0 = std::min(beta, upper);
    int value;
    if (popcount(remaining) == 2 * players_) {  // the last two tricks, as in search_start
        last_cards_ = remaining;
        value = last_two<true>(0, leader, -1, 0, -1, -1, 0, 0, 0, alpha0, beta0);
    } else {
        value = game_play(leader, leader, -1, 0, -1, -1, alpha0, beta0);
    }
    table_store(k, value <= alpha0 ? lower : value, value >= beta0 ? upper : value, 0);
    pinned_ |= outer;
    return value;
}

int Search::game_play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat,
                      int alpha, int beta) {
    count_node();
    const int trick_len = popcount(trick_mask);
    int cards[16];
    const int n = ordered_legal(cards, seat, led, trick_mask, trick_len, winning, win_seat, true);
    // the last cut-off goes first, as in play (a table of its own)
    int& killer = this->killer(game_killers_, seat, trick_len, winning, led);
    killer_first(cards, n, killer);
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int i = 0; i < n; ++i) {
        const int card = cards[i];
        const bool wins = winning < 0 || beats(card, winning);
        const int now_winning = wins ? card : winning, now_seat = wins ? seat : win_seat;
        const Mask now_trick = trick_mask | bit(card);
        remove(seat, bit(card));
        int value;
        if (trick_len + 1 < players_) {
            value = game_play(seat + 1 == players_ ? 0 : seat + 1, leader, led < 0 ? card : led,
                              now_trick, now_winning, now_seat, alpha, beta);
        } else {
            pinned_ |= trick_pins(now_trick, now_winning);
            const int total = r_.game_total(now_trick);
            const int gain = side_of_seat_[now_seat] ? total : -total;
            value = gain + game_start(now_seat, alpha - gain, beta - gain);
        }
        restore(seat, bit(card));
        if (maximizing) {
            if (value > best) best = value;
            if (best > alpha) alpha = best;
        } else {
            if (value < best) best = value;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) {
            killer = card;
            break;
        }
    }
    return best;
}

// The last two tricks, every hand holding two cards, seat ``i`` of the trick to play:
// each choice of card settles both tricks, so this is plain alpha-beta over at most two
// cards a seat with the last trick played out at the leaves, with none of the general
// search's bookkeeping below the transposition table.
template <bool kGame>
int Search::last_two(int i, int leader, int led, Mask trick_mask, int winning, int win_seat,
                     int a, int b, std::uint64_t games, int alpha, int beta) {
    if (i == players_) {
        pinned_ |= trick_pins(trick_mask, winning) | last_trick_pins(win_seat);
        if constexpr (kGame) {
            const int first = r_.game_total(trick_mask), last = r_.game_total(held_);
            return (side_of_seat_[win_seat] ? first : -first) +
                   (side_of_seat_[last_trick_winner(win_seat)] ? last : -last);
        }
        take(trick_mask, win_seat, a, b, games);
        return last_trick(win_seat, a, b, games);
    }
    count_node();
    const int seat = wrap(leader + i);
    const Mask hand = hands_[seat];
    const Mask legal = legal_cards(r_, hand, led, trump_);
    int cards[2];
    int n = 0;
    for (Mask rest = legal; rest; rest &= rest - 1) cards[n++] = lowest(rest);
    if (n == 2 && interchangeable(cards[0], cards[1])) n = 1;
    if (n == 2 && i)
        order_pair(cards, seat, winning, win_seat, kGame);
    else
        order(cards, n, seat, i, winning, win_seat, kGame);
    // the last cut-off first, as in play (at 8 seats from trick 2, 12% fewer nodes)
    int* killer = nullptr;
    if (n == 2) {
        killer = &this->killer(kGame ? game_killers_ : killers_, seat, i, winning, led);
        if (*killer == cards[1]) std::swap(cards[0], cards[1]);
    }
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int k = 0; k < n; ++k) {
        const int card = cards[k];
        const bool wins = winning < 0 || beats(card, winning);
        remove(seat, bit(card));
        const int value =
            last_two<kGame>(i + 1, leader, led < 0 ? card : led, trick_mask | bit(card),
                            wins ? card : winning, wins ? seat : win_seat, a, b, games, alpha,
                            beta);
        restore(seat, bit(card));
        if (maximizing ? value > best : value < best) best = value;
        if (maximizing) alpha = std::max(alpha, value);
        else beta = std::min(beta, value);
        if (alpha >= beta) {
            if (killer) *killer = card;
            break;
        }
    }
    return best;
}

int Search::play(int seat, int leader, int led, Mask trick_mask, int winning, int win_seat, int a,
                 int b, std::uint64_t games, int alpha, int beta) {
    count_node();
    if (trick_mask & once_) {
        // mid-trick, once a scoring card is in the trick, stop when what is decided settles
        // the answer (checking every mid-trick node costs more than it saves: at 8 seats
        // 1% fewer nodes for 7% less speed, since killers know the winning card)
        TrickSoFar trick{trick_mask, winning, win_seat, 0};
        const Mask remaining = held_;
        for (int s = seat; s != leader; s = s + 1 == players_ ? 0 : s + 1) trick.pending |= 1u << s;
        const Decided d = decided(a, b, games, remaining, trick);
        const auto [lower, upper] = bounds_of(d);
        // which cards can still beat the one winning the trick is part of what decided
        auto settled = [&](int value) {
            pinned_ |= plain_spots_ & bit(winning);
            return value;
        };
        if (upper <= alpha || lower == upper) return settled(upper);
        if (lower >= beta) return settled(lower);
        if (count_.game_search && d.out == 0)
            return settled(game_only(d, games, alpha, beta, [&](int lo, int hi) {
                return game_play(seat, leader, led, trick_mask, winning, win_seat, lo, hi);
            }));
    }
    const int trick_len = popcount(trick_mask);
    int cards[16];
    const int n = ordered_legal(cards, seat, led, trick_mask, trick_len, winning, win_seat);
    // The last cut-off in the same place goes first. Keyed by the card winning the trick so
    // far as well (and so by who holds it): without it, a killer that overtook an opponent
    // was tried first when a partner was winning, and the other way round. Nodes a deal
    // from the first lead, seat, place and hand size alone -> with the winning card too:
    // 8 seats (the only size that used killers then) 609k -> 436k; with killers at every
    // size, 4 seats every lead 19.1k -> 12.7k, 6 seats 124k -> 46k. With the suit led
    // under a trump that wins (seeds from 100): 8 seats 405k -> 370k, 6 seats 36.3k ->
    // 34.1k.
    int& killer = this->killer(killers_, seat, trick_len, winning, led);
    killer_first(cards, n, killer);
    const bool maximizing = side_of_seat_[seat];
    int best = maximizing ? -kInfinity : kInfinity;
    for (int i = 0; i < n; ++i) {
        const int card = cards[i];
        const bool wins = winning < 0 || beats(card, winning);
        remove(seat, bit(card));
        const int value = next(seat, leader, led < 0 ? card : led, trick_mask | bit(card),
                               trick_len + 1, wins ? card : winning, wins ? seat : win_seat, a, b,
                               games, alpha, beta);
        restore(seat, bit(card));
        if (maximizing) {
            if (value > best) {
                best = value;
                if (value > alpha) {
                    alpha = value;
                    if (alpha >= beta) {
                        killer = card;
                        break;
                    }
                }
            }
        } else if (value < best) {
            best = value;
            if (value < beta) {
                beta = value;
                if (alpha >= beta) {
                    killer = card;
                    break;
                }
            }
        }
    }
    return best;
}

}  // namespace smear
