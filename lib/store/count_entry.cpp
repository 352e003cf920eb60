#include "store/count_entry.h"

#include <rocksdb/merge_operator.h>

namespace sgfpat {

namespace {
class Add3 : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    PatternCounts a, b;
    if ((existing && !parse_counts(*existing, &a)) || !parse_counts(value, &b)) return false;
    a.played += b.played;
    a.seen += b.seen;
    a.wins += b.wins;
    const CountsValue sum(a);
    new_value->assign(sum.bytes, kCountsValueBytes);
    return true;
  }
  const char* Name() const override { return "sgfpat.add3"; }
};
}  // namespace

std::shared_ptr<rocksdb::MergeOperator> counts_merge_operator() { return std::make_shared<Add3>(); }

}  // namespace sgfpat
