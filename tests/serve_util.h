// `sgfpat serve` run by a test: started with its arguments (and a fail
// point, if asked), ready when it prints its URL, stopped by SIGTERM or
// killed by SIGKILL, every wait bounded.
#pragma once
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace testserve {

class ServeProcess {
 public:
  // Starts `sgfpat serve --port 0 ARGS...` with stdout and stderr in files
  // of `scratch`; REQUIREs its URL line within 30 s.
  ServeProcess(const std::string& scratch, std::vector<std::string> args, const std::string& fail_point = "")
      : scratch_(scratch) {
    static int serial = 0;
    const std::string tag = std::to_string(++serial);
    out_ = scratch + "/serve" + tag + ".out";
    err_ = scratch + "/serve" + tag + ".err";
    args.insert(args.begin(), {testutil::sgfpat_binary(), "serve", "--port", "0"});
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      if (!fail_point.empty()) setenv("SGFPAT_FAIL_POINT", fail_point.c_str(), 1);
      else unsetenv("SGFPAT_FAIL_POINT");
      const int o = open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int e = open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int i = open("/dev/null", O_RDONLY);
      if (o < 0 || e < 0 || i < 0) _exit(126);
      dup2(i, 0);
      dup2(o, 1);
      dup2(e, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    static const std::regex kUrl("http://127\\.0\\.0\\.1:([0-9]+)/");
    while (std::chrono::steady_clock::now() < deadline) {
      std::smatch m;
      const std::string out = testutil::read_file(out_);
      if (std::regex_search(out, m, kUrl)) {
        port_ = std::stoi(m[1]);
        return;
      }
      if (exited(0)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    INFO("stderr: " << stderr_text());
    FAIL_CHECK("sgfpat serve did not print its URL within 30 s");
    kill9();
    REQUIRE(false);
  }
  ~ServeProcess() {
    if (running()) kill9();
  }

  int port() const { return port_; }
  std::string stderr_text() const { return testutil::read_file(err_); }
  bool running() { return pid_ > 0 && !exited(0); }

  // Waits up to timeout_ms for the process to end; true if it has.
  bool exited(int timeout_ms) {
    if (done_) return true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      int st = 0;
      const pid_t r = waitpid(pid_, &st, WNOHANG);
      if (r == pid_) {
        done_ = true;
        status_ = st;
        return true;
      }
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  int status() const { return status_; }

  void kill9() {
    if (done_) return;
    ::kill(pid_, SIGKILL);
    REQUIRE_MESSAGE(exited(20000), "sgfpat serve did not die within 20 s of SIGKILL");
  }
  // SIGTERM: a clean stop; REQUIREs exit code 0 within 20 s.
  void stop() {
    if (done_) return;
    ::kill(pid_, SIGTERM);
    REQUIRE_MESSAGE(exited(20000), "sgfpat serve did not stop within 20 s of SIGTERM");
    CHECK(WIFEXITED(status_));
    CHECK(WEXITSTATUS(status_) == 0);
  }

 private:
  std::string scratch_, out_, err_;
  pid_t pid_ = -1;
  int port_ = 0;
  bool done_ = false;
  int status_ = 0;
};

}  // namespace testserve
