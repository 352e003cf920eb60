// Reading SGF inputs into an Importer: the loop `ingest` and the shard
// import step share, so that both store exactly the same games.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
#include "ingest/importer.h"
#include "io/game_text_reader.h"

namespace sgfpat {

struct InputCallbacks {
  // A problem worth showing: an unreadable input, a record that does not
  // parse, a rejected or filtered game (the message names file and game).
  std::function<void(const std::string&)> report;
  // After every 256 games read.
  std::function<void(const ImportStats&, const ReadProgress&)> progress;
};

// Offers every game of `inputs`, in order, to `importer`, then writes its
// last batch.  Problems of the input are counted (*input_errors: inputs or
// records that could not be read) and reported, never fatal; a non-ok
// Status means the database failed.
Status import_inputs(const std::vector<std::string>& inputs, Importer* importer, const InputCallbacks& callbacks,
                     uint64_t* input_errors);

}  // namespace sgfpat
