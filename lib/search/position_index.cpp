#include "search/position_index.h"

#include <cstring>

#include "board/replay.h"
#include "search/position_hash.h"
#include "search/stone_follower.h"

namespace sgfpat {

namespace {

constexpr uint8_t kPassByte = 0xff, kNoneByte = 0xfe;
static_assert(PositionEntry::kKeyBytes == 18 && PositionEntry::kValueBytes == 5, "the entry layout of position_index.h");

// Writes the key of an entry into `out` (PositionEntry::kKeyBytes).
void put_entry_key(uint64_t hash, const Fingerprint& fp, int position, char* out) {
  for (int i = 0; i < 8; ++i) out[i] = char(hash >> (56 - 8 * i));
  std::memcpy(out + 8, fp.data(), 8);
  out[16] = char(position >> 8);
  out[17] = char(position);
}

std::string hash_prefix(uint64_t hash) {
  char k[PositionEntry::kKeyBytes];
  put_entry_key(hash, Fingerprint{}, 0, k);
  return std::string(k, 8);
}

// Follows a replay with a hasher and writes one entry per position.
class Indexer : public StoneFollower {
 public:
  Indexer(const Fingerprint& fp, Color winner, PositionEntries* out) : fp_(fp), winner_(winner), out_(out) {}
  void begin(int size) {
    start(size);
    hasher_.reset(size);
  }
  void before_move(const Board&, Color mover, Point move, int number) override {
    add(number - 1, mover, move.is_pass() ? kPassByte : uint8_t(move.x), move.is_pass() ? kPassByte : uint8_t(move.y));
  }
  void end(int moves, Color to_move) { add(moves, to_move, kNoneByte, kNoneByte); }

 protected:
  void on_stone(Point p, Color from, Color to) override { hasher_.change(p, from, to); }

 private:
  void add(int position, Color mover, uint8_t x, uint8_t y) {
    int t = 0;
    const uint64_t h = hasher_.canonical(&t);
    PositionEntry& e = out_->emplace_back();
    put_entry_key(h, fp_, position, e.key.data());
    e.value = {char(t), char(mover), char(winner_), char(x), char(y)};
  }
  Fingerprint fp_;
  Color winner_;
  PositionEntries* out_;
  PositionHasher hasher_;
};

}  // namespace

Status position_entries(const Game& game, const Fingerprint& fp, PositionEntries* entries, ReplayResult* result) {
  const size_t before = entries->size();
  Indexer indexer(fp, game.info.winner(), entries);
  indexer.begin(game.info.size);
  Board board;
  ReplayResult rr;
  Status st = replay(game, &board, &rr, &indexer);
  if (result) *result = rr;
  if (!st.ok()) {
    entries->resize(before);
    return st;
  }
  indexer.end(rr.moves_played, rr.to_move);
  return Status::OK();
}

Status build_position_index(PatternDb* db, const std::function<void(uint64_t, uint64_t)>& progress) {
  Status st = db->reset_position_index();
  if (!st.ok()) return st;
  PositionEntries entries;
  uint64_t done = 0;
  Status failed;
  Game game;
  st = db->for_each_game([&](const Fingerprint& fp, std::string_view record) {
    Status s = decode_game(record, &game);
    // Stored games were checked when stored; one that no longer decodes or
    // replays is left out of the index, as it is of the counts.
    if (s.ok()) position_entries(game, fp, &entries);
    if (entries.size() >= 200000) {
      failed = db->add_position_entries(entries);
      entries.clear();
      if (!failed.ok()) return false;
    }
    if (progress && ++done % 1000 == 0) progress(done, db->game_count());
    return true;
  });
  if (!st.ok()) return st;
  if (!failed.ok()) return failed;
  st = db->add_position_entries(entries);
  if (!st.ok()) return st;
  return db->complete_position_index();
}

Status find_exact(PatternDb* db, const Board& board, std::vector<PositionHit>* hits) {
  hits->clear();
  if (db->position_index_off())
    return Status::NotFound("database " + db->path() + " keeps no position index (made with --no-position-index); `sgfpat ingest --db " +
                            db->path() + " --position-index` builds it");
  if (!db->has_position_index())
    return Status::NotFound("database " + db->path() +
                         " has no complete position index (an ingest writes its games' entries when its import ends); `sgfpat ingest --db " + db->path() + "` builds it");
  PositionHasher hasher(board.size());
  for (int y = 0; y < board.size(); ++y)
    for (int x = 0; x < board.size(); ++x) {
      const Point p{int8_t(x), int8_t(y)};
      if (board.at(p) != Color::Empty) hasher.change(p, Color::Empty, board.at(p));
    }
  int tq = 0;
  const uint64_t h = hasher.canonical(&tq);
  const int back = inverse_symmetry(transform_sym(tq));
  Status bad;
  Status st = db->for_each_position(hash_prefix(h), [&](std::string_view k, std::string_view v) {
    if (k.size() != 18 || v.size() != 5) {
      bad = Status::Corruption("database " + db->path() + ": damaged position index entry");
      return false;
    }
    PositionHit hit;
    std::memcpy(hit.game.data(), k.data() + 8, 8);
    hit.position = (uint8_t(k[16]) << 8) | uint8_t(k[17]);
    const int ts = uint8_t(v[0]) & 15;
    hit.sym = compose_symmetry(transform_sym(ts), back);
    hit.swap = transform_swaps(ts) != transform_swaps(tq);
    hit.mover = Color(uint8_t(v[1]) & 3);
    hit.winner = Color(uint8_t(v[2]) & 3);
    const uint8_t x = uint8_t(v[3]), y = uint8_t(v[4]);
    hit.has_next = x != kNoneByte;
    if (hit.has_next && x != kPassByte)
      hit.next = apply_symmetry(hit.sym, Point{int8_t(x), int8_t(y)}, board.size());
    hits->push_back(hit);
    return true;
  });
  if (!st.ok()) return st;
  return bad;
}

}  // namespace sgfpat
