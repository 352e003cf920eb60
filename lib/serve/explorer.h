// The explorer of `sgfpat serve`: for the position a page shows, the
// priors of every legal move (the heat map: `sgfpat eval --json`'s numbers),
// the counts of the pattern around a point at every level (`sgfpat query
// --json`'s), the stored positions equal or nearest to it with their
// continuations (`sgfpat similar --json`'s), and a stored game to open.
// Each answer comes from the library code the commands use.  The database
// is opened read-only (a RocksDB secondary instance, which works while an
// ingest writes it) and opened again when older than refresh_seconds, so
// that a new count shows up.  Thread-safe.
#pragma once
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "core/status.h"
#include "eval/evaluator.h"
#include "priors/sgfpat_priors.h"
#include "serve/limits.h"
#include "serve/protocol.h"
#include "sgf/game.h"
#include "store/pattern_db.h"

namespace sgfpat::serve {

struct ExplorerOptions {
  std::string db_path;                              // "" : no database
  const sgfpat_priors::Priors* priors = nullptr;    // null: no priors; must outlive the explorer
  EvalOptions eval;
  int refresh_seconds = 60;
  ServeLimits limits;
};

class Explorer {
 public:
  explicit Explorer(ExplorerOptions options);
  ~Explorer();
  // Opens the database (when there is one) so that a wrong path is said at
  // start.
  Status open();

  bool has_db() const { return !options_.db_path.empty(); }
  bool has_priors() const { return options_.priors != nullptr; }
  // What pages may ask: {"db", "priors", "estimator", "position_index"}.
  Json capabilities();

  // `line` is a page's record (protocol.h read_line), `at` its position
  // (-1: after every move).  Each fills the answer's fields (not "t"/"id").
  // {to_move, size, estimator, legal_moves, moves: [...]} as eval --json.
  Status heatmap(const Game& line, int at, Json* out) const;
  // {point, point_sgf, to_move, after_move, legal, levels: [...],
  // largest_level, diamond: [points of the largest level's diamond]}.
  Status pattern(const Game& line, int at, Point p, Json* out);
  // {search: exact|nearest, to_move, hits_total, continuations, hits}.
  Status similar(const Game& line, int at, bool exact, int k, Json* out);
  // A stored game by the 16 hex digits a hit names: {size, info, setup,
  // moves, sgf}.
  Status stored_game(const std::string& game_hex, Json* out);

 private:
  // The database, opened again when older than refresh_seconds.
  Status db(std::shared_ptr<PatternDb>* out);

  ExplorerOptions options_;
  std::unique_ptr<Evaluator> evaluator_;
  std::mutex db_mu_;
  std::shared_ptr<PatternDb> db_;
  std::chrono::steady_clock::time_point db_opened_;
};

}  // namespace sgfpat::serve
