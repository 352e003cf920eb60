// Pass 1 of the count made while an import stores the games of a database
// that had none (count/sketch_alongside.h): every core works during the
// import, and the count then starts at its pass 2.  The sketch is sized
// from the inputs (ingest_policy.h), and the run of position index entries
// the import gathers gets what the sketch and its lists leave of the
// counting share of the budget.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "count/recount.h"
#include "count/sketch_alongside.h"
#include "ingest/importer.h"
#include "ingest/ingest_policy.h"
#include "store/pattern_db.h"

namespace sgfpat {

class SketchDuringImport {
 public:
  // Hooks pass 1 into `importer` (which stores into `db`), or returns null
  // when it is not for this run: `db` holds games or counts already, one
  // thread, or (unless `always`) the inputs look too small for it to
  // matter.  `db` and `importer` outlive the result.
  static std::unique_ptr<SketchDuringImport> start(PatternDb* db, Importer* importer,
                                                   const std::vector<std::string>& inputs, const MemorySplit& m,
                                                   int threads, bool always = false);
  // As start(), with a sketch of `sketch_bytes` whatever the inputs, and
  // the kept patterns listed (within the counting share) or not at all.
  static std::unique_ptr<SketchDuringImport> start_sized(PatternDb* db, Importer* importer, const MemorySplit& m,
                                                         int threads, size_t sketch_bytes, bool lists);
  // Once the import is done: sketches what is left and hands the pass to
  // *out, for recount() (CountOptions::sketched).  An error (the pass
  // failed, the import went on without it) means: count as if there had
  // been no pass, which recount() then makes after the import.
  Status finish(SketchedGames* out);
  // Unhooks from the importer.
  ~SketchDuringImport();

 private:
  SketchDuringImport(PatternDb* db, Importer* importer, const MemorySplit& m, int threads, size_t sketch_bytes,
                     bool lists);
  Status stored(std::vector<std::string>&& records);
  // Lowers the run's limit to what the sketch and the lists leave.
  void fit_run();

  PatternDb* db_;
  Importer* importer_;
  MemorySplit memory_;
  PlayedSketch played_;
  std::unique_ptr<PlayedSketcher> sketcher_;
  std::unique_ptr<SketchAlongside> alongside_;
  size_t run_bytes_;  // the run's limit: only ever lowered (raising it would move the run)
  Status error_;      // the first failure of the pass
};

}  // namespace sgfpat
