#include "store/diary_logger.h"

#include <rocksdb/env.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>

namespace sgfpat {

namespace {
class DiaryLogger : public rocksdb::Logger {
 public:
  explicit DiaryLogger(std::FILE* f) : rocksdb::Logger(rocksdb::InfoLogLevel::INFO_LEVEL), f_(f) {}
  ~DiaryLogger() override { close_file(); }

  using rocksdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!f_) return;
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y/%m/%d-%H:%M:%S ", localtime_r(&now, &tm));
    bool ok = std::fputs(stamp, f_) >= 0;
    ok = ok && std::vfprintf(f_, format, ap) >= 0;
    ok = ok && std::fputc('\n', f_) != EOF && std::fflush(f_) == 0;
    // A diary line is not worth more: the first failure (a full disk)
    // ends the diary, and the database's own writes report the error.
    if (!ok) close_file();
  }

 protected:
  rocksdb::Status CloseImpl() override {
    std::lock_guard<std::mutex> lock(mu_);
    close_file();
    return rocksdb::Status::OK();
  }

 private:
  void close_file() {
    if (f_) std::fclose(f_);
    f_ = nullptr;
  }
  std::mutex mu_;
  std::FILE* f_;
};
}  // namespace

std::shared_ptr<rocksdb::Logger> open_diary_logger(const std::string& dir) {
  const std::string log = dir + "/LOG";
  std::error_code ec;
  if (std::filesystem::exists(log, ec)) std::filesystem::rename(log, log + ".old", ec);
  std::FILE* f = std::fopen(log.c_str(), "w");
  if (!f) return nullptr;
  return std::make_shared<DiaryLogger>(f);
}

}  // namespace sgfpat
