#include "mcts/mcts.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

#include "core/tasks.h"
#include "pattern/tracker.h"

namespace sgfpat::mcts {

// --- tree policies ---

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

const char* tree_policy_name(TreePolicy p) { return p == TreePolicy::Seed ? "seed" : "puct-rave"; }

bool parse_tree_policy(const std::string& name, TreePolicy* out) {
  if (name == "puct-rave") *out = TreePolicy::PuctRave;
  else if (name == "seed") *out = TreePolicy::Seed;
  else return false;
  return true;
}

double puct_rave_value(const Node& ch, Color mover, double parent_n, double c_puct, double rave_equiv,
                       int virtual_loss) {
  const double vl = double(ch.vloss.load(std::memory_order_relaxed)) * virtual_loss;
  const double n = double(ch.n.load(std::memory_order_relaxed)) + vl;
  double bw = ch.black_wins_x2.load(std::memory_order_relaxed) / 2.0;
  if (mover == Color::White) bw += vl;  // a virtual loss: a win for the other side
  const double wins = mover == Color::White ? n - bw : bw;
  double q;
  const double m = rave_equiv > 0 ? double(ch.amaf_n.load(std::memory_order_relaxed)) : 0;
  if (n <= 0 && m <= 0) {
    q = 0.5;  // nothing known: an even chance
  } else {
    const double qn = n > 0 ? std::clamp(wins / n, 0.0, 1.0) : 0;
    double qa = 0;
    if (m > 0) {
      const double abw = ch.amaf_black_wins_x2.load(std::memory_order_relaxed) / 2.0;
      qa = (mover == Color::White ? m - abw : abw) / m;
    }
    const double beta = m > 0 ? m / (m + n + n * m / rave_equiv) : 0;
    q = (1 - beta) * qn + beta * qa;
  }
  return q + c_puct * ch.prior * std::sqrt(std::max(1.0, parent_n)) / (1 + n);
}

int select_child_puct_rave(const Node& parent, Color mover, double c_puct, double rave_equiv, int virtual_loss) {
  int best = -1;
  double best_value = 0;
  const double parent_n = parent.n.load(std::memory_order_relaxed) + parent.vloss.load(std::memory_order_relaxed);
  for (int i = 0; i < parent.num_children; ++i) {
    const Node& ch = parent.children[size_t(i)];
    const double value = puct_rave_value(ch, mover, parent_n, c_puct, rave_equiv, virtual_loss);
    if (best < 0 || value > best_value) {
      best = i;
      best_value = value;
    }
  }
  return best;
}

double ChildStats::mover_win_rate() const {
  if (visits <= 0) return 0;
  double w = mover == Color::White ? double(visits) - black_wins : black_wins;
  return w / double(visits);
}

// --- the search ---

struct Search::Worker {
  Worker(uint64_t seed, Playout p) : rng(seed), playout(std::move(p)) {}
  Rng rng;
  Playout playout;
  std::vector<Node*> path;
  // In step with the iteration's board: a copy of the root's tracker, put
  // back after each iteration by undoing the recorded changes (cheaper than
  // copying it anew).
  std::unique_ptr<PatternTracker> tracker;
  std::vector<std::pair<int, Color>> changes;  // (index, color before)
  std::array<uint8_t, Board::kMaxIndex> first_mover{};
  Owners owners{};
  std::vector<int32_t> black_owned, white_owned;  // per index
};

Search::Search(const sgfpat_priors::Priors* priors, EvalOptions eval_options, SearchOptions options)
    : priors_(priors), options_(std::move(options)) {
  if (priors_ && priors_->is_open()) evaluator_ = std::make_unique<Evaluator>(*priors_, eval_options);
}

Search::~Search() = default;

void Search::clear_tree() { root_.reset(); }

int64_t Search::max_nodes() const {
  return options_.max_tree_mb > 0 ? options_.max_tree_mb * (int64_t(1) << 20) / int64_t(sizeof(Node)) : 0;
}

void Search::compute_priors(const Board& board, Color mover, const PatternTracker* tracker,
                            std::vector<MovePrior>* out) const {
  std::vector<MovePrior>& moves = *out;
  moves.clear();
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
  bool renormalize = false;
  if (options_.skip_own_eyes) {
    std::erase_if(moves, [&](const MovePrior& m) { return is_own_eye(board, board.index(m.point), mover); });
    renormalize = true;
  }
  if (options_.policy == TreePolicy::PuctRave && options_.prior_heuristics) {
    // A floor keeps moves the priors never saw in reach of the search.
    const double floor = moves.empty() ? 0 : 0.1 / double(moves.size());
    for (MovePrior& m : moves) m.prior = (m.prior + floor) * tactical_factor(board, board.index(m.point), mover);
    renormalize = true;
  }
  if (renormalize) {
    double total = 0;
    for (const MovePrior& m : moves) total += m.prior;
    for (MovePrior& m : moves) m.prior = total > 0 ? m.prior / total : 1.0 / double(moves.size());
  }
}

std::vector<MovePrior> Search::priors_of(const Board& board, Color mover) const {
  std::vector<MovePrior> moves;
  std::unique_ptr<PatternTracker> tracker;
  if (evaluator_ && !options_.prior_fn) tracker = std::make_unique<PatternTracker>(tracker_for(board, evaluator_->scheme()));
  compute_priors(board, mover, tracker.get(), &moves);
  return moves;
}

void Search::expand(Node* node, const Board& board, Color mover, const PatternTracker* tracker) {
  std::vector<MovePrior> moves;
  compute_priors(board, mover, tracker, &moves);
  // A pass, last, with a small prior: without it a node whose moves are
  // all bad (a seki's liberties, the last liberties of a race) is forced
  // to play one, and the end of a lost game looks won by the forced blunders
  // of the other side.  A mover with no move at all keeps no child (the
  // playout from the node passes).
  if (!moves.empty() && passes_in_tree()) moves.push_back({kPass, 0.1 / double(moves.size())});
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

bool Search::should_stop(int64_t started) {
  if (options_.max_seconds > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count() >= options_.max_seconds)
    return true;
  if (options_.early_stop && root_->num_children > 1) {
    int32_t first = 0, second = 0;
    for (int i = 0; i < root_->num_children; ++i) {
      int32_t n = root_->children[size_t(i)].n.load(std::memory_order_relaxed);
      if (n > first) {
        second = first;
        first = n;
      } else if (n > second) {
        second = n;
      }
    }
    if (first - second > options_.iterations - started) return true;
  }
  return false;
}

void Search::work(int thread_index, Worker& w) {
  (void)thread_index;
  const int vl = options_.virtual_loss;
  const bool rave = options_.policy == TreePolicy::PuctRave && options_.rave_equiv > 0;
  const int64_t node_cap = max_nodes();
  const int size = root_board_.size();
  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) break;
    const int64_t i = started_.fetch_add(1, std::memory_order_relaxed);
    if (i >= options_.iterations) break;
    if ((i & 15) == 0 && should_stop(i)) {
      stop_.store(true, std::memory_order_relaxed);
      break;
    }
    Board b = root_board_;
    Color c = root_color_;
    int last = root_last_;
    if (root_tracker_ && !w.tracker) w.tracker = std::make_unique<PatternTracker>(*root_tracker_);
    w.changes.clear();
    w.path.clear();
    Node* node = root_.get();
    w.path.push_back(node);
    for (;;) {
      uint8_t st = node->state.load(std::memory_order_acquire);
      if (st == Node::kLeaf) {
        const bool grown = node->n.load(std::memory_order_relaxed) + 1 >= options_.expand_visits;
        const bool room = node_cap <= 0 || nodes_.load(std::memory_order_relaxed) < node_cap;
        if (!grown || !room) break;  // the playout starts at this leaf
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
      int k = options_.policy == TreePolicy::Seed
                  ? select_child(*node, c, vl, options_.explore)
                  : select_child_puct_rave(*node, c, options_.c_puct, options_.rave_equiv, vl);
      Node* child = &node->children[size_t(k)];
      child->vloss.fetch_add(1, std::memory_order_relaxed);
      if (child->move.is_pass()) {
        b.pass();
        const bool second = last < 0 && w.path.size() > 1;  // the previous move of the path passed too
        last = -1;
        c = opponent(c);
        w.path.push_back(child);
        node = child;
        // Two passes end the game in the tree; the playout from here settles
        // the dead stones (it plays on until it passes twice itself).
        if (second) break;
        continue;
      }
      int idx = b.index(child->move);
      b.play(child->move, c, options_.allow_suicide);
      last = idx;
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
    if (rave) w.first_mover.fill(0);
    const int result =
        w.playout.run(b, c, last, options_.komi, w.rng, &w.owners, rave ? &w.first_mover : nullptr);
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const int idx = (y + 1) * (size + 2) + x + 1;
        const uint8_t o = w.owners[size_t(idx)];
        if (o == uint8_t(Color::Black)) ++w.black_owned[size_t(y * size + x)];
        else if (o == uint8_t(Color::White)) ++w.white_owned[size_t(y * size + x)];
      }
    // Back up from the leaf; on the way the moves of the path are entered
    // in the first-mover map, so that at each node it holds the moves
    // played after it (the shallower overriding the deeper).
    for (size_t k = w.path.size(); k-- > 0;) {
      Node* p = w.path[k];
      p->black_wins_x2.fetch_add(result, std::memory_order_relaxed);
      p->n.fetch_add(1, std::memory_order_relaxed);
      if (k > 0) p->vloss.fetch_sub(1, std::memory_order_relaxed);
      const Color mover = (k % 2 == 0) ? root_color_ : opponent(root_color_);
      if (rave && p->state.load(std::memory_order_acquire) == Node::kExpanded) {
        for (int j = 0; j < p->num_children; ++j) {
          Node& ch = p->children[size_t(j)];
          if (ch.move.is_pass()) continue;
          if (w.first_mover[size_t(root_board_.index(ch.move))] == uint8_t(mover)) {
            ch.amaf_n.fetch_add(1, std::memory_order_relaxed);
            ch.amaf_black_wins_x2.fetch_add(result, std::memory_order_relaxed);
          }
        }
      }
      if (rave && k > 0 && !p->move.is_pass()) w.first_mover[size_t(root_board_.index(p->move))] = uint8_t(opponent(mover));
    }
    done_.fetch_add(1, std::memory_order_relaxed);
  }
}

namespace {
int64_t count_nodes(const Node& n) {
  int64_t c = 1;
  if (n.state.load() == Node::kExpanded)
    for (int i = 0; i < n.num_children; ++i) c += count_nodes(n.children[size_t(i)]);
  return c;
}

const Node* find_child(const Node& parent, Point move) {
  if (parent.state.load() != Node::kExpanded) return nullptr;
  for (int i = 0; i < parent.num_children; ++i)
    if (parent.children[size_t(i)].move == move) return &parent.children[size_t(i)];
  return nullptr;
}

bool same_position(const Board& a, const Board& b) {
  return a.size() == b.size() && a.hash() == b.hash() && a.ko_index() == b.ko_index();
}
}  // namespace

// The new position follows the last root by one move of the root's mover,
// or by one move of each side (the usual genmove, play, genmove): the
// subtree of that line becomes the root.  Passes are not in the tree.
bool Search::try_reuse(const Board& board, Color to_move) {
  if (!root_ || root_->state.load() != Node::kExpanded || board.size() != root_board_.size()) return false;
  std::vector<Point> mine, theirs;  // stones new since the last root
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      Point p{int8_t(x), int8_t(y)};
      if (root_board_.at(p) != Color::Empty || board.at(p) == Color::Empty) continue;
      (board.at(p) == root_color_ ? mine : theirs).push_back(p);
    }
  const Node* target = nullptr;
  if (mine.size() != 1) return false;
  const Node* a = find_child(*root_, mine[0]);
  if (!a) return false;
  Board after = root_board_;
  after.play(mine[0], root_color_, options_.allow_suicide);
  if (to_move == opponent(root_color_) && theirs.empty()) {
    if (same_position(after, board)) target = a;
  } else if (to_move == root_color_ && theirs.size() == 1) {
    const Node* g = find_child(*a, theirs[0]);
    if (g) {
      after.play(theirs[0], opponent(root_color_), options_.allow_suicide);
      if (same_position(after, board)) target = g;
    }
  }
  if (!target || target->state.load() != Node::kExpanded) return false;
  auto fresh = std::make_unique<Node>();
  Node* t = const_cast<Node*>(target);
  fresh->n = t->n.load();
  fresh->black_wins_x2 = t->black_wins_x2.load();
  fresh->num_children = t->num_children;
  fresh->children = std::move(t->children);
  fresh->state = Node::kExpanded;
  root_ = std::move(fresh);
  nodes_ = count_nodes(*root_);
  return true;
}

