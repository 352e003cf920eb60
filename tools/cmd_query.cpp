// sgfpat query: the counts of one pattern, at every zoom level the
// database reports, either spelled around a point of a recorded position or
// given as a pattern string.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "export/pattern_lookup.h"
#include "export/pattern_table.h"
#include "export/rates.h"
#include "export/representatives.h"
#include "export/text_format.h"
#include "game_select.h"
#include "json_text.h"
#include "pattern/pattern_string.h"
#include "progress.h"
#include "render/pattern_picture.h"
#include "render/svg_board.h"
#include "render/svg_file.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

namespace {
struct QueryArgs {
  std::string db;
  std::string sgf;
  int game = 1;
  int move = -1;
  std::string point;
  std::string pattern;
  bool json = false;
  std::string svg;
};

std::string table_text(const std::vector<LevelRow>& rows) {
  std::string t = format_text("%5s %6s %12s %14s %9s  %-21s %12s %9s\n", "level", "points", "played", "seen",
                              "play rate", "(95% Wilson)", "wins", "win rate");
  for (const LevelRow& r : rows) {
    const std::string ci_text = wilson95_text(r.counts.played, r.counts.seen);
    t += format_text("%5d %6d %12s %14s %9s  %-21s %12s %9s\n", r.level, level_points(r.level),
                     with_commas(r.counts.played).c_str(), with_commas(r.counts.seen).c_str(),
                     percent_text(rate(r.counts.played, r.counts.seen)).c_str(), ci_text.c_str(),
                     with_commas(r.counts.wins).c_str(), percent_text(rate(r.counts.wins, r.counts.played)).c_str());
  }
  return t;
}

int run_query(const QueryArgs& a, const CLI::App& cmd) {
  const char* me = "sgfpat query: ";
  const bool from_sgf = !a.sgf.empty();
  const bool from_pattern = cmd.count("--pattern") > 0;
  if (from_sgf == from_pattern) {
    std::cerr << me << "give either --sgf FILE --move N --point P, or --pattern STRING\n";
    return kUsage;
  }
  if (from_sgf && (!cmd.count("--move") || a.point.empty())) {
    std::cerr << me << "--sgf needs --move N (the position after N moves) and --point P (e.g. Q16 or pd)\n";
    return kUsage;
  }
  if (from_pattern && (cmd.count("--move") || cmd.count("--point") || cmd.count("--game"))) {
    std::cerr << me << "--move, --point and --game go with --sgf, not with --pattern\n";
    return kUsage;
  }
  if (from_sgf && a.move < 0) {
    std::cerr << me << "--move must be 0 or more\n";
    return kUsage;
  }
  int given_level = 0;
  if (from_pattern) {
    given_level = pattern_level(a.pattern);
    if (given_level == 0) {
      std::cerr << me << "'" << a.pattern
                << "' is not a pattern string: it must have 2i(i+1) chars (4, 12, 24, 40, ... for level i = 1, 2, "
                   "3, 4, ...), each one of # . O X\n";
      return kBadInput;
    }
  }

  std::unique_ptr<PatternDb> db;
  Status st = PatternDb::OpenReader(a.db, &db);
  if (!st.ok()) {
    return fail(me, st);
  }
  const KeyScheme& scheme = db->settings().scheme;
  const uint64_t min_played = uint64_t(db->settings().min_played);

  // The spelled pattern of every level to look up, level 1 first.
  std::vector<std::string> spelled;
  nlohmann::ordered_json out;
  out["db"] = a.db;
  out["scheme"] = scheme.describe();
  out["min_played"] = min_played;
  std::string heading;
  Board board;         // from --sgf: the position, drawn by --svg
  Point at = kPass;    // and the point asked about
  if (from_sgf) {
    Game game;
    st = load_game(a.sgf, a.game, &game);
    if (!st.ok()) {
      return fail(me, st);
    }
    ReplayResult result;
    st = position_after(game, a.move, &board, &result);
    if (!st.ok()) {
      return fail(me, st);
    }
    Point p;
    if (!parse_point(a.point, board.size(), &p)) {
      std::cerr << me << "--point '" << a.point << "' is not a point of the " << board.size() << "x" << board.size()
                << " board (write it like Q16 or pd)\n";
      return kBadInput;
    }
    const Color mover = result.to_move;
    const char* mover_name = mover == Color::White ? "White" : "Black";
    if (board.at(p) != Color::Empty) {
      std::cerr << me << gtp_name(p, board.size()) << " (" << sgf_name(p) << ") is not empty after move "
                << result.moves_played << ": it holds a " << (board.at(p) == Color::Black ? "black" : "white")
                << " stone\n";
      return kBadInput;
    }
    at = p;
    MoveError legal = board.check(p, mover, game.info.suicide_allowed());
    spelled = spell_levels(board, p, mover, scheme.levels);
    out["game"] = game.origin.describe();
    out["after_move"] = result.moves_played;
    out["to_move"] = mover == Color::White ? "W" : "B";
    out["point"] = gtp_name(p, board.size());
    out["point_sgf"] = sgf_name(p);
    out["legal"] = legal == MoveError::None;
    heading = "Pattern around " + gtp_name(p, board.size()) + " (" + sgf_name(p) + ") for " + mover_name +
              " to move after move " + std::to_string(result.moves_played) + " of " + game.origin.describe();
    if (legal != MoveError::None)
      heading += std::string("\nNote: not a legal move for ") + mover_name + " here (" + move_error_name(legal) +
                 "), so it is never counted as a candidate in such a position";
  } else {
    int top = std::min(given_level, scheme.levels);
    if (given_level > scheme.levels && !a.json)
      std::cerr << me << "note: the pattern has level " << given_level << " but the database counts levels 1.."
                << scheme.levels << "; looking up levels 1.." << top << "\n";
    for (int l = 1; l <= top; ++l) spelled.push_back(a.pattern.substr(0, size_t(level_points(l))));
    out["pattern"] = a.pattern;
    out["pattern_level"] = given_level;
    heading = "Pattern of level " + std::to_string(given_level) + " (" + std::to_string(level_points(given_level)) +
              " points) and its smaller levels";
  }

  // One Get per level; a level is present when played >= min_played.
  std::vector<LevelRow> rows;
  st = lookup_levels(db.get(), spelled, &rows);
  if (!st.ok()) return fail(me, st);
  const int largest = rows.empty() ? 0 : rows.back().level;

  if (!a.svg.empty()) {
    // The largest level present is drawn: around the point on the board,
    // or as the pattern itself (the given one when no level is present).
    SvgOptions so;
    Point centre = at;
    if (from_sgf) {
      so.inside = diamond_mask(board.size(), at, std::max(1, largest));
    } else {
      st = pattern_board(rows.empty() ? a.pattern : rows.back().pattern, &board, &centre, &so.inside);
      if (!st.ok()) return fail(me, st);
    }
    const PatternCounts c = rows.empty() ? PatternCounts{} : rows.back().counts;
    so.marks.push_back({centre, with_commas(c.played), rows.empty() ? "" : percent_text(rate(c.wins, c.played))});
    so.title = "sgfpat query: " + (rows.empty() ? std::string("pattern not found")
                                                : "level " + std::to_string(largest) + ", played " +
                                                      with_commas(c.played) + ", win rate " +
                                                      percent_text(rate(c.wins, c.played)));
    st = write_svg_file(a.svg, board_svg(board, so));
    if (!st.ok()) return fail(me, st);
  }

  if (a.json) {
    out["levels"] = nlohmann::ordered_json::array();
    for (const LevelRow& r : rows) out["levels"].push_back(level_row_json(r));
    out["largest_level"] = largest;
    std::cout << json_text(out, 2) << "\n";
    return kOk;
  }
  std::cout << heading << "\n"
            << "Database " << a.db << " (" << scheme.describe() << ", min_played=" << min_played << ", "
            << with_commas(db->game_count()) << " games)\n\n";
  if (rows.empty()) {
    if (db->generation() == 0)
      std::cout << "Not found: the database has no counts yet (run `sgfpat ingest --db " << a.db << "`).\n";
    else
      std::cout << "Not found: no level of this pattern was played at least " << min_played
                << " times in the database.\n";
    return kOk;
  }
  std::cout << table_text(rows) << "\nLargest level present: " << largest << " (" << level_points(largest)
            << " points). " << (scheme.symmetry ? "Canonical pattern" : "Pattern")
            << ", X = player to move, O = opponent, # = off board, * = the point:\n\n"
            << pattern_diagram(rows.back().pattern);
  return kOk;
}
}  // namespace

