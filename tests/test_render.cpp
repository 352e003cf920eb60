// SVG drawings checked by rendering them with a real renderer (rsvg-convert
// of librsvg2-bin) and reading the picture's pixels back: stones, wood,
// marks where the geometry in render/svg_board.h says they are.
#include <zlib.h>

#include <array>
#include <cstdlib>

#include "render/svg_board.h"
#include "test_util.h"

using namespace sgfpat;
using namespace testutil;

namespace {

// An 8-bit RGB or RGBA, non-interlaced PNG (what rsvg-convert writes), decoded.
struct Picture {
  int width = 0, height = 0, channels = 0;
  std::vector<uint8_t> pixels;  // rows of width * channels bytes
  std::array<int, 3> at(int x, int y) const {
    const uint8_t* p = &pixels[size_t((y * width + x) * channels)];
    return {p[0], p[1], p[2]};
  }
};

uint32_t be32(const std::string& s, size_t at) {
  return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 | uint32_t(uint8_t(s[at + 2])) << 8 |
         uint8_t(s[at + 3]);
}

Picture decode_png(const std::string& file) {
  const std::string s = read_file(file);
  REQUIRE(s.size() > 8);
  REQUIRE(s.compare(1, 3, "PNG") == 0);
  Picture pic;
  std::string idat;
  for (size_t at = 8; at + 8 <= s.size();) {
    const uint32_t len = be32(s, at);
    const std::string type = s.substr(at + 4, 4);
    if (type == "IHDR") {
      pic.width = int(be32(s, at + 8));
      pic.height = int(be32(s, at + 12));
      REQUIRE(uint8_t(s[at + 16]) == 8);  // bit depth
      const int colour = uint8_t(s[at + 17]);
      REQUIRE((colour == 2 || colour == 6));
      pic.channels = colour == 6 ? 4 : 3;
      REQUIRE(uint8_t(s[at + 20]) == 0);  // not interlaced
    } else if (type == "IDAT") {
      idat += s.substr(at + 8, len);
    }
    at += 12 + len;
  }
  const size_t stride = size_t(pic.width * pic.channels);
  std::vector<uint8_t> raw((stride + 1) * size_t(pic.height));
  uLongf raw_len = raw.size();
  REQUIRE(uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) == Z_OK);
  pic.pixels.assign(stride * size_t(pic.height), 0);
  const int bpp = pic.channels;
  for (int y = 0; y < pic.height; ++y) {
    const uint8_t filter = raw[size_t(y) * (stride + 1)];
    const uint8_t* in = &raw[size_t(y) * (stride + 1) + 1];
    uint8_t* out = &pic.pixels[size_t(y) * stride];
    const uint8_t* up = y > 0 ? out - stride : nullptr;
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= size_t(bpp) ? out[i - size_t(bpp)] : 0, b = up ? up[i] : 0,
                c = (up && i >= size_t(bpp)) ? up[i - size_t(bpp)] : 0;
      int pred = 0;
      switch (filter) {
        case 0: pred = 0; break;
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c;
          break;
        }
        default: FAIL("bad PNG filter");
      }
      out[i] = uint8_t(in[i] + pred);
    }
  }
  return pic;
}

Picture render(const std::string& svg_file, const std::string& png_file) {
  const std::string cmd = "rsvg-convert -b white -o '" + png_file + "' '" + svg_file + "'";
  INFO("rsvg-convert is in librsvg2-bin (scripts/deps.sh)");
  REQUIRE(std::system(cmd.c_str()) == 0);
  return decode_png(png_file);
}

std::array<int, 3> rgb(const char* hex) {
  const long v = std::strtol(hex + 1, nullptr, 16);
  return {int(v >> 16 & 255), int(v >> 8 & 255), int(v & 255)};
}

bool near(std::array<int, 3> a, std::array<int, 3> b, int tol = 40) {
  for (int i = 0; i < 3; ++i)
    if (std::abs(a[size_t(i)] - b[size_t(i)]) > tol) return false;
  return true;
}

}  // namespace

