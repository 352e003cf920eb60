// sgfpat board: the position of a recorded game after N moves.
#include <iostream>

#include "board_text.h"
#include "commands.h"
#include "game_select.h"
#include "play/game_state.h"
#include "render/svg_board.h"
#include "render/svg_file.h"

namespace sgfpat::cli {

Runner register_board(CLI::App& app) {
  struct Args {
    std::string file;
    int game = 1;
    int move = -1;
    std::string format = "pretty";
    std::string svg;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("board", "Print the position of a game record after N moves");
  cmd->add_option("file", args->file, "SGF input (file, compressed file, archive, or - for stdin)")->required();
  cmd->add_option("--game,-g", args->game, "Game number in the input, from 1")->capture_default_str();
  cmd->add_option("--move,-m", args->move, "Position after this many moves (default: after the last)");
  cmd->add_option("--format,-f", args->format, "pretty (for people) or text (spec rows of . X O)")
      ->check(CLI::IsMember({"pretty", "text"}))
      ->capture_default_str();
  cmd->add_option("--svg", args->svg, "Also draw the position (stones, coordinates, last move) to this SVG file");
  return [args]() -> int {
    Game game;
    Status st = load_game(args->file, args->game, &game);
    if (!st.ok()) {
      return fail("sgfpat board: ", st);
    }
    Board board;
    ReplayResult result;
    st = position_after(game, args->move, &board, &result);
    if (!st.ok()) {
      return fail("sgfpat board: ", st);
    }
    Point last = kPass;
    int seen = 0;
    for (const Action& a : game.actions)
      if (a.kind == Action::Kind::Play && seen++ < result.moves_played) last = a.point;
    if (!args->svg.empty()) {
      SvgOptions so;
      so.last = last;
      so.title = game.origin.describe() + " after move " + std::to_string(result.moves_played);
      st = write_svg_file(args->svg, board_svg(board, so));
      if (!st.ok()) return fail("sgfpat board: ", st);
    }
    if (args->format == "text") {
      std::cout << board_text(board);
      return kOk;
    }
    std::cout << board_pretty(board, last);
    std::cout << "Game: " << game.origin.describe();
    if (!game.info.black_name.empty() || !game.info.white_name.empty())
      std::cout << "  (B " << game.info.black_name << " vs W " << game.info.white_name << ")";
    std::cout << "\nAfter move " << result.moves_played << " of " << game.move_count();
    if (result.moves_played > 0) std::cout << ", last move " << gtp_name(last, board.size());
    std::cout << "\nCaptured: by Black " << board.captures(Color::Black) << ", by White "
              << board.captures(Color::White) << "\n"
              << "To move: " << (result.to_move == Color::White ? "White" : "Black") << "\n";
    // The area count of the position as it stands (dead stones are not
    // removed: a game played out to two passes has none left).
    const GameResult area = area_result(board, game.info.komi);
    std::cout << "Area score (stones and surrounded points): Black " << area.area.black << ", White "
              << area.area.white << ", komi " << game.info.komi << ": " << area.sgf_result() << "\n";
    if (result.superko_repeats > 0)
      std::cout << "Note: " << result.superko_repeats << " move(s) repeated an earlier position (superko)\n";
    return kOk;
  };
}

}  // namespace sgfpat::cli
