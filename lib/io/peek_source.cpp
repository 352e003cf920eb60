#include "io/peek_source.h"

#include <algorithm>
#include <cstring>

namespace sgfpat {

void PeekSource::reset(ByteSource* inner) {
  inner_ = inner;
  head_.clear();
  head_pos_ = 0;
  error_.clear();
}

std::string_view PeekSource::peek(size_t n) {
  while (head_.size() - head_pos_ < n && inner_ && !inner_->failed()) {
    size_t have = head_.size();
    head_.resize(head_pos_ + n);
    size_t got = inner_->read(head_.data() + have, head_.size() - have);
    head_.resize(have + got);
    if (got == 0) break;
  }
  if (inner_ && inner_->failed()) error_ = inner_->error();
  return std::string_view(head_).substr(head_pos_, n);
}

size_t PeekSource::read(char* buf, size_t n) {
  if (head_pos_ < head_.size()) {
    size_t k = std::min(n, head_.size() - head_pos_);
    std::memcpy(buf, head_.data() + head_pos_, k);
    head_pos_ += k;
    return k;
  }
  if (!inner_) return 0;
  size_t got = inner_->read(buf, n);
  if (got == 0 && inner_->failed()) error_ = inner_->error();
  return got;
}

}  // namespace sgfpat