Runner register_query(CLI::App& app) {
  auto a = std::make_shared<QueryArgs>();
  auto* cmd = app.add_subcommand("query",
                                 "Counts of one pattern at each zoom level: spelled around a point of a game\n"
                                 "position (--sgf --move --point) or given as a pattern string (--pattern)");
  cmd->add_option("--db", a->db, "Pattern database directory")->required();
  cmd->add_option("--sgf", a->sgf, "SGF input holding the game (file, compressed file, archive, - for stdin)");
  cmd->add_option("--game,-g", a->game, "Game number in the SGF input, from 1")->capture_default_str();
  cmd->add_option("--move,-m", a->move, "The position after this many moves (0: the start)");
  cmd->add_option("--point,-p", a->point, "The empty point to look at: GTP (Q16) or SGF (pd)");
  cmd->add_option("--pattern", a->pattern,
                  "A pattern string (spec point order, chars # . O X, X = player to move), canonical or not");
  cmd->add_flag("--json", a->json, "Print one JSON object");
  cmd->add_option("--svg", a->svg,
                  "Also draw the largest level present to this SVG file: the board with the diamond lit and the "
                  "point marked with its played count and win rate (--sgf), or the pattern itself (--pattern)");
  return [a, cmd]() { return run_query(*a, *cmd); };
}

}  // namespace sgfpat::cli
