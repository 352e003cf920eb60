// sgfpat shard STEP: counting a corpus in shards on several machines (or
// processes) sharing a file system, exactly.  The logic is in
// lib/shard/shard_steps.h; this file parses flags, runs one step, prints.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "commands.h"
#include "count_flags.h"
#include "count/played_sketch_file.h"
#include "flag_checks.h"
#include "ingest/ingest_policy.h"
#include "json_text.h"
#include "process_stats.h"
#include "progress.h"
#include "count/part_range.h"
#include "shard/count_step.h"
#include "shard/shard_steps.h"

namespace sgfpat::cli {

namespace {
struct ShardArgs {
  std::string work;
  int shard = -1;
  std::string db;
  int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  int memory_mb = 2048;
  bool json = false;
  bool quiet = false;
  bool progress_lines = false;
  int max_errors_shown = 20;
  int merge_fan_in = ShardRunOptions{}.merge_fan_in;
  // plan
  int shards = 0;
  std::vector<std::string> inputs;
  CountFlags count;
  int sketch_mb = 512;
  // count
  std::string part = "1/1";
};

// "P/Q" with 1 <= P <= Q <= 64.
bool parse_part(const std::string& text, int* p, int* q) {
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d/%d%c", p, q, &tail) != 2) return false;
  return *p >= 1 && *p <= *q && *q <= kPartBuckets;
}

const char* const kMe = "sgfpat shard: ";

int run_plan(const ShardArgs& a) {
  ShardPlan plan;
  plan.shards = a.shards;
  plan.settings = a.count.settings();
  plan.min_rank = a.count.min_rank;
  Status st = a.count.filter(&plan.filter);
  if (!st.ok()) return fail(kMe, st);
  // The size every shard's sketch has (they are summed cell by cell).
  plan.sketch_bytes = CountMinSketch(size_t(a.sketch_mb) << 20, plan.settings.min_played).bytes();
  // Every shard reads every input, maybe from another folder: absolute paths.
  for (const std::string& in : a.inputs) {
    if (in == "-") {
      std::cerr << kMe << "stdin cannot be an input of a sharded count (every shard reads every input)\n";
      return kUsage;
    }
    std::error_code ec;
    if (!std::filesystem::exists(in, ec)) {
      std::cerr << kMe << "input " << in << " does not exist\n";
      return kBadInput;
    }
    plan.inputs.push_back(std::filesystem::absolute(in).lexically_normal().string());
  }
  st = write_plan(a.work, plan);
  if (!st.ok()) return fail(kMe, st);
  if (a.json) {
    nlohmann::ordered_json j;
    j["step"] = "plan";
    j["work"] = a.work;
    j["shards"] = plan.shards;
    j["inputs"] = plan.inputs.size();
    j["sketch_bytes"] = plan.sketch_bytes;
    std::cout << json_text(j) << "\n";
  } else if (!a.quiet) {
    std::cout << "plan: " << plan.shards << " shards of " << plan.inputs.size() << " input(s) in " << a.work
              << " (" << plan.settings.scheme.describe() << " min_played=" << plan.settings.min_played
              << ", sketch " << bytes_text(plan.sketch_bytes) << ")\n";
  }
  return kOk;
}

int run_step(const std::string& step, const ShardArgs& a) {
  ShardPlan plan;
  Status st = read_plan(a.work, &plan);
  if (!st.ok()) return fail(kMe, st);
  const ShardPaths paths{a.work};
  ProgressLine progress(a.progress_lines ? ProgressLine::Mode::kLines : ProgressLine::Mode::kTerminalOnly);
  const std::string who = step + (a.shard >= 0 ? " " + std::to_string(a.shard) : std::string()) +
                          (step == "count" && a.part != "1/1" ? " part " + a.part : std::string());
  ShardRunOptions options;
  options.threads = a.threads;
  options.memory_budget = size_t(a.memory_mb) << 20;
  options.merge_fan_in = a.merge_fan_in;
  if (!parse_part(a.part, &options.part, &options.parts)) {
    std::cerr << kMe << "--part " << a.part << ": want P/Q with 1 <= P <= Q <= " << kPartBuckets << "\n";
    return kUsage;
  }
  std::string part_label;  // "(part i of n) " while a count runs in parts
  options.progress = [&](uint64_t games) {
    progress.update(who + ": " + part_label + with_commas(games) + " games");
  };
  options.on_part = [&](int part, int parts) {
    part_label = parts > 1 ? "(part " + std::to_string(part) + " of " + std::to_string(parts) + ") " : "";
  };
  ShardStepReport r;
  uint64_t shown = 0;
  if (step == "import") {
    InputCallbacks cb;
    cb.report = [&](const std::string& msg) {
      if (a.quiet || shown++ >= uint64_t(a.max_errors_shown)) return;
      progress.finish();
      std::cerr << kMe << who << ": " << msg << "\n";
    };
    cb.progress = [&](const ImportStats& is, const ReadProgress&) {
      progress.update(who + ": read " + with_commas(is.games_read) + " games, stored " +
                      with_commas(is.ingested) + " (this shard's)");
    };
    st = import_shard(paths, plan, a.shard, options, cb, &r);
  } else if (step == "sum-sketches") {
    st = sum_sketches(paths, plan, &r);
  } else if (step == "kept") {
    st = list_kept(paths, plan, a.shard, options, &r);
  } else if (step == "merge-kept") {
    st = merge_kept(paths, plan, &r);
  } else if (step == "count") {
    st = count_shard(paths, plan, a.shard, options, &r);
  } else {
    st = finish_shards(paths, plan, a.db, options, &r);
  }
  progress.finish();
  if (!st.ok()) return fail(kMe + who + ": ", st);
  const int code = r.input_errors > 0 ? int(kBadInput) : int(kOk);
  if (a.json) {
    nlohmann::ordered_json j;
    j["step"] = step;
    if (a.shard >= 0) j["shard"] = a.shard;
    j["games"] = r.games;
    if (step == "import") {
      j["games_read"] = r.import.games_read;
      j["ingested"] = r.import.ingested;
      j["duplicates"] = r.import.duplicates;
      j["elsewhere"] = r.import.elsewhere;
      j["filtered"] = r.import.filtered;
      j["rejected"] = r.import.rejected;
      j["rejected_by_reason"] = r.import.rejected_by_reason;
      j["input_errors"] = r.input_errors;
      j["sketched_during_import"] = r.sketched_during_import;
    }
    j["records"] = r.records;
    j["items"] = r.items;
    j["positions"] = r.positions;
    j["candidates"] = r.candidates;
    j["kept_keys"] = r.kept_keys;
    if (step == "count") {
      j["part"] = a.part;
      j["parts"] = r.parts;
    }
    if (step == "finish") {
      j["db"] = a.db;
      j["pruned"] = r.pruned;
      j["patterns_per_level"] = r.patterns_per_level;
    }
    j["bytes_written"] = r.bytes_written;
    j["storage_bytes_written"] = storage_bytes_written();
    j["peak_rss_bytes"] = peak_rss_bytes();
    j["seconds"] = r.seconds;
    j["exit_code"] = code;
    std::cout << json_text(j) << "\n";
  } else if (!a.quiet) {
    std::cout << who << ":";
    if (step != "sum-sketches") std::cout << " " << with_commas(r.games) << " games";
    else std::cout << " " << with_commas(r.items) << " played items";
    if (step == "import")
      std::cout << " stored (" << with_commas(r.import.games_read) << " read, " << with_commas(r.import.ingested)
                << " new, " << with_commas(r.import.duplicates) << " duplicates, " << with_commas(r.import.filtered)
                << " filtered, " << with_commas(r.import.rejected) << " rejected, "
                << with_commas(r.import.elsewhere) << " other shards')";
    if (r.records) std::cout << ", " << with_commas(r.records) << " records";
    if (step == "count" && r.parts > 1) std::cout << " (counted in " << r.parts << " parts)";
    if (step == "finish") {
      uint64_t total = 0;
      for (uint64_t n : r.patterns_per_level) total += n;
      std::cout << ", " << with_commas(total) << " patterns reported (" << with_commas(r.pruned)
                << " counted but played < min_played) into " << a.db;
    }
    std::cout << ", " << bytes_text(r.bytes_written) << " written, " << duration_text(r.seconds) << ", peak memory "
              << bytes_text(peak_rss_bytes()) << "\n";
  }
  if (r.input_errors > 0)
    std::cerr << kMe << who << ": " << with_commas(r.input_errors) << " input problem(s) (see above): exit code "
              << int(kBadInput) << "\n";
  return code;
}
}  // namespace

Runner register_shard(CLI::App& app) {
  auto a = std::make_shared<ShardArgs>();
  auto* cmd = app.add_subcommand(
      "shard",
      "Count a corpus in shards (separate processes or machines sharing a folder) and combine them exactly.\n"
      "Steps, in order (each shard step once per shard, in parallel; rerun any step that was interrupted):\n"
      "  plan --shards N INPUTS   import --shard I   sum-sketches   kept --shard I   merge-kept\n"
      "  count --shard I   finish --db D\n"
      "The result equals `sgfpat ingest --db D INPUTS` (see docs/scaling.md).");
  cmd->require_subcommand(1);
  std::vector<std::pair<CLI::App*, std::string>> steps;
  auto common = [&](CLI::App* s) {
    s->add_option("--work", a->work, "Work folder shared by all steps (on a shared file system)")->required();
    s->add_flag("--json", a->json, "Print the step's summary as JSON");
    s->add_flag("--quiet,-q", a->quiet, "Print nothing but errors");
  };
  auto running = [&](CLI::App* s) {
    s->add_option("--threads,-j", a->threads, "Threads")->capture_default_str();
    s->add_option("--memory-mb", a->memory_mb, "Peak memory of this process, MiB")
        ->capture_default_str()
        ->check(in_range(4, 1 << 20));
    s->add_flag("--progress", a->progress_lines, "Print progress as lines on stderr even when it is not a terminal");
  };
  auto sharded = [&](CLI::App* s) {
    s->add_option("--shard", a->shard, "This shard's number, 0..N-1 (e.g. $SLURM_ARRAY_TASK_ID)")->required();
  };
  auto* plan = cmd->add_subcommand("plan", "Fix the shards, settings and inputs of a sharded count in the work folder");
  common(plan);
  plan->add_option("--shards", a->shards, "Number of shards")->required()->check(in_range(1, 100000));
  plan->add_option("inputs", a->inputs, "SGF inputs as for ingest (every shard reads all of them)")->required();
  a->count.add_to(plan, " (as for ingest; min_played counts over all shards)");
  plan->add_option("--sketch-mb", a->sketch_mb,
                   "Size of the sketch of played patterns, MiB, the same in every shard (about 2 bytes per played "
                   "(level, pattern) item of the whole corpus keeps the kept set small; every import, kept and "
                   "finish step holds one or two)")
      ->capture_default_str()
      ->check(in_range(1, 1 << 20));
  steps.emplace_back(plan, "plan");
  // The other steps: name, help, whether it runs over games (threads,
  // memory) and whether it is one shard's.
  struct StepFlags {
    const char* name;
    const char* help;
    bool runs, per_shard;
  };
  static const StepFlags kSteps[] = {
      {"import", "Store this shard's games (read from every input) and sketch their played patterns", true, true},
      {"sum-sketches", "Sum the shards' sketches (after every import)", false, false},
      {"kept", "List this shard's played patterns the summed sketch may keep", true, true},
      {"merge-kept", "Merge the shards' kept lists (after every kept step)", false, false},
      {"count", "Count the merged kept set exactly over this shard's games (in parts when it does not fit --memory-mb)", true, true},
      {"finish", "Sum the shards' counts into one new database with every game", true, false},
  };
  for (const StepFlags& f : kSteps) {
    auto* s = cmd->add_subcommand(f.name, f.help);
    common(s);
    if (f.runs) running(s);
    if (f.per_shard) sharded(s);
    steps.emplace_back(s, f.name);
  }
  steps[1].first->add_option("--max-errors-shown", a->max_errors_shown, "Print at most this many problems")
      ->capture_default_str();
  steps.back().first->add_option("--db", a->db, "The database to make (must not exist)")->required();
  steps.back().first
      ->add_option("--merge-fan-in", a->merge_fan_in,
                   "Shards whose position indexes are merged at a time (each holds its files open: lower it "
                   "when the open-files limit is low)")
      ->check(in_range(1, 4096))
      ->capture_default_str();
  steps[5].first
      ->add_option("--part", a->part,
                   "Count only part P of Q of the kept set (a task per shard and part, each with its own memory; "
                   "finish takes the Q parts of each shard)")
      ->capture_default_str();
  return [a, steps]() {
    for (const auto& [sub, name] : steps)
      if (sub->parsed()) return name == "plan" ? run_plan(*a) : run_step(name, *a);
    return int(kUsage);
  };
}

}  // namespace sgfpat::cli
