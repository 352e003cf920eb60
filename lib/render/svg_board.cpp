#include "render/svg_board.h"

#include <sstream>

namespace sgfpat {

namespace {
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

bool is_star(int x, int y, int n) {
  if (n < 7) return false;
  const int edge = n >= 13 ? 3 : 2;
  auto line = [&](int v) { return v == edge || v == n - 1 - edge || (n % 2 == 1 && n >= 13 && v == n / 2); };
  return line(x) && line(y);
}
}  // namespace

std::string board_svg(const Board& board, const SvgOptions& o) {
  const int n = board.size(), c = o.cell, m = c, full = (n + 1) * c;
  auto px = [&](int v) { return m + v * c; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << full << "\" height=\"" << full << "\" viewBox=\"0 0 "
    << full << " " << full << "\">\n";
  if (!o.title.empty()) s << "<title>" << escape(o.title) << "</title>\n";
  s << "<rect x=\"0\" y=\"0\" width=\"" << full << "\" height=\"" << full << "\" fill=\"" << kSvgWood << "\"/>\n";
  s << "<g stroke=\"#000000\" stroke-width=\"1\">\n";
  for (int i = 0; i < n; ++i) {
    s << "<line x1=\"" << px(0) << "\" y1=\"" << px(i) << "\" x2=\"" << px(n - 1) << "\" y2=\"" << px(i) << "\"/>\n";
    s << "<line x1=\"" << px(i) << "\" y1=\"" << px(0) << "\" x2=\"" << px(i) << "\" y2=\"" << px(n - 1) << "\"/>\n";
  }
  s << "</g>\n";
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (is_star(x, y, n))
        s << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y) << "\" r=\"" << std::max(2, c / 10)
          << "\" fill=\"#000000\"/>\n";
  // Coordinates: letters above and below, numbers (1 at the bottom) left and right.
  const int font = std::max(8, c * 2 / 5);
  s << "<g font-family=\"sans-serif\" font-size=\"" << font << "\" fill=\"#000000\" text-anchor=\"middle\">\n";
  for (int i = 0; i < n; ++i) {
    const std::string letter = gtp_name(Point{int8_t(i), int8_t(n - 1)}, n).substr(0, 1);
    const std::string number = std::to_string(n - i);
    s << "<text x=\"" << px(i) << "\" y=\"" << m / 2 - font / 3 + font / 2 << "\">" << letter << "</text>";
    s << "<text x=\"" << px(i) << "\" y=\"" << full - m / 2 + font / 3 << "\">" << letter << "</text>\n";
    s << "<text x=\"" << m / 2 - 2 << "\" y=\"" << px(i) + font / 3 << "\">" << number << "</text>";
    s << "<text x=\"" << full - m / 2 + 2 << "\" y=\"" << px(i) + font / 3 << "\">" << number << "</text>\n";
  }
  s << "</g>\n";
  if (!o.inside.empty()) {
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        if (size_t(y * n + x) < o.inside.size() && !o.inside[size_t(y * n + x)])
          s << "<rect x=\"" << px(x) - c / 2 << "\" y=\"" << px(y) - c / 2 << "\" width=\"" << c << "\" height=\"" << c
            << "\" fill=\"#808080\" fill-opacity=\"0.45\"/>\n";
  }
  const double r = c * 0.47;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const Color col = board.at(Point{int8_t(x), int8_t(y)});
      if (col == Color::Empty) continue;
      s << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y) << "\" r=\"" << r << "\" fill=\""
        << (col == Color::Black ? "#000000" : "#ffffff") << "\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    }
  if (!o.last.is_pass() && board.on_board(o.last)) {
    const bool black = board.at(o.last) == Color::Black;
    s << "<circle cx=\"" << px(o.last.x) << "\" cy=\"" << px(o.last.y) << "\" r=\"" << c * 0.25
      << "\" fill=\"none\" stroke=\"" << (black ? "#ffffff" : "#000000") << "\" stroke-width=\"2\"/>\n";
  }
  for (const SvgMark& mk : o.marks) {
    if (mk.point.is_pass() || !board.on_board(mk.point)) continue;
    const int cx = px(mk.point.x), cy = px(mk.point.y);
    s << "<circle cx=\"" << cx << "\" cy=\"" << cy << "\" r=\"" << c * 0.46 << "\" fill=\"" << kSvgMark << "\"/>\n";
    const int f = std::max(6, c * 3 / 10);
    s << "<g font-family=\"sans-serif\" font-size=\"" << f << "\" fill=\"#ffffff\" text-anchor=\"middle\">";
    if (mk.line2.empty()) {
      s << "<text x=\"" << cx << "\" y=\"" << cy + f / 3 << "\">" << escape(mk.line1) << "</text>";
    } else {
      s << "<text x=\"" << cx << "\" y=\"" << cy - f / 5 << "\">" << escape(mk.line1) << "</text>";
      s << "<text x=\"" << cx << "\" y=\"" << cy + f << "\">" << escape(mk.line2) << "</text>";
    }
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace sgfpat
