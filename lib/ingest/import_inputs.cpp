#include "ingest/import_inputs.h"

#include "sgf/game_stream.h"

namespace sgfpat {

Status import_inputs(const std::vector<std::string>& inputs, Importer* importer, const InputCallbacks& cb,
                     uint64_t* input_errors) {
  *input_errors = 0;
  auto report = [&](const std::string& msg) {
    if (cb.report) cb.report(msg);
  };
  if (!inputs.empty()) {
    GameStream stream(inputs);
    Game game;
    Status st;
    while (stream.next(&game, &st)) {
      if (!st.ok()) {
        if (stream.input_error()) {
          ++*input_errors;
          report(st.message());
          if (stream.game_lost()) importer->count_unreadable("unreadable record");
        } else {
          importer->count_unreadable("parse error");
          report(st.message());
        }
      } else {
        std::string problem;
        AddOutcome outcome;
        Status s = importer->add(game, &outcome, &problem);
        if (!s.ok()) return s;
        if (outcome == AddOutcome::Rejected) report(game.origin.describe() + ": " + problem);
      }
      if (cb.progress && importer->stats().games_read % 256 == 0) cb.progress(importer->stats(), stream.progress());
    }
  }
  return importer->finish();
}

}  // namespace sgfpat
