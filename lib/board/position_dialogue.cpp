#include "board/position_dialogue.h"

#include <istream>
#include <ostream>

#include "io/bounded_text.h"

namespace sgfpat {

namespace {
std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

bool parse_int(const std::string& s, int64_t* v) {
  try {
    size_t used = 0;
    long long x = std::stoll(s, &used);
    if (used != s.size()) return false;
    *v = x;
    return true;
  } catch (...) {
    return false;
  }
}

// Far more than any answer (a board row of 25 points, a name).
constexpr size_t kMaxLine = 64 * 1024;

// Asks on `in`, prompting on `out`.
class Dialogue {
 public:
  Dialogue(std::istream& in, std::ostream& out, bool echo) : in_(in), out_(out), echo_(echo) {}

  // The next non-empty line, without a prompt the user may have pasted with
  // it ("Joueur? Noir").  False at end of input.
  bool ask(const std::string& prompt, std::string* answer, const std::string& continuation = "") {
    out_ << (continuation.empty() ? prompt : continuation) << std::flush;
    std::string line;
    bool too_long = false;  // a line past the bound ends the dialogue (no answer is that long)
    while (read_line_bounded(in_, kMaxLine, &line, &too_long)) {
      std::string t = trim(line);
      if (t.empty()) continue;
      if (!continuation.empty() || prompt.find('?') != std::string::npos || prompt.find(':') != std::string::npos) {
        auto q = t.find_last_of("?:");
        if (q != std::string::npos) t = trim(t.substr(q + 1));
      }
      if (echo_) out_ << t << "\n";
      *answer = t;
      return true;
    }
    if (echo_) out_ << "\n";
    return false;
  }

 private:
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
};
}  // namespace

std::vector<std::string> split_board_rows(const std::string& rows) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : rows + "/") {
    if (ch == '/' || ch == '|' || ch == '\n') {
      if (!trim(cur).empty()) out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  return out;
}

Status read_position_dialogue(const PositionGiven& given, std::istream& in, std::ostream& prompts, bool echo,
                              TextPosition* position, int64_t* budget) {
  Dialogue dlg(in, prompts, echo);
  std::string player = given.player;
  if (player.empty() && !dlg.ask("Joueur? ", &player)) return Status::InvalidInput("no player to move on stdin");
  Color to_move;
  bool french = false;
  if (!parse_player(player, &to_move, &french))
    return Status::InvalidInput("'" + player + "' is not a player (Noir, Blanc, B or W)");
  std::vector<std::string> rows = split_board_rows(given.rows);
  int64_t size = given.size;
  if (size == 0 && !rows.empty()) size = int64_t(rows.size());
  if (size == 0) {
    std::string s;
    if (!dlg.ask("Taille? ", &s) || !parse_int(s, &size)) return Status::InvalidInput("expected a board size");
  }
  if (size < kMinBoardSize || size > kMaxBoardSize)
    return Status::InvalidInput("board size " + std::to_string(size) + " is not from " +
                                std::to_string(kMinBoardSize) + " to " + std::to_string(kMaxBoardSize));
  if (rows.empty()) {
    for (int64_t y = 0; y < size; ++y) {
      std::string row;
      if (!dlg.ask("Goban: ", &row, y == 0 ? "" : "       "))
        return Status::InvalidInput("expected " + std::to_string(size) + " rows, got " + std::to_string(y));
      rows.push_back(row);
    }
  }
  if (int64_t(rows.size()) != size)
    return Status::InvalidInput("expected " + std::to_string(size) + " rows, got " + std::to_string(rows.size()));
  if (given.budget_wanted) {
    *budget = given.budget;
    if (*budget <= 0) {
      std::string s;
      if (!dlg.ask("Budget d'itérations? ", &s) || !parse_int(s, budget) || *budget <= 0)
        return Status::InvalidInput("expected a positive iteration budget");
    }
  }
  std::string text = player + "\n" + std::to_string(size) + "\n";
  for (const std::string& r : rows) text += r + "\n";
  return parse_position_text(text, position);
}

}  // namespace sgfpat