SearchResult Search::run(const Board& board, Color to_move, Point last_move) {
  SearchResult r;
  t0_ = std::chrono::steady_clock::now();
  const bool reused = options_.reuse_tree && try_reuse(board, to_move);
  if (!reused) {
    root_ = std::make_unique<Node>();
    nodes_ = 1;
  }
  root_board_ = board;
  root_color_ = to_move;
  root_last_ = last_move.is_pass() ? -1 : board.index(last_move);
  started_ = 0;
  done_ = 0;
  stop_ = false;
  root_tracker_.reset();
  if (evaluator_ && !options_.prior_fn)
    root_tracker_ = std::make_unique<PatternTracker>(tracker_for(board, evaluator_->scheme()));
  if (root_->state.load() != Node::kExpanded) {
    root_->state.store(Node::kExpanding);
    expand(root_.get(), root_board_, to_move, root_tracker_.get());
  }
  if (root_->num_children == 0) {
    r.nodes = nodes_;
    return r;
  }
  r.reused_visits = root_->n.load();
  const int threads = std::max(1, options_.threads);
  KeyScheme playout_scheme;
  const bool weighted = options_.playout_priors && evaluator_ != nullptr;
  if (weighted) {
    playout_scheme = evaluator_->scheme();
    playout_scheme.levels = std::min(2, playout_scheme.levels);
  }
  PlayoutOptions po;
  po.tactics = options_.playout_tactics;
  po.pattern_probability = options_.playout_patterns;
  std::vector<std::unique_ptr<Worker>> workers;
  const size_t points = size_t(board.size()) * size_t(board.size());
  for (int t = 0; t < threads; ++t) {
    uint64_t x = options_.seed ^ (0xa0761d6478bd642fULL * uint64_t(t + 1));
    workers.push_back(std::make_unique<Worker>(splitmix64(x), Playout(po, weighted ? evaluator_.get() : nullptr, &playout_scheme)));
    workers.back()->black_owned.assign(points, 0);
    workers.back()->white_owned.assign(points, 0);
  }
  if (threads == 1) {
    work(0, *workers[0]);
  } else {
    run_on_threads(threads, [this, &workers](int t) { work(t, *workers[size_t(t)]); });
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  r.iterations = done_.load();
  r.root_visits = root_->n.load();
  r.playouts_per_second = r.seconds > 0 ? double(r.iterations) / r.seconds : 0;
  r.nodes = nodes_;
  r.tree_full = max_nodes() > 0 && r.nodes >= max_nodes();
  r.has_move = true;
  const double rv = double(std::max<int64_t>(1, r.root_visits));
  const double black = root_->black_wins() / rv;
  r.win_rate = to_move == Color::White ? 1 - black : black;
  r.black_owned.assign(points, 0);
  r.white_owned.assign(points, 0);
  const double runs = double(std::max<int64_t>(1, r.iterations));
  for (const auto& w : workers)
    for (size_t p = 0; p < points; ++p) {
      r.black_owned[p] += float(w->black_owned[p] / runs);
      r.white_owned[p] += float(w->white_owned[p] / runs);
    }
  int best = -1;
  for (int i = 0; i < root_->num_children; ++i) {
    const Node& ch = root_->children[size_t(i)];
    ChildStats s;
    s.move = ch.move;
    s.visits = ch.n.load();
    s.black_wins = ch.black_wins();
    s.prior = ch.prior;
    s.amaf_visits = ch.amaf_n.load();
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
