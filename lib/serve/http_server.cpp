#include "serve/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>
#include <deque>
#include <iostream>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "serve/assets.h"

namespace sgfpat::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// Everything on this page comes from this server: scripts and styles are
// files of it (no inline code), the only connection is its own WebSocket.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'none'; object-src 'none'; media-src 'none'; frame-src 'none'; worker-src 'none'; "
    "manifest-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// Connections per peer address, for ServeLimits::max_connections_per_address.
class AddressCounter {
 public:
  bool acquire(const std::string& address, int limit) {
    std::lock_guard<std::mutex> lock(mu_);
    int& n = counts_[address];
    if (n >= limit) {
      if (n == 0) counts_.erase(address);
      return false;
    }
    ++n;
    return true;
  }
  void release(const std::string& address) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = counts_.find(address);
    if (it != counts_.end() && --it->second <= 0) counts_.erase(it);
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, int> counts_;
};

struct Shared {
  Hub* hub = nullptr;
  ServeLimits limits;
  AddressCounter counter;
  bool loopback = true;  // bound to a loopback address: only local host names are served
  int port = 0;
};

// One counted connection of an address, released when the last session
// holding it (HTTP, then maybe WebSocket) ends.
struct Ticket {
  Ticket(std::shared_ptr<Shared> s, std::string a) : shared(std::move(s)), address(std::move(a)) {}
  Ticket(const Ticket&) = delete;
  Ticket& operator=(const Ticket&) = delete;
  ~Ticket() { shared->counter.release(address); }
  const std::shared_ptr<Shared> shared;
  const std::string address;
};

// True when a Host header names this server as a page may reach it: any
// host when bound to a non-loopback address; otherwise a local name only,
// so that a web site resolving its own name to 127.0.0.1 (DNS rebinding)
// reaches nothing.
bool host_allowed(const Shared& s, std::string_view host) {
  if (host.empty() || host.size() > 255) return false;
  for (char c : host)
    if (static_cast<unsigned char>(c) <= 32 || static_cast<unsigned char>(c) >= 127) return false;
  if (!s.loopback) return true;
  std::string_view name = host;
  const std::string port = ":" + std::to_string(s.port);
  if (name.size() > port.size() && name.substr(name.size() - port.size()) == port)
    name.remove_suffix(port.size());
  return name == "localhost" || name == "127.0.0.1" || name == "[::1]";
}

