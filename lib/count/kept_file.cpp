#include "count/kept_file.h"

#include <algorithm>

#include "core/kway_merge.h"
#include "count/count_budget.h"

namespace sgfpat {

void KeptFileSizes::range(int levels, int first, int last, std::vector<size_t>* k, std::vector<size_t>* e) const {
  k->assign(size_t(levels), 0);
  e->assign(size_t(levels), 0);
  for (int level = 1; level <= levels; ++level) {
    const int from = level < kSplitLevel ? 0 : first, to = level < kSplitLevel ? 0 : last;
    for (int b = from; b <= to; ++b) {
      (*k)[size_t(level - 1)] += keys[at(level, b)];
      (*e)[size_t(level - 1)] += extended[at(level, b)];
    }
  }
}

Status measure_kept_file(const std::string& path, int levels, KeptFileSizes* sizes) {
  *sizes = KeptFileSizes{};
  sizes->keys.assign(size_t(levels) * kPartBuckets, 0);
  sizes->extended.assign(size_t(levels) * kPartBuckets, 0);
  RecordReader in;
  Status st = in.open(path, RecordKind::kKept, levels);
  if (!st.ok()) return st;
  ShardRecord r;
  while (in.next(&r)) {
    const bool base = r.level < kSplitLevel;
    const bool kept = r.flags & kRecordKept, ext = r.flags & kRecordExtended;
    const size_t i = KeptFileSizes::at(r.level, base ? 0 : r.bucket);
    sizes->keys[i] += kept;
    sizes->extended[i] += ext;
    sizes->base_keys += base && kept;
    ++sizes->records;
  }
  return in.status();
}

size_t kept_part_peak_bytes(const KeptFileSizes& sizes, int levels, int first, int last, int writers) {
  std::vector<size_t> keys, extended;
  sizes.range(levels, first, last, &keys, &extended);
  return resident_count_peak_bytes(keys, extended, writers, /*level_by_level=*/true);
}

Status load_kept_table(const std::string& path, const KeptFileSizes& sizes, int levels, int first, int last,
                       std::unique_ptr<ResidentTable>* out) {
  std::vector<size_t> k, e;
  sizes.range(levels, first, last, &k, &e);
  RecordReader in;
  Status st = in.open(path, RecordKind::kKept, levels);
  if (!st.ok()) return st;
  auto table = std::make_unique<ResidentTable>(levels);
  // The records come level by level: a level is built as soon as the
  // next one starts, and its lists (reserved whole, as the peak counts
  // them) freed.
  std::vector<uint64_t> keys, extended;
  int level = 1;
  keys.reserve(k[0]);
  extended.reserve(e[0]);
  auto build_below = [&](int next) {
    for (; level < next; ++level) {
      table->add_level(level, keys, extended);
      std::vector<uint64_t>().swap(keys);
      std::vector<uint64_t>().swap(extended);
      if (level < levels) {
        keys.reserve(k[size_t(level)]);
        extended.reserve(e[size_t(level)]);
      }
    }
  };
  ShardRecord r;
  while (in.next(&r)) {
    if (r.level >= kSplitLevel && (r.bucket < first || r.bucket > last)) continue;
    build_below(r.level);
    if (r.flags & kRecordKept) keys.push_back(r.key);
    if (r.flags & kRecordExtended) extended.push_back(r.key);
  }
  if (!in.status().ok()) return in.status();
  build_below(levels + 1);
  *out = std::move(table);
  return Status::OK();
}

namespace {
// One sorted list of a collector's as a stream of the one k-way merge
// (core/kway_merge.h).
struct ListStream {
  const uint64_t* at;
  const uint64_t* end;
  uint8_t bucket, flags;
  bool valid() const { return at != end; }
  uint64_t key() const { return *at; }
  void next() { ++at; }
  Status status() const { return Status::OK(); }
};
}  // namespace

void write_kept_records(KeptCollector* collector, int levels, RecordWriter* out) {
  const auto& kept = collector->kept.by_level();
  const auto& extended = collector->extended.by_level();
  // Each list is sorted and distinct; a level's lists (kept and extended,
  // of every bucket) are merged by key.
  std::vector<ListStream> lists;
  for (int level = 1; level <= levels; ++level) {
    lists.clear();
    const int buckets = collector->by_bucket() && level >= kSplitLevel ? kPartBuckets : 1;
    for (int b = 0; b < buckets; ++b) {
      const size_t i = size_t(collector->list_index(level, b) - 1);
      for (const auto* list : {&kept[i], &extended[i]})
        if (!list->empty())
          lists.push_back({list->data(), list->data() + list->size(), uint8_t(b),
                           list == &kept[i] ? kRecordKept : kRecordExtended});
    }
    std::vector<ListStream*> streams;
    for (ListStream& l : lists) streams.push_back(&l);
    KWayMerge<ListStream> merge(std::move(streams));
    while (merge.valid()) {
      ShardRecord r;
      r.level = level;
      r.key = merge.top().key();
      while (merge.valid() && merge.top().key() == r.key) {
        r.flags |= merge.top().flags;
        // One bucket but for a 64-bit collision: either, always the same.
        r.bucket = std::max(r.bucket, merge.top().bucket);
        (void)merge.next();  // a list has no errors
      }
      out->add(r);
    }
  }
}

}  // namespace sgfpat
