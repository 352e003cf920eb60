#include "board/board.h"

#include <algorithm>

#include "core/hash.h"

namespace sgfpat {

namespace {
constexpr uint8_t kOff = uint8_t(Color::OffBoard);

struct PositionTable {
  std::array<std::array<uint64_t, Board::kMaxIndex>, 2> words;
  PositionTable() {
    uint64_t s = 0x5347465041542d31ULL;  // "SGFPAT-1"
    for (auto& t : words)
      for (auto& w : t) w = splitmix64(s);
  }
};
const PositionTable& position_table() {
  static const PositionTable table;
  return table;
}
}  // namespace

uint64_t position_zobrist(Color c, int idx) {
  return position_table().words[int(c) - 1][idx];
}

const char* move_error_name(MoveError e) {
  switch (e) {
    case MoveError::None: return "legal";
    case MoveError::OffBoard: return "point off the board";
    case MoveError::Occupied: return "occupied point";
    case MoveError::Suicide: return "suicide";
    case MoveError::Ko: return "ko recapture";
    case MoveError::Superko: return "repeats an earlier position (positional superko)";
  }
  return "?";
}

Board::Board(int size) : size_(size), stride_(size + 2) {
  color_.fill(kOff);
  for (int y = 0; y < size_; ++y)
    for (int x = 0; x < size_; ++x) color_[index(Point{int8_t(x), int8_t(y)})] = uint8_t(Color::Empty);
  seen_positions_.assign(1024, 0);
  remember_position();  // the empty start position counts as seen
}

// --- liberty bookkeeping (pseudo-liberties with sum / sum of squares) ---

void Board::add_lib(int head, int lib) {
  Chain& ch = chain_[head];
  ch.pseudo_libs++;
  ch.lib_sum += lib;
  ch.lib_sum_sq += uint64_t(lib) * lib;
}

void Board::remove_lib(int head, int lib) {
  Chain& ch = chain_[head];
  ch.pseudo_libs--;
  ch.lib_sum -= lib;
  ch.lib_sum_sq -= uint64_t(lib) * lib;
}

bool Board::in_atari_index(int idx) const {
  const Chain& ch = chain_[head_[idx]];
  return ch.pseudo_libs > 0 && uint64_t(ch.pseudo_libs) * ch.lib_sum_sq == uint64_t(ch.lib_sum) * ch.lib_sum;
}

void Board::merge_chains(int a, int b) {
  // Relabel the smaller chain into the larger one.
  if (chain_[a].stones < chain_[b].stones) std::swap(a, b);
  Chain& big = chain_[a];
  const Chain& small = chain_[b];
  big.stones += small.stones;
  big.pseudo_libs += small.pseudo_libs;
  big.lib_sum += small.lib_sum;
  big.lib_sum_sq += small.lib_sum_sq;
  int s = b;
  do {
    head_[s] = uint16_t(a);
    s = next_[s];
  } while (s != b);
  std::swap(next_[a], next_[b]);  // splice the two circular lists
}

void Board::place_stone(int idx, Color c) {
  color_[idx] = uint8_t(c);
  hash_ ^= position_zobrist(c, idx);
  head_[idx] = uint16_t(idx);
  next_[idx] = uint16_t(idx);
  chain_[idx] = Chain{1, 0, 0, 0};
  const int nb[4] = {idx - stride_, idx + 1, idx + stride_, idx - 1};
  for (int n : nb) {
    if (color_[n] == uint8_t(Color::Empty)) add_lib(idx, n);
  }
  for (int n : nb) {
    uint8_t nc = color_[n];
    if (nc == uint8_t(Color::Black) || nc == uint8_t(Color::White)) {
      remove_lib(head_[n], idx);
      if (nc == uint8_t(c) && head_[n] != head_[idx]) merge_chains(head_[idx], head_[n]);
    }
  }
}

void Board::remove_chain(int head, std::vector<int>* out) {
  int s = head;
  Color c = Color(color_[head]);
  // First clear every stone, then give liberties back to the neighbours.
  do {
    color_[s] = uint8_t(Color::Empty);
    hash_ ^= position_zobrist(c, s);
    out->push_back(s);
    s = next_[s];
  } while (s != head);
  do {
    const int nb[4] = {s - stride_, s + 1, s + stride_, s - 1};
    for (int n : nb) {
      uint8_t nc = color_[n];
      if (nc == uint8_t(Color::Black) || nc == uint8_t(Color::White)) add_lib(head_[n], s);
    }
    s = next_[s];
  } while (s != head);
}

// --- legality ---

bool Board::is_legal_index(int idx, Color c, bool allow_suicide) const {
  if (color_[idx] != uint8_t(Color::Empty) || (idx == ko_ && c == ko_color_)) return false;
  if (allow_suicide) return true;
  const int nb[4] = {idx - stride_, idx + 1, idx + stride_, idx - 1};
  for (int n : nb) {
    uint8_t nc = color_[n];
    if (nc == uint8_t(Color::Empty)) return true;
    if (nc == kOff) continue;
    // A chain with no liberty can only come from setup; treat it like atari.
    bool atari = chain_[head_[n]].pseudo_libs == 0 || in_atari_index(n);  // only liberty: idx
    if (nc == uint8_t(c)) {
      if (!atari) return true;  // joins a chain with another liberty
    } else if (atari) {
      return true;  // captures
    }
  }
  return false;
}

MoveError Board::check(Point p, Color c, bool allow_suicide, KoRule ko) const {
  if (!on_board(p)) return MoveError::OffBoard;
  int idx = index(p);
  if (color_[idx] != uint8_t(Color::Empty)) return MoveError::Occupied;
  if (idx == ko_ && c == ko_color_) return MoveError::Ko;
  if (!is_legal_index(idx, c, allow_suicide)) return MoveError::Suicide;
  if (ko == KoRule::Positional && seen_position(hash_after(idx, c))) return MoveError::Superko;
  return MoveError::None;
}

uint64_t Board::hash_after(int idx, Color c) const {
  uint64_t h = hash_ ^ position_zobrist(c, idx);
  const int nb[4] = {idx - stride_, idx + 1, idx + stride_, idx - 1};
  const Color opp = opponent(c);
  int heads[4];
  int n_heads = 0;
  bool captures = false, breathes = false;
  // An opponent chain whose only liberty is idx goes (each chain once).
  for (int n : nb) {
    const uint8_t nc = color_[n];
    if (nc == uint8_t(Color::Empty)) breathes = true;
    if (nc != uint8_t(opp)) continue;
    const int head = head_[n];
    if (std::find(heads, heads + n_heads, head) != heads + n_heads) continue;
    heads[n_heads++] = head;
    // (a chain without liberty can only come from setup: play() takes it too)
    if (chain_[head].pseudo_libs != 0 && !in_atari_index(n)) continue;
    captures = true;
    int s = head;
    do {
      h ^= position_zobrist(opp, s);
      s = next_[s];
    } while (s != head);
  }
  if (captures || breathes) return h;
  // No capture and no empty neighbour: the new chain keeps a liberty when a
  // friendly neighbour chain has one besides idx; otherwise (a suicide,
  // legal only when allowed) the stone and those chains go.
  n_heads = 0;
  for (int n : nb) {
    if (color_[n] != uint8_t(c)) continue;
    const int head = head_[n];
    if (std::find(heads, heads + n_heads, head) != heads + n_heads) continue;
    heads[n_heads++] = head;
    if (chain_[head].pseudo_libs != 0 && !in_atari_index(n)) return h;
  }
  h ^= position_zobrist(c, idx);
  for (int k = 0; k < n_heads; ++k) {
    int s = heads[k];
    do {
      h ^= position_zobrist(c, s);
      s = next_[s];
    } while (s != heads[k]);
  }
  return h;
}

bool Board::seen_position(uint64_t h) const {
  if (!h) h = 1;  // as remember_position() stores the empty board
  const size_t mask = seen_positions_.size() - 1;
  for (size_t i = h & mask; seen_positions_[i]; i = (i + 1) & mask)
    if (seen_positions_[i] == h) return true;
  return false;
}

MoveError Board::play(Point p, Color c, bool allow_suicide, KoRule ko) {
  MoveError err = check(p, c, allow_suicide, ko);
  if (err != MoveError::None) return err;
  int idx = index(p);
  removed_.clear();
  place_stone(idx, c);
  const int nb[4] = {idx - stride_, idx + 1, idx + stride_, idx - 1};
  Color opp = opponent(c);
  for (int n : nb) {
    if (color_[n] == uint8_t(opp) && chain_[head_[n]].pseudo_libs == 0) remove_chain(head_[n], &removed_);
  }
  int captured = int(removed_.size());
  captures_[int(c)] += captured;
  ko_ = -1;
  if (chain_[head_[idx]].pseudo_libs == 0) {
    // Suicide (only reached when allowed): the mover's chain goes.
    remove_chain(head_[idx], &removed_);
    captures_[int(opp)] += int(removed_.size()) - captured;
  } else if (captured == 1 && chain_[head_[idx]].stones == 1 && in_atari_index(idx)) {
    ko_ = removed_[0];
    ko_color_ = opp;
  }
  repeated_ = remember_position();
  return MoveError::None;
}

void Board::pass() {
  ko_ = -1;
  removed_.clear();
  repeated_ = false;
}

void Board::setup(Point p, Color c) {
  int idx = index(p);
  if (Color(color_[idx]) == c) return;
  Color old = Color(color_[idx]);
  ko_ = -1;
  removed_.clear();
  if (old == Color::Empty) {
    place_stone(idx, c);  // joins chains; no captures by definition of setup
    remember_position();
    return;
  }
  // Removing or recoloring a stone may split a chain: rebuild everything.
  hash_ ^= position_zobrist(old, idx);
  color_[idx] = uint8_t(c);
  if (c != Color::Empty) hash_ ^= position_zobrist(c, idx);
  rebuild_chains();
  remember_position();
}

void Board::rebuild_chains() {
  std::array<uint8_t, kMaxIndex> saved = color_;
  uint64_t saved_hash = hash_;
  for (int y = 0; y < size_; ++y)
    for (int x = 0; x < size_; ++x) color_[index(Point{int8_t(x), int8_t(y)})] = uint8_t(Color::Empty);
  hash_ = 0;
  for (int idx = 0; idx < stride_ * stride_; ++idx)
    if (saved[idx] == uint8_t(Color::Black) || saved[idx] == uint8_t(Color::White)) place_stone(idx, Color(saved[idx]));
  hash_ = saved_hash;
}

// Open-addressed set of position hashes; 0 marks an empty slot.
bool Board::remember_position() {
  uint64_t h = hash_ ? hash_ : 1;
  if ((seen_count_ + 1) * 2 > seen_positions_.size()) {
    std::vector<uint64_t> old(seen_positions_.size() * 2, 0);
    old.swap(seen_positions_);
    seen_count_ = 0;
    for (uint64_t v : old) {
      if (!v) continue;
      size_t i = v & (seen_positions_.size() - 1);
      while (seen_positions_[i]) i = (i + 1) & (seen_positions_.size() - 1);
      seen_positions_[i] = v;
      ++seen_count_;
    }
  }
  size_t mask = seen_positions_.size() - 1;
  size_t i = h & mask;
  while (seen_positions_[i]) {
    if (seen_positions_[i] == h) return true;
    i = (i + 1) & mask;
  }
  seen_positions_[i] = h;
  ++seen_count_;
  return false;
}

// --- queries ---

int Board::liberties(Point p) const {
  int idx = index(p);
  if (color_[idx] != uint8_t(Color::Black) && color_[idx] != uint8_t(Color::White)) return 0;
  std::array<bool, kMaxIndex> mark{};
  int libs = 0, s = idx;
  do {
    const int nb[4] = {s - stride_, s + 1, s + stride_, s - 1};
    for (int n : nb)
      if (color_[n] == uint8_t(Color::Empty) && !mark[n]) {
        mark[n] = true;
        ++libs;
      }
    s = next_[s];
  } while (s != idx);
  return libs;
}

int Board::chain_liberties(int idx, int* out, int max) const {
  int found = 0, s = idx;
  do {
    const int nb[4] = {s - stride_, s + 1, s + stride_, s - 1};
    for (int n : nb) {
      if (color_[n] != uint8_t(Color::Empty)) continue;
      bool seen = false;
      for (int k = 0; k < found; ++k) seen |= out[k] == n;
      if (seen) continue;
      if (found == max) return found;
      out[found++] = n;
    }
    s = next_[s];
  } while (s != idx);
  return found;
}

int Board::chain_size(Point p) const {
  int idx = index(p);
  if (color_[idx] != uint8_t(Color::Black) && color_[idx] != uint8_t(Color::White)) return 0;
  return chain_[head_[idx]].stones;
}

int Board::stone_count(Color c) const {
  return int(std::count(color_.begin(), color_.begin() + stride_ * stride_, uint8_t(c)));
}

AreaScore Board::area_score(std::vector<Color>* owner) const {
  AreaScore score;
  if (owner) {
    owner->assign(size_t(size_ * size_), Color::Empty);
    for (int y = 0; y < size_; ++y)
      for (int x = 0; x < size_; ++x) (*owner)[size_t(y * size_ + x)] = at(Point{int8_t(x), int8_t(y)});
  }
  std::array<bool, kMaxIndex> done{};
  std::vector<int> stack, region;
  for (int idx = 0; idx < stride_ * stride_; ++idx) {
    uint8_t c = color_[idx];
    if (c == uint8_t(Color::Black)) ++score.black;
    else if (c == uint8_t(Color::White)) ++score.white;
    if (c != uint8_t(Color::Empty) || done[idx]) continue;
    // Flood the empty region and note which colors border it.
    bool touches_black = false, touches_white = false;
    int count = 0;
    stack.assign(1, idx);
    region.clear();
    done[idx] = true;
    while (!stack.empty()) {
      int s = stack.back();
      stack.pop_back();
      ++count;
      if (owner) region.push_back(s);
      const int nb[4] = {s - stride_, s + 1, s + stride_, s - 1};
      for (int n : nb) {
        uint8_t nc = color_[n];
        if (nc == uint8_t(Color::Empty) && !done[n]) {
          done[n] = true;
          stack.push_back(n);
        } else if (nc == uint8_t(Color::Black)) {
          touches_black = true;
        } else if (nc == uint8_t(Color::White)) {
          touches_white = true;
        }
      }
    }
    const Color region_owner = touches_black == touches_white ? Color::Empty
                               : touches_black                ? Color::Black
                                                              : Color::White;
    if (region_owner == Color::Black) score.black += count;
    else if (region_owner == Color::White) score.white += count;
    else score.neutral += count;
    if (owner && region_owner != Color::Empty)
      for (int r : region) {
        const Point p = point(r);
        (*owner)[size_t(p.y * size_ + p.x)] = region_owner;
      }
  }
  return score;
}

}  // namespace sgfpat
