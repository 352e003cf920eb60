// A small WebSocket client (RFC 6455) for the server tests, on a plain
// socket where every wait is bounded by poll(): it speaks the protocol as a
// page would, and also sends what no browser would (broken frames, binary
// frames, floods, raw bytes).  Header-only; no exceptions.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace testws {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

class WsClient {
 public:
  WsClient() = default;
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;
  ~WsClient() { close_socket(); }

  // A TCP connection to 127.0.0.1:port, nothing sent.
  bool connect_tcp(int port, std::string* why) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return fail(why, "socket failed");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return fail(why, "connect failed");
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return true;
  }

  // Connects and upgrades to a WebSocket at `path`; false (and *why) if the
  // server does not answer 101 within timeout_ms.
  bool connect(int port, std::string* why, const std::string& path = "/ws", const std::string& extra_headers = "",
               int timeout_ms = 10000) {
    if (!connect_tcp(port, why)) return false;
    const std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                            "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
                            extra_headers + "\r\n";
    if (!send_raw(req)) return fail(why, "sending the upgrade failed");
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos) {
      char c;
      if (!read_exact(&c, 1, deadline)) return fail(why, "no answer to the upgrade: '" + head + "'");
      head += c;
      if (head.size() > 16384) return fail(why, "answer too long");
    }
    status_line_ = head.substr(0, head.find("\r\n"));
    if (head.rfind("HTTP/1.1 101", 0) != 0) return fail(why, "upgrade refused: " + status_line_);
    return true;
  }

  const std::string& status_line() const { return status_line_; }
  bool closed() const { return closed_; }

  bool send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        closed_ = true;
        return false;
      }
      bytes.remove_prefix(size_t(n));
    }
    return true;
  }

  // One frame: opcode 1 text, 2 binary, 0 continuation, 8 close, 9 ping.
  bool send_frame(uint8_t opcode, std::string_view payload, bool fin = true, bool mask = true) {
    std::string f;
    f.push_back(char((fin ? 0x80 : 0) | (opcode & 0x0f)));
    const uint8_t m = mask ? 0x80 : 0;
    if (payload.size() < 126) {
      f.push_back(char(m | payload.size()));
    } else if (payload.size() < 65536) {
      f.push_back(char(m | 126));
      f.push_back(char(payload.size() >> 8));
      f.push_back(char(payload.size() & 255));
    } else {
      f.push_back(char(m | 127));
      for (int i = 7; i >= 0; --i) f.push_back(char((uint64_t(payload.size()) >> (8 * i)) & 255));
    }
    uint8_t key[4] = {0x12, 0x34, 0x56, 0x78};
    if (mask) f.append(reinterpret_cast<char*>(key), 4);
    const size_t at = f.size();
    f.append(payload);
    if (mask)
      for (size_t i = 0; i < payload.size(); ++i) f[at + i] = char(f[at + i] ^ key[i & 3]);
    return send_raw(f);
  }
  bool send_text(std::string_view text) { return send_frame(1, text); }
  bool send_json(const Json& j) { return send_text(j.dump()); }

  // The next whole text message within timeout_ms (pings answered, binary
  // messages skipped); false on a close, an error or the time running out.
  bool recv(std::string* msg, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    std::string data;
    uint8_t opcode = 0;
    for (;;) {
      uint8_t h[2];
      if (!read_exact(reinterpret_cast<char*>(h), 2, deadline)) return false;
      const bool fin = h[0] & 0x80;
      const uint8_t op = h[0] & 0x0f;
      uint64_t len = h[1] & 0x7f;
      if (len == 126) {
        uint8_t b[2];
        if (!read_exact(reinterpret_cast<char*>(b), 2, deadline)) return false;
        len = (uint64_t(b[0]) << 8) | b[1];
      } else if (len == 127) {
        uint8_t b[8];
        if (!read_exact(reinterpret_cast<char*>(b), 8, deadline)) return false;
        len = 0;
        for (uint8_t x : b) len = (len << 8) | x;
      }
      if (len > (64u << 20)) return false;
      std::string payload(size_t(len), '\0');
      if (len && !read_exact(payload.data(), size_t(len), deadline)) return false;
      if (op == 8) {  // close: answer it and stop
        close_code_ = payload.size() >= 2 ? (uint8_t(payload[0]) << 8) | uint8_t(payload[1]) : 1005;
        send_frame(8, payload.substr(0, 2));
        closed_ = true;
        return false;
      }
      if (op == 9) {
        send_frame(10, payload);
        continue;
      }
      if (op == 10) continue;
      if (op != 0) opcode = op;
      data += payload;
      if (!fin) continue;
      if (opcode == 1) {
        *msg = std::move(data);
        return true;
      }
      data.clear();
    }
  }

  // The next message (parsed) that `pred` accepts, skipping others; nullopt
  // when none comes within timeout_ms.
  std::optional<Json> wait_for(const std::function<bool(const Json&)>& pred, int timeout_ms = 10000) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0) return std::nullopt;
      std::string text;
      if (!recv(&text, left)) return std::nullopt;
      Json j = Json::parse(text, nullptr, false);
      if (!j.is_discarded() && pred(j)) return j;
    }
  }
  // The answer of kind `t` (or an error) to the request `id`.
  std::optional<Json> reply(int id, int timeout_ms = 10000) {
    return wait_for([id](const Json& j) { return j.contains("id") && j["id"] == id; }, timeout_ms);
  }
  // Sends `msg` with `id` and waits for its answer.
  std::optional<Json> ask(Json msg, int id, int timeout_ms = 10000) {
    msg["id"] = id;
    if (!send_json(msg)) return std::nullopt;
    return reply(id, timeout_ms);
  }

  // True once the server has closed the connection (read returns 0 or an
  // error, or a close frame), within timeout_ms.
  bool wait_closed(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    std::string ignored;
    while (!closed_ && Clock::now() < deadline) {
      const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (!recv(&ignored, std::max(1, left)) && !timed_out_) closed_ = true;
    }
    return closed_;
  }
  int close_code() const { return close_code_; }

  void close_socket() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  bool fail(std::string* why, const std::string& what) {
    if (why) *why = what;
    close_socket();
    return false;
  }

  bool read_exact(char* out, size_t n, Clock::time_point deadline) {
    timed_out_ = false;
    while (n > 0) {
      if (buf_pos_ < buf_.size()) {
        const size_t k = std::min(n, buf_.size() - buf_pos_);
        std::memcpy(out, buf_.data() + buf_pos_, k);
        buf_pos_ += k;
        out += k;
        n -= k;
        continue;
      }
      const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (left <= 0) {
        timed_out_ = true;
        return false;
      }
      pollfd p{fd_, POLLIN, 0};
      const int r = ::poll(&p, 1, left);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        timed_out_ = true;
        return false;
      }
      buf_.resize(65536);
      const ssize_t got = ::recv(fd_, buf_.data(), buf_.size(), 0);
      if (got <= 0) {
        if (got < 0 && errno == EINTR) continue;
        closed_ = true;
        buf_.clear();
        buf_pos_ = 0;
        return false;
      }
      buf_.resize(size_t(got));
      buf_pos_ = 0;
    }
    return true;
  }

  int fd_ = -1;
  std::string buf_;
  size_t buf_pos_ = 0;
  bool closed_ = false;
  bool timed_out_ = false;
  int close_code_ = 0;
  std::string status_line_;
};

}  // namespace testws
