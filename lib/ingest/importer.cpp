#include "ingest/importer.h"

#include <cstring>

#include "board/replay.h"
#include "core/fail_point.h"
#include "search/position_index.h"

namespace sgfpat {

size_t Importer::FpHash::operator()(const Fingerprint& f) const {
  size_t h;
  std::memcpy(&h, f.data(), sizeof h);
  return h;
}

Importer::Importer(PatternDb* db, GameFilter filter, std::string min_rank_text, size_t batch_games)
    : db_(db), filter_(std::move(filter)), min_rank_text_(std::move(min_rank_text)), batch_games_(batch_games) {}

void Importer::count_unreadable(const std::string& reason) {
  ++stats_.games_read;
  ++stats_.rejected;
  ++stats_.rejected_by_reason[reason];
}

Status Importer::add(const Game& game, AddOutcome* outcome, std::string* problem) {
  problem->clear();
  *outcome = AddOutcome::Stored;
  ++stats_.games_read;
  std::string why = filter_reason(game, filter_, min_rank_text_);
  if (!why.empty()) {
    ++stats_.filtered;
    ++stats_.filtered_by_reason[why];
    *outcome = AddOutcome::Filtered;
    *problem = "skipped: " + why;
    return Status::OK();
  }
  const Fingerprint fp = game_fingerprint(game);
  if (mine_ && !mine_(fp)) {
    ++stats_.elsewhere;
    *outcome = AddOutcome::Elsewhere;
    return Status::OK();
  }
  // One replay both checks the moves and, when the index is kept in step
  // (it is only when complete; else it is built whole), gathers the game's
  // index entries, taken back if the game turns out a duplicate (they would
  // only write its keys again).
  const bool indexed = db_->has_position_index();
  const size_t indexed_before = batch_positions_.size();
  ReplayResult result;
  Status legal;
  if (indexed) {
    legal = position_entries(game, fp, &batch_positions_, &result);
  } else {
    Board board;
    legal = replay(game, &board, &result);
  }
  if (!legal.ok()) {
    ++stats_.rejected;
    *outcome = AddOutcome::Rejected;
    ++stats_.rejected_by_reason[std::string("illegal move: ") + move_error_name(result.illegal)];
    *problem = "illegal record: " + legal.message();
    return Status::OK();
  }
  bool found = in_batch_.count(fp) > 0;
  if (!found) {
    Status s = db_->has_game(fp, &found);
    if (!s.ok()) return s;
  }
  if (found) {
    ++stats_.duplicates;
    *outcome = AddOutcome::Duplicate;
    if (indexed) batch_positions_.resize(indexed_before);
    return Status::OK();
  }
  batch_.emplace_back(fp, encode_game(game));
  in_batch_.insert(fp);
  batch_moves_ += uint64_t(result.moves_played);
  if (batch_.size() >= batch_games_) return write_batch();
  return Status::OK();
}

Status Importer::finish() {
  Status s = write_batch();
  if (!s.ok()) return s;
  return db_->flush_position_index();
}

Status Importer::write_batch() {
  if (batch_.empty()) return Status::OK();
  Status s = db_->add_games(batch_, batch_moves_, batch_positions_);
  if (!s.ok()) return s;
  // Crash tests: a kill with this batch stored and the next not begun.
  fail_point("import.batch_stored");
  stats_.ingested += batch_.size();
  stats_.moves_ingested += batch_moves_;
  if (stored_) {
    std::vector<std::string> records;
    records.reserve(batch_.size());
    for (auto& [fp, record] : batch_) records.push_back(std::move(record));
    s = stored_(std::move(records));
  }
  batch_.clear();
  in_batch_.clear();
  batch_positions_.clear();
  batch_moves_ = 0;
  return s;
}

}  // namespace sgfpat
