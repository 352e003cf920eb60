// Read + parse throughput: streams every game of the inputs through
// GameStream and reports games, moves, time, games/s and MB/s (input bytes
// on disk).  Usage: bench_read PATH... (files, directories, archives, -)
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "sgf/game_stream.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PATH...\n", argv[0]);
    return 2;
  }
  std::vector<std::string> inputs(argv + 1, argv + argc);
  auto start = std::chrono::steady_clock::now();
  sgfpat::GameStream stream(inputs);
  sgfpat::Game game;
  sgfpat::Status status;
  uint64_t games = 0, moves = 0, errors = 0, text_bytes = 0;
  while (stream.next(&game, &status)) {
    if (!status.ok()) {
      if (++errors <= 20) std::fprintf(stderr, "%s\n", status.message().c_str());
      continue;
    }
    ++games;
    moves += uint64_t(game.move_count());
    text_bytes += stream.text().size();
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  auto p = stream.progress();
  std::printf("games %llu  moves %llu  errors %llu  files %llu\n", (unsigned long long)games,
              (unsigned long long)moves, (unsigned long long)errors, (unsigned long long)p.files_done);
  std::printf("seconds %.3f  games/s %.0f  input MB/s %.1f  SGF text MB/s %.1f\n", secs, games / secs,
              p.bytes_done / secs / 1e6, text_bytes / secs / 1e6);
  return errors ? 1 : 0;
}
