#include "mcts/mcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "pattern/tracker.h"

namespace sgfpat::mcts {

namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Twice Black's result of a finished game by area score and komi.
int score_result(const Board& b, double komi) {
  AreaScore s = b.area_score();
  double margin = double(s.black) - double(s.white) - komi;
  return margin > 0 ? 2 : margin < 0 ? 0 : 1;
}

// The default policy over one board; keeps the empty points in a list with
// their positions so a move or a capture updates it in O(1) per point.
class Playout {
 public:
  // `weigher` (may be null) scores candidates with a levels-1..2 tracker.
  Playout(const Evaluator* weigher, const KeyScheme* playout_scheme)
      : weigher_(weigher), playout_scheme_(playout_scheme) {}

  int run(Board& b, Color c, double komi, Rng& rng) {
    const int size = b.size();
    empties_.clear();
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        int idx = b.index(Point{int8_t(x), int8_t(y)});
        if (b.at_index(idx) == Color::Empty) add(idx);
      }
    PatternTracker* tracker = nullptr;
    if (weigher_) {
      if (!tracker_template_ || tracker_size_ != size) {
        tracker_template_ = std::make_unique<PatternTracker>(*playout_scheme_, size);
        tracker_size_ = size;
        if (wmax_ <= 0) wmax_ = 1e-9;
      }
      tracker_ = std::make_unique<PatternTracker>(*tracker_template_);
      for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
          int idx = b.index(Point{int8_t(x), int8_t(y)});
          if (b.at_index(idx) != Color::Empty) tracker_->set(idx, b.at_index(idx));
        }
      tracker = tracker_.get();
    }
    const int cap = 3 * size * size;
    int passes = 0;
    for (int moves = 0; moves < cap && passes < 2; ++moves) {
      int idx = pick(b, c, rng, tracker);
      if (idx < 0) {
        b.pass();
        ++passes;
      } else {
        b.play(b.point(idx), c);
        passes = 0;
        remove(idx);
        for (int r : b.last_removed()) add(r);
        if (tracker) tracker->after_play(b, idx);
      }
      c = opponent(c);
    }
    return score_result(b, komi);
  }

 private:
  void add(int idx) {
    pos_[size_t(idx)] = int16_t(empties_.size());
    empties_.push_back(int16_t(idx));
  }
  void remove(int idx) {
    int p = pos_[size_t(idx)];
    int last = empties_.back();
    empties_[size_t(p)] = int16_t(last);
    pos_[size_t(last)] = int16_t(p);
    empties_.pop_back();
  }
  void swap_slots(int a, int b) {
    std::swap(empties_[size_t(a)], empties_[size_t(b)]);
    pos_[size_t(empties_[size_t(a)])] = int16_t(a);
    pos_[size_t(empties_[size_t(b)])] = int16_t(b);
  }

  // A random legal non-eye move, or -1.  Candidates are drawn from the
  // first `left` slots; a rejected one is swapped behind them.
  int pick(const Board& b, Color c, Rng& rng, const PatternTracker* tracker) {
    int left = int(empties_.size());
    int weight_rejections = 0;
    while (left > 0) {
      int slot = int(rng.below(uint32_t(left)));
      int idx = empties_[size_t(slot)];
      if (is_own_eye(b, idx, c) || !b.is_legal_index(idx, c)) {
        swap_slots(slot, --left);
        continue;
      }
      if (tracker && weight_rejections < 16) {
        // Rejection sampling by the level 1..2 prior; wmax_ is the largest
        // score seen so far (a running bound), so acceptance <= 1.
        double w = weigher_->score(*tracker, idx, c).score;
        if (w > wmax_) wmax_ = w;
        if (rng.unit() * wmax_ > w) {
          ++weight_rejections;
          continue;
        }
      }
      return idx;
    }
    return -1;
  }

  const Evaluator* weigher_;
  const KeyScheme* playout_scheme_;
  std::vector<int16_t> empties_;
  std::array<int16_t, Board::kMaxIndex> pos_{};
  std::unique_ptr<PatternTracker> tracker_template_;
  std::unique_ptr<PatternTracker> tracker_;
  int tracker_size_ = 0;
  double wmax_ = 0;
};

}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t x = seed;
  for (auto& s : s_) s = splitmix64(x);
}

double action_value(Color mover, double n, double black_wins, double prior, double explore, double parent_n) {
  double bonus = explore > 0 ? explore * std::sqrt(std::log(parent_n + 1) / (1 + n)) : 0;
  if (n <= 0) return prior + bonus;
  double wins = mover == Color::White ? n - black_wins : black_wins;
  if (wins < 0) wins = 0;
  return wins / n + prior / (1 + n) + bonus;
}

