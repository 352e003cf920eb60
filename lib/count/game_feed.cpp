#include "count/game_feed.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <mutex>
#include <thread>

#include "count/batch_queue.h"

namespace sgfpat {


Status feed_games(const GameSource& source, uint64_t total, int threads,
                  const std::function<Status(int, std::vector<std::string>&)>& work,
                  const std::function<void(uint64_t)>& progress) {
  return feed_games(
      source, total, threads, [&](int t, std::vector<std::string>& batch, uint64_t) { return work(t, batch); },
      progress);
}

Status feed_games(const GameSource& source, uint64_t total, int threads,
                  const std::function<Status(int, std::vector<std::string>&, uint64_t)>& work,
                  const std::function<void(uint64_t)>& progress) {
  // A batch and the index of its first game.
  using Numbered = std::pair<uint64_t, std::vector<std::string>>;
  BatchQueueOf<Numbered> queue(size_t(threads) * 2);
  std::mutex err_mu;
  Status first_error;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      Numbered batch;
      while (queue.pop(&batch)) {
        Status s;
        try {
          s = work(t, batch.second, batch.first);
        } catch (...) {
          s = status_from_exception("counting");
        }
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(err_mu);
          if (first_error.ok()) first_error = s;
        }
      }
    });
  // Batches of 256 games keep the hand-over cheap; a small source gets
  // smaller ones, so that every thread has work.
  const size_t batch_games = size_t(std::clamp<uint64_t>(total / (uint64_t(threads) * 8), 1, 256));
  std::vector<std::string> batch;
  uint64_t done = 0;
  Status s = source([&](const Fingerprint&, std::string_view rec) {
    batch.emplace_back(rec);
    if (batch.size() == batch_games) {
      queue.push({done, std::move(batch)});
      done += batch_games;
      batch.clear();
      if (progress) progress(done);
    }
    return true;
  });
  if (!batch.empty()) {
    const uint64_t first = done;
    done += batch.size();
    queue.push({first, std::move(batch)});
  }
  queue.close();
  for (auto& th : pool) th.join();
  if (progress) progress(done);
  if (!s.ok()) return s;
  return first_error;
}

Status for_all_games(PatternDb& db, int threads, const std::function<Status(int, std::vector<std::string>&)>& work,
                     const std::function<void(uint64_t)>& progress) {
  return feed_games([&](const GameVisitor& v) { return db.for_each_game(v); }, db.game_count(), threads, work,
                    progress);
}


namespace {
struct OpeningEntry {
  uint8_t key[kOpeningKeyBytes];
  Fingerprint fp;
};
}  // namespace

size_t games_by_opening_bytes(uint64_t games) { return size_t(games) * (sizeof(OpeningEntry) + sizeof(Fingerprint)); }

Status games_by_opening(const GameSource& source, uint64_t expected, std::vector<Fingerprint>* order) {
  using Entry = OpeningEntry;
  std::vector<Entry> entries;
  entries.reserve(size_t(expected));
  Status s = source([&](const Fingerprint& fp, std::string_view rec) {
    Entry e{};
    // An unreadable record sorts first; counting reports it.
    if (!opening_key(rec, e.key)) std::fill(std::begin(e.key), std::end(e.key), uint8_t(0));
    e.fp = fp;
    entries.push_back(e);
    return true;
  });
  if (!s.ok()) return s;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const int c = std::memcmp(a.key, b.key, sizeof a.key);
    return c != 0 ? c < 0 : a.fp < b.fp;
  });
  order->resize(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) (*order)[i] = entries[i].fp;
  return Status::OK();
}

Status games_by_opening(PatternDb& db, std::vector<Fingerprint>* order) {
  return games_by_opening([&](const GameVisitor& v) { return db.for_each_game(v); }, db.game_count(), order);
}

Status for_each_game_in(PatternDb& db, std::span<const Fingerprint> order, const GameVisitor& visit) {
  constexpr size_t kChunk = 256;
  std::vector<std::string> records;
  for (size_t at = 0; at < order.size(); at += kChunk) {
    const size_t n = std::min(kChunk, order.size() - at);
    Status s = db.get_games(order.subspan(at, n), &records);
    if (!s.ok()) return s;
    for (size_t i = 0; i < n; ++i)
      if (!visit(order[at + i], records[i])) return Status::OK();
  }
  return Status::OK();
}

GameSource games_in(PatternDb& db, std::span<const Fingerprint> order) {
  return [&db, order](const GameVisitor& v) { return for_each_game_in(db, order, v); };
}

}  // namespace sgfpat