class WsSession : public Connection, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, std::shared_ptr<Shared> shared, std::shared_ptr<Ticket> ticket)
      : ws_(std::move(socket)), shared_(std::move(shared)), ticket_(std::move(ticket)) {
    tokens_ = shared_->limits.message_burst;
    refilled_ = std::chrono::steady_clock::now();
  }

  void run(http::request<http::string_body> req) {
    beast::get_lowest_layer(ws_).expires_never();  // the WebSocket's own timeouts take over
    websocket::stream_base::timeout t = websocket::stream_base::timeout::suggested(beast::role_type::server);
    t.idle_timeout = std::chrono::seconds(shared_->limits.idle_seconds);
    t.keep_alive_pings = true;
    ws_.set_option(t);
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "sgfpat"); }));
    ws_.read_message_max(shared_->limits.max_message_bytes);
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

  void send(std::shared_ptr<const std::string> text) override {
    net::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      self->enqueue(std::move(text));
    });
  }
  void close() override {
    net::post(ws_.get_executor(), [self = shared_from_this()] { self->do_close(websocket::close_code::policy_error); });
  }
  const std::string& address() const override { return ticket_->address; }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    opened_ = true;
    shared_->hub->on_open(shared_from_this());
    do_read();
  }

  void do_read() { ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this())); }

  // One token per message from a bucket of message_burst that refills at
  // messages_per_second.
  bool take_token() {
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - refilled_).count();
    refilled_ = now;
    tokens_ = std::min(shared_->limits.message_burst, tokens_ + dt * shared_->limits.messages_per_second);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec) return finish();
    if (!ws_.got_text()) {
      enqueue(std::make_shared<const std::string>(error_message(nullptr, "bad_message", "text messages only (JSON)")));
    } else if (!take_token()) {
      if (++strikes_ > shared_->limits.flood_strikes) {
        // No more reading: what is queued (the "slow down" answers) goes
        // out, then the connection is closed.
        buffer_.consume(buffer_.size());
        close_after_writes_ = true;
        if (queue_.empty()) do_close(websocket::close_code::policy_error);
        return;
      }
      const Json id = request_id_of(beast::buffers_to_string(buffer_.data()), shared_->limits.max_json_depth);
      enqueue(std::make_shared<const std::string>(
          error_message(id, "slow_down", "too many messages: this one was dropped")));
    } else {
      strikes_ = 0;
      shared_->hub->on_message(shared_from_this(), beast::buffers_to_string(buffer_.data()));
    }
    buffer_.consume(buffer_.size());
    do_read();
  }

  void enqueue(std::shared_ptr<const std::string> text) {
    if (closing_ || finished_) return;
    if (queued_bytes_ + text->size() > shared_->limits.max_queued_bytes) {
      // A page that does not read what it is sent is dropped rather than
      // held in memory without bound.
      return do_close(websocket::close_code::policy_error);
    }
    queued_bytes_ += text->size();
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) do_write();
  }

  void do_write() {
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }

  void on_write(beast::error_code ec, size_t) {
    queued_bytes_ -= queue_.front()->size();
    queue_.pop_front();
    if (ec) return finish();
    if (!queue_.empty() && !closing_ && !finished_) do_write();
    else if (queue_.empty() && close_after_writes_) do_close(websocket::close_code::policy_error);
  }

  // Drops the messages not being written; the one an async_write is
  // sending (the front) must live until its handler runs.
  void drop_unsent() {
    if (queue_.size() > 1) queue_.erase(queue_.begin() + 1, queue_.end());
  }

  void do_close(websocket::close_code code) {
    if (closing_ || finished_) return;
    closing_ = true;
    drop_unsent();
    ws_.async_close(code, [self = shared_from_this()](beast::error_code) { self->finish(); });
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    drop_unsent();
    if (opened_) shared_->hub->on_close(this);
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<Ticket> ticket_;
  beast::flat_buffer buffer_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  size_t queued_bytes_ = 0;
  bool opened_ = false, closing_ = false, finished_ = false;
  bool close_after_writes_ = false;  // a flood: close once the queue is sent
  double tokens_ = 0;
  std::chrono::steady_clock::time_point refilled_;
  int strikes_ = 0;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<Shared> shared, std::shared_ptr<Ticket> ticket)
      : stream_(std::move(socket)), shared_(std::move(shared)), ticket_(std::move(ticket)) {}

  void run() { net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this())); }

 private:
  void do_read() {
    parser_.emplace();
    parser_->header_limit(uint32_t(shared_->limits.max_http_header_bytes));
    parser_->body_limit(4096);  // the page only GETs
    stream_.expires_after(std::chrono::seconds(shared_->limits.http_timeout_seconds));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }

  void on_read(beast::error_code ec, size_t) {
    if (ec == http::error::end_of_stream) return shutdown();
    if (ec) {
      // Too large, malformed or too slow: answered when the stream still
      // takes it, then closed.
      if (ec == http::error::header_limit || ec == http::error::body_limit)
        return respond(simple(http::status::payload_too_large, "request too large\n", 11, false));
      if (ec != beast::error::timeout && ec != net::error::operation_aborted)
        return respond(simple(http::status::bad_request, "bad request\n", 11, false));
      return;
    }
    http::request<http::string_body>& req = parser_->get();
    const std::string_view host(req[http::field::host].data(), req[http::field::host].size());
    if (!host_allowed(*shared_, host))
      return respond(simple(http::status::misdirected_request, "this server answers to localhost only\n",
                            req.version(), false));
    if (websocket::is_upgrade(req)) {
      if (req.target() != "/ws") return respond(simple(http::status::not_found, "not found\n", req.version(), false));
      // A page of another site must not open a WebSocket here (the
      // browser sends its origin; programs that send none are let in).
      auto origin = req.find(http::field::origin);
      std::string own_origin = "http://";
      own_origin += host;
      if (origin != req.end() && origin->value() != own_origin)
        return respond(simple(http::status::forbidden, "cross-origin WebSocket refused\n", req.version(), false));
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), shared_, ticket_)->run(parser_->release());
      return;
    }
    respond(answer(req));
  }

  http::response<http::string_body> simple(http::status status, std::string body, unsigned version, bool keep_alive) {
    http::response<http::string_body> res{status, version};
    res.set(http::field::server, "sgfpat");
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.set("Content-Security-Policy", kContentSecurityPolicy);
    res.set("X-Content-Type-Options", "nosniff");
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    return res;
  }

  http::response<http::string_body> answer(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head)
      return simple(http::status::method_not_allowed, "only GET\n", req.version(), req.keep_alive());
    std::string_view target(req.target().data(), req.target().size());
    if (size_t q = target.find('?'); q != std::string_view::npos) target = target.substr(0, q);
    const Asset* asset = find_asset(target);
    if (!asset) return simple(http::status::not_found, "not found\n", req.version(), req.keep_alive());
    http::response<http::string_body> res{http::status::ok, req.version()};
    res.set(http::field::server, "sgfpat");
    res.set(http::field::content_type, std::string(asset->content_type));
    res.set("Content-Security-Policy", kContentSecurityPolicy);
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "no-referrer");
    res.set("Cross-Origin-Opener-Policy", "same-origin");
    res.set("Cross-Origin-Resource-Policy", "same-origin");
    res.keep_alive(req.keep_alive());
    if (req.method() == http::verb::get) res.body() = std::string(asset->body);
    res.prepare_payload();
    if (req.method() == http::verb::head) res.content_length(asset->body.size());
    return res;
  }

  void respond(http::response<http::string_body>&& res) {
    auto shared_res = std::make_shared<http::response<http::string_body>>(std::move(res));
    const bool close = shared_res->need_eof();
    stream_.expires_after(std::chrono::seconds(shared_->limits.http_timeout_seconds));
    http::async_write(stream_, *shared_res,
                      [self = shared_from_this(), shared_res, close](beast::error_code ec, size_t) {
                        if (ec) return;
                        if (close) return self->shutdown();
                        self->do_read();
                      });
  }

  void shutdown() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  std::shared_ptr<Shared> shared_;
  std::shared_ptr<Ticket> ticket_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, std::shared_ptr<Shared> shared)
      : ioc_(ioc), acceptor_(net::make_strand(ioc)), retry_(ioc), shared_(std::move(shared)) {}

  Status listen(const tcp::endpoint& endpoint) {
    beast::error_code ec;
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
      return Status::IOError("cannot listen on " + endpoint.address().to_string() + " port " +
                             std::to_string(endpoint.port()) + ": " + ec.message());
    return Status::OK();
  }
  int port() const { return acceptor_.local_endpoint().port(); }
  void start() { do_accept(); }
  void stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
      beast::error_code ec;
      self->acceptor_.close(ec);
    });
  }

 private:
  void do_accept() {
    acceptor_.async_accept(net::make_strand(ioc_), beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }

  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (ec) {
      // Out of descriptors or the like: wait a little rather than spin.
      retry_.expires_after(std::chrono::milliseconds(100));
      retry_.async_wait([self = shared_from_this()](beast::error_code e) {
        if (!e) self->do_accept();
      });
      return;
    }
    beast::error_code addr_ec;
    const std::string address = socket.remote_endpoint(addr_ec).address().to_string();
    if (!addr_ec && shared_->counter.acquire(address, shared_->limits.max_connections_per_address)) {
      // Answers go out as soon as they are written: without this, an
      // answer written in two pieces waits for the page's delayed ACK
      // (~40 ms on Linux) before its second piece leaves.
      beast::error_code nodelay_ec;
      socket.set_option(tcp::no_delay(true), nodelay_ec);
      auto ticket = std::make_shared<Ticket>(shared_, address);
      std::make_shared<HttpSession>(std::move(socket), shared_, std::move(ticket))->run();
    } else {
      beast::error_code ignored;
      socket.close(ignored);
    }
    do_accept();
  }

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  net::steady_timer retry_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace

struct HttpServer::Impl {
  explicit Impl(int threads) : ioc(std::max(1, threads)), signals(ioc, SIGINT, SIGTERM) {}
  net::io_context ioc;
  net::signal_set signals;
  std::shared_ptr<Listener> listener;
  int threads = 1;
};

HttpServer::~HttpServer() = default;

Status HttpServer::Start(const ServerOptions& options, Hub* hub, std::unique_ptr<HttpServer>* out) {
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(options.bind, ec);
  if (ec) return Status::InvalidArgument("--bind '" + options.bind + "' is not an IP address");
  if (options.port < 0 || options.port > 65535) return Status::InvalidArgument("--port must be 0 to 65535");
  std::unique_ptr<HttpServer> server(new HttpServer());
  server->impl_ = std::make_unique<Impl>(options.threads);
  server->impl_->threads = std::max(1, options.threads);
  auto shared = std::make_shared<Shared>();
  shared->hub = hub;
  shared->limits = options.limits;
  shared->loopback = address.is_loopback();
  server->impl_->listener = std::make_shared<Listener>(server->impl_->ioc, shared);
  Status st = server->impl_->listener->listen(tcp::endpoint(address, uint16_t(options.port)));
  if (!st.ok()) return st;
  shared->port = server->impl_->listener->port();
  *out = std::move(server);
  return Status::OK();
}

int HttpServer::port() const { return impl_->listener->port(); }

void HttpServer::run() {
  impl_->signals.async_wait([this](beast::error_code, int) { stop(); });
  impl_->listener->start();
  std::vector<std::thread> others;
  for (int i = 1; i < impl_->threads; ++i) others.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : others) t.join();
}

void HttpServer::stop() {
  impl_->listener->stop();
  impl_->ioc.stop();
}

}  // namespace sgfpat::serve