TEST_CASE("a board drawn as SVG renders stones, wood and marks at their points") {
  TempDir dir("sgfpat-render");
  Board board(9);
  REQUIRE(board.play(Point{2, 2}, Color::Black) == MoveError::None);
  REQUIRE(board.play(Point{6, 6}, Color::White) == MoveError::None);
  SvgOptions o;
  o.cell = 30;
  o.last = Point{6, 6};
  o.marks.push_back({Point{4, 2}, "12", "55%"});
  write_file(dir / "b.svg", board_svg(board, o));
  const Picture pic = render(dir / "b.svg", dir / "b.png");
  CHECK(pic.width == 10 * 30);
  CHECK(pic.height == 10 * 30);
  auto centre = [&](int x, int y, int dx = 0, int dy = 0) { return pic.at(30 + x * 30 + dx, 30 + y * 30 + dy); };
  // Off the stone's centre a little (the last-move ring and text are elsewhere).
  CHECK(near(centre(2, 2, 5, 5), {0, 0, 0}));
  CHECK(near(centre(6, 6, 3, 10), {255, 255, 255}));
  CHECK(near(centre(4, 2, 11, -5), rgb(kSvgMark)));
  // Wood between lines, where nothing is.
  CHECK(near(centre(0, 7, 15 - 4, 15 - 4), rgb(kSvgWood)));
  CHECK(near(centre(5, 5, 10, 10), rgb(kSvgWood)));
  // A grid line is darker than the wood (anti-aliased over two rows).
  const auto line = centre(3, 7, 8, 0), wood = rgb(kSvgWood);
  CHECK(line[0] + line[1] + line[2] < (wood[0] + wood[1] + wood[2]) * 3 / 4);
}

TEST_CASE("sgfpat board --svg writes a drawing of the position") {
  TempDir dir("sgfpat-render");
  write_file(dir / "g.sgf", "(;GM[1]SZ[9];B[cc];W[gg];B[cg])");
  RunResult r = run({SGFPAT_BINARY, "board", dir / "g.sgf", "--svg", dir / "g.svg"}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Picture pic = render(dir / "g.svg", dir / "g.png");
  const int cell = pic.width / 10;
  // Off the centre by a third of a cell: past the last-move ring, inside the stone.
  auto centre = [&](int x, int y) { return pic.at(cell + x * cell + cell / 3, cell + y * cell + cell / 10); };
  CHECK(near(centre(2, 2), {0, 0, 0}));
  CHECK(near(centre(6, 6), {255, 255, 255}));
  CHECK(near(centre(2, 6), {0, 0, 0}));
  CHECK(near(centre(4, 4), rgb(kSvgWood), 60));
}

TEST_CASE("sgfpat query --svg lights the pattern's diamond and marks the point; --pattern draws the pattern") {
  TempDir dir("sgfpat-render");
  // Twenty copies of one short 9x9 game (different names: different games),
  // so that the patterns of its moves are played often.
  std::string games;
  for (int i = 0; i < 20; ++i)
    games += "(;GM[1]SZ[9]PB[b" + std::to_string(i) + "]RE[B+1];B[ee];W[ce];B[gc];W[cg];B[ge])\n";
  write_file(dir / "g.sgf", games);
  RunResult r = run({SGFPAT_BINARY, "ingest", "--db", dir / "db", "--quiet", "--levels", "3", dir / "g.sgf"}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // After move 2, Black to move at G7 (gc): played in all 20 games.
  r = run({SGFPAT_BINARY, "query", "--db", dir / "db", "--sgf", dir / "g.sgf", "--move", "2", "--point", "G7", "--json",
           "--svg", dir / "q.svg"},
          dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const int largest = j["largest_level"].get<int>();
  REQUIRE(largest >= 1);
  const Picture pic = render(dir / "q.svg", dir / "q.png");
  const int cell = pic.width / 10;
  auto at = [&](int x, int y, int dx, int dy) { return pic.at(cell + x * cell + dx, cell + y * cell + dy); };
  // G7 is (6, 2): the mark's disc there; wood just inside the diamond, and
  // a dimmed board far outside it (A1 is 10 rings away).
  CHECK(near(at(6, 2, cell / 3, -cell / 6), rgb(kSvgMark)));
  CHECK(near(at(6, 2 + largest, cell / 4, -cell / 4), rgb(kSvgWood), 30));
  const auto far = at(0, 8, cell / 4, -cell / 4), wood = rgb(kSvgWood);
  CHECK_FALSE(near(far, wood, 10));
  CHECK(far[0] + far[1] + far[2] < wood[0] + wood[1] + wood[2]);

  // --pattern: the pattern on its own board, X (to move) black, O white.
  // Level 1 in spec order: north, east, south, west of the point.
  r = run({SGFPAT_BINARY, "query", "--db", dir / "db", "--pattern", "X.O.", "--svg", dir / "p.svg"}, dir.path());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Picture pp = render(dir / "p.svg", dir / "p.png");
  const int pc = pp.width / 4;  // a 3x3 board
  auto pat = [&](int x, int y) { return pp.at(pc + x * pc + pc / 4, pc + y * pc + pc / 4); };
  CHECK(near(pat(1, 0), {0, 0, 0}));        // north: X
  CHECK(near(pat(1, 2), {255, 255, 255}));  // south: O
}
