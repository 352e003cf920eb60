// The one k-way merge of sorted streams: a heap of the streams by their
// current key, the smallest on top.  It merges the lists of a kept file's
// writing (count/kept_file.h), record files (count/record_file.h) and the
// shards' position indexes (shard/shard_steps.cpp).
//
// A stream is any type with
//   bool valid() const    (false at its end, or after an error)
//   K key() const         (its current key, when valid; K has < and ==)
//   void next()           (moves to the next key, which is larger or equal)
//   Status status() const (the error that ended it, if any)
// Streams that hold the same key come out one after another, the stream
// given first first: a caller folds them into one item (sums the counts,
// ors the flags, drops the repeats).
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/status.h"

namespace sgfpat {

template <class Stream>
class KWayMerge {
 public:
  // The streams (not owned; they outlive the merge), each at its first key.
  explicit KWayMerge(std::vector<Stream*> streams) : streams_(std::move(streams)) {
    for (size_t i = 0; i < streams_.size(); ++i)
      if (streams_[i]->valid()) heap_.push_back(i);
    std::make_heap(heap_.begin(), heap_.end(), Later{this});
  }
  // The first error of a stream that ended on one (a stream checked when
  // it ends: call before trusting the merge's end).
  Status status() const {
    for (const Stream* s : streams_) {
      Status st = s->status();
      if (!st.ok()) return st;
    }
    return Status::OK();
  }
  // False once every stream is at its end.
  bool valid() const { return !heap_.empty(); }
  // The stream with the smallest key (ties: the one given first), and its
  // index in the constructor's list.
  Stream& top() const { return *streams_[heap_.front()]; }
  size_t top_index() const { return heap_.front(); }
  // Moves the top stream on; returns its error when that ended it.
  Status next() {
    std::pop_heap(heap_.begin(), heap_.end(), Later{this});
    Stream& s = *streams_[heap_.back()];
    s.next();
    if (s.valid()) {
      std::push_heap(heap_.begin(), heap_.end(), Later{this});
      return Status::OK();
    }
    heap_.pop_back();
    return s.status();
  }

 private:
  // The heap's order: a before b when it comes later (std heaps keep the
  // largest on top).
  struct Later {
    const KWayMerge* m;
    bool operator()(size_t a, size_t b) const {
      const auto ka = m->streams_[a]->key(), kb = m->streams_[b]->key();
      return kb < ka || (ka == kb && b < a);
    }
  };
  std::vector<Stream*> streams_;
  std::vector<size_t> heap_;  // indices of the valid streams
};

}  // namespace sgfpat
