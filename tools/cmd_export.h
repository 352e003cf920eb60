// The formats of `sgfpat export`; cmd_export.cpp parses the options and
// calls one of these with a database opened read-only.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "count/catchup.h"
#include "priors/priors_writer.h"
#include "store/pattern_db.h"

namespace sgfpat::cli {

// The spec's TSV (header, then level key played seen wins pattern for every
// reported pattern) to `out_path` ("-": stdout).  Summary on stderr, or as
// JSON when `json` (on stdout, or stderr when the TSV goes to stdout).
// Returns an exit code (commands.h).
// `pending`: the patterns that wait for a catch-up, said in the summary.
int export_tsv(PatternDb& db, const std::string& out_path, bool json, const PendingSummary& pending);

// The binary priors file (priors/sgfpat_priors.h) to `out_path`, with the
// thresholds of `options`.  Returns an exit code.
int export_priors(PatternDb& db, const std::string& out_path, const PriorsExportOptions& options, bool json,
                  const PendingSummary& pending);

// The pending patterns in a summary: "pending_patterns" and "pending_since"
// (ISO 8601, UTC; null when none); and a line for people (empty when none).
void add_pending_json(const PendingSummary& pending, nlohmann::ordered_json* j);
void add_pending_json(const PendingSummary& pending, nlohmann::json* j);
std::string pending_text(const PendingSummary& pending);

}  // namespace sgfpat::cli
