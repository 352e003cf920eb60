#include "io/game_splitter.h"

#include <cstring>

namespace sgfpat {

namespace {
inline bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'; }
}  // namespace

GameSplitter::GameSplitter(size_t max_game_bytes, size_t chunk_bytes)
    : max_game_bytes_(max_game_bytes), buf_(chunk_bytes ? chunk_bytes : 1) {}

void GameSplitter::reset(ByteSource* src) {
  src_ = src;
  pos_ = len_ = seg_ = 0;
  eof_ = src == nullptr;
  skipping_ = false;
  state_ = State::Outside;
  depth_ = 0;
  next_index_ = cur_index_ = 0;
  bytes_read_ = 0;
}

bool GameSplitter::refill() {
  pos_ = seg_ = 0;
  len_ = src_->read(buf_.data(), buf_.size());
  bytes_read_ += len_;
  if (len_ == 0) eof_ = true;
  return len_ > 0;
}

GameSplitter::Result GameSplitter::next(std::string* text, uint64_t* index, std::string* error) {
  text->clear();
  for (;;) {
    if (pos_ == len_) {
      // The chunk is used up: save the game bytes it held, then read on.
      if (state_ != State::Outside && !skipping_) {
        size_t n = len_ - seg_;
        if (text->size() + n > max_game_bytes_) {
          text->clear();
          if (state_ == State::Opening) {  // a "(" and a sea of blanks: no game yet
            state_ = State::Outside;
            continue;
          }
          skipping_ = true;
          *index = cur_index_;
          *error = "game larger than " + std::to_string(max_game_bytes_) + " bytes, skipped";
          return Result::Error;
        }
        text->append(buf_.data() + seg_, n);
      }
      if (eof_ || !refill()) {
        bool open_game = (state_ == State::Tree || state_ == State::Value || state_ == State::Escape);
        bool report = open_game && !skipping_;
        state_ = State::Outside;
        skipping_ = false;
        text->clear();
        if (report && !src_->failed()) {
          *index = cur_index_;
          *error = "unterminated game (input ends inside it)";
          return Result::Error;
        }
        return Result::End;
      }
    }

    const char* b = buf_.data();
    size_t i = pos_;
    const size_t n = len_;
    State st = state_;
    uint64_t depth = depth_;
    bool done = false;
    while (i < n && !done) {
      switch (st) {
        case State::Outside: {
          const void* p = std::memchr(b + i, '(', n - i);
          if (!p) {
            i = n;
            break;
          }
          i = size_t(static_cast<const char*>(p) - b);
          seg_ = i++;
          text->clear();
          st = State::Opening;
          break;
        }
        case State::Opening: {
          char c = b[i];
          if (is_space(c)) {
            ++i;
          } else if (c == ';') {
            ++i;
            st = State::Tree;
            depth = 1;
            cur_index_ = next_index_++;
          } else if (c == '(') {
            // "((;" or junk "(" before a real game: restart from here.
            text->clear();
            seg_ = i++;
          } else {
            text->clear();
            st = State::Outside;  // "(" of some text, not a game
          }
          break;
        }
        case State::Tree: {
          while (i < n) {
            char c = b[i++];
            if (c == '[') {
              st = State::Value;
              break;
            }
            if (c == '(') {
              ++depth;
            } else if (c == ')' && --depth == 0) {
              st = State::Outside;
              done = true;
              break;
            }
          }
          break;
        }
        case State::Value: {
          while (i < n) {
            char c = b[i++];
            if (c == ']') {
              st = State::Tree;
              break;
            }
            if (c == '\\') {
              st = State::Escape;
              break;
            }
          }
          break;
        }
        case State::Escape:
          ++i;
          st = State::Value;
          break;
      }
    }
    pos_ = i;
    state_ = st;
    depth_ = depth;
    if (!done) continue;

    if (skipping_) {  // the oversized game ends here; already reported
      skipping_ = false;
      continue;
    }
    size_t k = i - seg_;
    if (text->size() + k > max_game_bytes_) {
      text->clear();
      *index = cur_index_;
      *error = "game larger than " + std::to_string(max_game_bytes_) + " bytes, skipped";
      return Result::Error;
    }
    text->append(b + seg_, k);
    *index = cur_index_;
    return Result::Game;
  }
}

}  // namespace sgfpat
