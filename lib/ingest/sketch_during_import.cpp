#include "ingest/sketch_during_import.h"

#include <chrono>

#include "count/count_budget.h"
#include "io/input_list.h"

namespace sgfpat {

std::unique_ptr<SketchDuringImport> SketchDuringImport::start(PatternDb* db, Importer* importer,
                                                              const std::vector<std::string>& inputs,
                                                              const MemorySplit& m, int threads, bool always) {
  const DbSettings& settings = db->settings();
  const size_t bytes =
      sketch_alongside_bytes(expand_inputs(inputs), m, settings.scheme.levels, settings.min_played, always);
  if (bytes == 0) return nullptr;
  return start_sized(db, importer, m, threads, bytes, true);
}

std::unique_ptr<SketchDuringImport> SketchDuringImport::start_sized(PatternDb* db, Importer* importer,
                                                                    const MemorySplit& m, int threads,
                                                                    size_t sketch_bytes, bool lists) {
  // The pass must cover exactly the stored games: only those this import stores.
  if (threads < 2 || db->game_count() != 0 || db->generation() != 0) return nullptr;
  // The sketch and the smallest run of position index entries must fit
  // the counting share together (the plan of a shard step may leave less).
  if (sketch_bytes + position_run_room(m, sketch_bytes, m.count_bytes) > m.count_bytes) return nullptr;
  try {
    std::unique_ptr<SketchDuringImport> s(
        new SketchDuringImport(db, importer, m, threads, sketch_bytes, lists));
    SketchDuringImport* self = s.get();
    importer->on_stored([self](std::vector<std::string>&& records) { return self->stored(std::move(records)); });
    return s;
  } catch (...) {  // no memory for the sketch, no thread: pass 1 after the import
    return nullptr;
  }
}

SketchDuringImport::SketchDuringImport(PatternDb* db, Importer* importer, const MemorySplit& m, int threads,
                                       size_t sketch_bytes, bool lists)
    : db_(db), importer_(importer), memory_(m), run_bytes_(m.position_run_bytes) {
  const DbSettings& settings = db->settings();
  played_ = new_played_sketch(sketch_bytes, settings.min_played);
  sketcher_ = std::make_unique<PlayedSketcher>(settings.scheme, played_.sketch.get(), unsigned(settings.min_played),
                                               lists ? CountBudget(m.count_bytes).pass1_list_bytes(played_.sketch->bytes()) : 0);
  alongside_ = std::make_unique<SketchAlongside>(sketcher_.get(), threads);
  fit_run();
}

SketchDuringImport::~SketchDuringImport() {
  if (importer_) importer_->on_stored(nullptr);
}

void SketchDuringImport::fit_run() {
  const size_t room = position_run_room(memory_, played_.sketch->bytes(), sketcher_->list_bytes());
  if (room < run_bytes_) db_->set_position_run_bytes(run_bytes_ = room);
}

Status SketchDuringImport::stored(std::vector<std::string>&& records) {
  // The pass only saves time: when it fails, the import goes on, and the
  // count makes pass 1 after it (finish() says why).
  if (!error_.ok()) return Status::OK();
  try {
    fit_run();  // the lists grow with the games: the run gets what they leave
    error_ = alongside_->add(std::move(records));
  } catch (...) {
    error_ = status_from_exception("sketching played patterns during the import");
  }
  return Status::OK();
}

Status SketchDuringImport::finish(SketchedGames* out) {
  const auto t0 = std::chrono::steady_clock::now();
  importer_->on_stored(nullptr);
  importer_ = nullptr;
  if (!error_.ok()) return error_;
  Status s = alongside_->finish();
  if (!s.ok()) return s;
  sketcher_->finish(&out->pass);
  played_.items = out->pass.items;
  out->played = std::move(played_);
  out->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return Status::OK();
}

}  // namespace sgfpat
