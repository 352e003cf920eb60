// Status: codes, predicates, context, and exceptions turned into codes.
#include <doctest/doctest.h>

#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/status.h"

using namespace sgfpat;
using Code = Status::Code;

namespace {

// Every predicate, in Code order (kNotFound first).
std::vector<bool> predicates(const Status& s) {
  return {s.is_not_found(),        s.is_corruption(), s.is_io_error(),      s.is_no_space(),  s.is_invalid_input(),
          s.is_invalid_argument(), s.is_busy(),       s.is_not_supported(), s.is_no_memory(), s.is_internal()};
}

}  // namespace

TEST_CASE("a default Status is ok, with no message") {
  Status s;
  CHECK(s.ok());
  CHECK(bool(s));
  CHECK(s.code() == Code::kOk);
  CHECK(s.message().empty());
  CHECK(s.to_string() == "OK");
  for (bool p : predicates(s)) CHECK_FALSE(p);
  CHECK(Status::OK().ok());
}

TEST_CASE("each named constructor gives its code, and only its predicate holds") {
  const std::vector<Status> all = {Status::NotFound("m"), Status::Corruption("m"),   Status::IOError("m"),
                                   Status::NoSpace("m"),  Status::InvalidInput("m"), Status::InvalidArgument("m"),
                                   Status::Busy("m"),     Status::NotSupported("m"), Status::NoMemory("m"),
                                   Status::Internal("m")};
  REQUIRE(all.size() + 1 == size_t(Code::kCount));  // a new code needs a line here
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    const Status& s = all[i];
    INFO("code " << i + 1 << " " << s.to_string());
    CHECK_FALSE(s.ok());
    CHECK_FALSE(bool(s));
    CHECK(s.code() == Code(i + 1));
    CHECK(s.message() == "m");
    std::vector<bool> p = predicates(s);
    for (size_t j = 0; j < p.size(); ++j) CHECK(p[j] == (j == i));
    // FromCode builds the same status.
    Status same = Status::FromCode(s.code(), "m");
    CHECK(same.code() == s.code());
    CHECK(same.message() == "m");
    names.insert(Status::code_name(s.code()));
  }
  CHECK(names.size() == all.size());  // every code has a name of its own
  CHECK(names.count("Unknown") == 0);
  CHECK(Status::FromCode(Code::kOk, "ignored").ok());
  CHECK(Status::FromCode(Code::kOk, "ignored").message().empty());
}

TEST_CASE("to_string names the code, message() is for people") {
  Status s = Status::Corruption("bad record");
  CHECK(s.message() == "bad record");
  CHECK(s.to_string() == "Corruption: bad record");
  CHECK(Status::Busy("locked").to_string() == "Busy: locked");
}

TEST_CASE("with_context keeps the code and prefixes the message") {
  Status s = Status::InvalidInput("move 3 (B C3): occupied point").with_context("a.sgf game #2");
  CHECK(s.is_invalid_input());
  CHECK(s.message() == "a.sgf game #2: move 3 (B C3): occupied point");
  Status twice = Status::NoSpace("disk full").with_context("writing counts").with_context("ingest");
  CHECK(twice.is_no_space());
  CHECK(twice.message() == "ingest: writing counts: disk full");
  // An ok status stays ok and gets no message.
  Status ok = Status::OK().with_context("anything");
  CHECK(ok.ok());
  CHECK(ok.message().empty());
}

TEST_CASE("status_from_exception turns what a catch block holds into a code") {
  auto from = [](auto thrower) {
    try {
      thrower();
    } catch (...) {
      return status_from_exception("while testing");
    }
    return Status::OK();
  };
  Status s = from([] { throw std::bad_alloc(); });
  CHECK(s.is_no_memory());
  CHECK(s.message().rfind("while testing: ", 0) == 0);
  s = from([] {
    std::vector<int> v;
    v.reserve(v.max_size() + 1);  // throws length_error
  });
  CHECK(s.is_no_memory());
  s = from([] { (void)std::stoull("not a number"); });
  CHECK(s.is_internal());
  CHECK(s.message().find("while testing") == 0);
  s = from([] { throw 42; });
  CHECK(s.is_internal());
  CHECK(from([] {}).ok());
}
