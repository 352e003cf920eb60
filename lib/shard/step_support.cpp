#include "shard/step_support.h"

#include <filesystem>

#include "ingest/ingest_policy.h"

namespace sgfpat::shard_internal {

uint64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : uint64_t(n);
}

Status check_shard(const ShardPlan& plan, int shard) {
  if (shard < 0 || shard >= plan.shards)
    return Status::InvalidArgument("shard " + std::to_string(shard) + " is not in 0.." +
                                   std::to_string(plan.shards - 1) + " (the plan has " +
                                   std::to_string(plan.shards) + " shards)");
  return Status::OK();
}

Status open_shard_db(const ShardPaths& paths, const ShardPlan& plan, int shard, ShardDbUse use, size_t memory_budget,
                     std::unique_ptr<PatternDb>* db, int write_threads) {
  const bool create = use == ShardDbUse::kCreate;
  OpenOptions open;
  open.create_if_missing = create;
  open.secondary = use == ShardDbUse::kRead;
  open.settings = plan.settings;
  open.check_settings = true;
  give_db_memory(split_memory(memory_budget), &open);
  open.write_threads = write_threads;
  Status st = PatternDb::Open(paths.shard_db(shard), open, db);
  if (st.is_not_found() && !create) return st.with_context("run `sgfpat shard import` for this shard first");
  return st;
}

Status check_sketch_fits(const ShardPlan& plan, size_t memory_budget) {
  const size_t have = split_memory(memory_budget).count_bytes;
  if (plan.sketch_bytes <= have) return Status::OK();
  return Status::InvalidArgument("the plan's sketch (" + std::to_string(plan.sketch_bytes >> 20) +
                                 " MiB) does not fit the " + std::to_string(have >> 20) +
                                 " MiB --memory-mb leaves for counting: give this step more memory");
}

}  // namespace sgfpat::shard_internal