int select_child(const Node& parent, Color mover, int virtual_loss, double explore) {
  int best = -1;
  double best_value = 0, best_prior = 0;
  const double parent_n = parent.n.load(std::memory_order_relaxed);
  for (int i = 0; i < parent.num_children; ++i) {
    const Node& ch = parent.children[size_t(i)];
    const int32_t n = ch.n.load(std::memory_order_relaxed);
    const int32_t vl = ch.vloss.load(std::memory_order_relaxed) * virtual_loss;
    const double bw = ch.black_wins_x2.load(std::memory_order_relaxed) / 2.0;
    // A virtual loss is a visit the mover lost: add it to n, and for White
    // (whose wins are n - v) also to Black's wins.
    const double n_eff = double(n) + vl;
    const double black_wins = mover == Color::White ? std::min(bw + vl, n_eff) : std::min(bw, n_eff);
    const double value = action_value(mover, n_eff, black_wins, ch.prior, explore, parent_n);
    if (best < 0 || value > best_value || (value == best_value && ch.prior > best_prior)) {
      best = i;
      best_value = value;
      best_prior = ch.prior;
    }
  }
  return best;
}

bool is_own_eye(const Board& board, int idx, Color c) {
  if (board.at_index(idx) != Color::Empty) return false;
  const int s = board.stride();
  const int nb[4] = {idx - 1, idx + 1, idx - s, idx + s};
  for (int q : nb) {
    const Color v = board.at_index(q);
    if (v != Color::OffBoard && v != c) return false;
  }
  const int dg[4] = {idx - s - 1, idx - s + 1, idx + s - 1, idx + s + 1};
  int opp = 0, off = 0;
  const Color o = opponent(c);
  for (int q : dg) {
    const Color v = board.at_index(q);
    if (v == Color::OffBoard) ++off;
    else if (v == o) ++opp;
  }
  return off > 0 ? opp == 0 : opp <= 1;
}

double ChildStats::mover_win_rate() const {
  if (visits <= 0) return 0;
  double w = mover == Color::White ? double(visits) - black_wins : black_wins;
  return w / double(visits);
}

int random_playout(const Board& board, Color to_move, double komi, Rng& rng) {
  Board b = board;
  Playout p(nullptr, nullptr);
  return p.run(b, to_move, komi, rng);
}

// --- the search ---

struct Search::Worker {
  Rng rng;
  Playout playout;
  std::vector<Node*> path;
  // In step with the iteration's board: a copy of the root's tracker, put
  // back after each iteration by undoing the recorded changes (cheaper than
  // copying it anew).
  std::unique_ptr<PatternTracker> tracker;
  std::vector<std::pair<int, Color>> changes;  // (index, color before)
};

Search::Search(const sgfpat_priors::Priors* priors, EvalOptions eval_options, SearchOptions options)
    : priors_(priors), options_(std::move(options)) {
  if (priors_ && priors_->is_open()) evaluator_ = std::make_unique<Evaluator>(*priors_, eval_options);
}

Search::~Search() = default;

void Search::expand(Node* node, const Board& board, Color mover, const PatternTracker* tracker) {
  std::vector<MovePrior> moves;
  if (options_.prior_fn) {
    options_.prior_fn(board, mover, &moves);
  } else if (evaluator_ && tracker) {
    std::vector<MoveEval> evals;
    evaluator_->evaluate(board, *tracker, mover, &evals, options_.allow_suicide);
    moves.reserve(evals.size());
    for (const MoveEval& e : evals) moves.push_back({e.point, e.prob});
  } else {
    for (int y = 0; y < board.size(); ++y)
      for (int x = 0; x < board.size(); ++x) {
        Point p{int8_t(x), int8_t(y)};
        if (board.is_legal_index(board.index(p), mover, options_.allow_suicide)) moves.push_back({p, 0});
      }
    for (MovePrior& m : moves) m.prior = 1.0 / double(moves.size());
  }
  if (options_.skip_own_eyes) {
    std::erase_if(moves, [&](const MovePrior& m) { return is_own_eye(board, board.index(m.point), mover); });
    double total = 0;
    for (const MovePrior& m : moves) total += m.prior;
    for (MovePrior& m : moves) m.prior = total > 0 ? m.prior / total : 1.0 / double(moves.size());
  }
  if (!moves.empty()) {
    node->children = std::make_unique<Node[]>(moves.size());
    for (size_t i = 0; i < moves.size(); ++i) {
      node->children[i].move = moves[i].point;
      node->children[i].prior = float(moves[i].prior);
    }
    nodes_.fetch_add(int64_t(moves.size()), std::memory_order_relaxed);
  }
  node->num_children = int32_t(moves.size());
  node->state.store(Node::kExpanded, std::memory_order_release);
}

