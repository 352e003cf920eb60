#include "core/status.h"

#include <exception>
#include <new>
#include <stdexcept>

namespace sgfpat {

Status status_from_exception(std::string_view context) {
  const std::string where = context.empty() ? std::string() : std::string(context) + ": ";
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return Status::NoMemory(where + "out of memory");
  } catch (const std::length_error& e) {
    return Status::NoMemory(where + "too large: " + e.what());
  } catch (const std::exception& e) {
    return Status::Internal(where + e.what());
  } catch (...) {
    return Status::Internal(where + "unknown exception");
  }
}

}  // namespace sgfpat