void Search::work(int thread_index) {
  uint64_t x = options_.seed ^ (0xa0761d6478bd642fULL * uint64_t(thread_index + 1));
  KeyScheme playout_scheme;  // the evaluator's, at most 2 levels
  const bool weighted = options_.playout_priors && evaluator_ != nullptr;
  if (weighted) {
    playout_scheme = evaluator_->scheme();
    playout_scheme.levels = std::min(2, playout_scheme.levels);
  }
  Worker w{Rng(splitmix64(x)), Playout(weighted ? evaluator_.get() : nullptr, &playout_scheme), {}, nullptr, {}};
  const int vl = options_.virtual_loss;
  while (started_.fetch_add(1, std::memory_order_relaxed) < options_.iterations) {
    Board b = root_board_;
    Color c = root_color_;
    if (root_tracker_ && !w.tracker) w.tracker = std::make_unique<PatternTracker>(*root_tracker_);
    w.changes.clear();
    w.path.clear();
    Node* node = root_.get();
    w.path.push_back(node);
    for (;;) {
      uint8_t st = node->state.load(std::memory_order_acquire);
      if (st == Node::kLeaf) {
        uint8_t expected = Node::kLeaf;
        if (node->state.compare_exchange_strong(expected, Node::kExpanding, std::memory_order_acq_rel)) {
          expand(node, b, c, w.tracker.get());
          break;  // the playout starts at the node just expanded
        }
        continue;
      }
      if (st == Node::kExpanding) {
        std::this_thread::yield();
        continue;
      }
      if (node->num_children == 0) break;  // no legal move here: playout from it
      int i = select_child(*node, c, vl, options_.explore);
      Node* child = &node->children[size_t(i)];
      child->vloss.fetch_add(1, std::memory_order_relaxed);
      int idx = b.index(child->move);
      b.play(child->move, c, options_.allow_suicide);
      if (w.tracker) {
        w.tracker->after_play(b, idx);
        // Removed stones are the opponent's, or the mover's own on a suicide.
        const Color removed = b.at_index(idx) == Color::Empty ? c : opponent(c);
        w.changes.emplace_back(idx, Color::Empty);
        for (int r : b.last_removed()) w.changes.emplace_back(r, removed);
      }
      c = opponent(c);
      w.path.push_back(child);
      node = child;
    }
    if (w.tracker)
      for (auto it = w.changes.rbegin(); it != w.changes.rend(); ++it) w.tracker->set(it->first, it->second);
    const int result = w.playout.run(b, c, options_.komi, w.rng);
    for (size_t k = 0; k < w.path.size(); ++k) {
      Node* p = w.path[k];
      p->black_wins_x2.fetch_add(result, std::memory_order_relaxed);
      p->n.fetch_add(1, std::memory_order_relaxed);
      if (k > 0) p->vloss.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

SearchResult Search::run(const Board& board, Color to_move) {
  SearchResult r;
  root_ = std::make_unique<Node>();
  root_board_ = board;
  root_color_ = to_move;
  nodes_ = 1;
  started_ = 0;
  root_tracker_.reset();
  if (evaluator_ && !options_.prior_fn) root_tracker_ = std::make_unique<PatternTracker>(tracker_for(board, evaluator_->scheme()));
  root_->state.store(Node::kExpanding);
  expand(root_.get(), root_board_, to_move, root_tracker_.get());
  if (root_->num_children == 0) {
    r.nodes = nodes_;
    return r;
  }
  auto t0 = std::chrono::steady_clock::now();
  const int threads = std::max(1, options_.threads);
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back([this, t] { work(t); });
    for (auto& t : pool) t.join();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.iterations = std::max<int64_t>(0, options_.iterations);
  r.root_visits = root_->n.load();
  r.playouts_per_second = r.seconds > 0 ? double(r.root_visits) / r.seconds : 0;
  r.nodes = nodes_;
  r.has_move = true;
  int best = -1;
  for (int i = 0; i < root_->num_children; ++i) {
    const Node& ch = root_->children[size_t(i)];
    ChildStats s;
    s.move = ch.move;
    s.visits = ch.n.load();
    s.black_wins = ch.black_wins();
    s.prior = ch.prior;
    s.mover = to_move;
    r.children.push_back(s);
    if (best < 0) {
      best = i;
      continue;
    }
    const ChildStats& b = r.children[size_t(best)];
    if (s.visits > b.visits || (s.visits == b.visits && s.prior > b.prior)) best = i;
  }
  r.best = r.children[size_t(best)].move;
  return r;
}

}  // namespace sgfpat::mcts
