// `cmake --install` gives a prefix whose sgfpat works from any folder with
// no source tree: the binary names nothing of the sources, finds the
// configuration installed beside it, and the drop-in reader headers compile
// on their own in an engine's program.
#include <doctest/doctest.h>

#include "test_util.h"

using namespace testutil;

namespace {

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

TEST_CASE("an installed sgfpat works from any folder, with its configuration and the drop-in headers") {
  TempDir prefix("sgfpat-install");
  TempDir elsewhere("sgfpat-install-cwd");
  RunResult inst = run({"/bin/sh", "-c",
                        quote(SGFPAT_CMAKE) + " --install " + quote(SGFPAT_BUILD_DIR) + " --prefix " +
                            quote(prefix.path())},
                       elsewhere.path());
  INFO(inst.out << inst.err);
  REQUIRE(inst.exit_code == 0);

  const std::string bin = prefix / "bin/sgfpat";
  const std::string config = prefix / "etc/sgfpat/sgfpat.toml";
  REQUIRE(fs::is_regular_file(bin));
  CHECK(fs::is_regular_file(config));
  CHECK(fs::is_regular_file(prefix / "include/sgfpat/sgfpat_priors.h"));
  CHECK(fs::is_regular_file(prefix / "share/doc/sgfpat/README.md"));
  // Nothing of the source tree is built into the binary.
  CHECK(read_file(bin).find(SGFPAT_SOURCE_DIR) == std::string::npos);

  auto in_elsewhere = [&](const std::string& command) {
    return run({"/bin/sh", "-c", "cd " + quote(elsewhere.path()) + " && env -u SGFPAT_CONFIG " + command},
               elsewhere.path());
  };
  // The installed configuration is the default one...
  RunResult help = in_elsewhere(quote(bin) + " --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find(fs::weakly_canonical(config).string()) != std::string::npos);
  // ...and it is read: a key no command knows is refused, naming it.
  const std::string original = read_file(config);
  write_file(config, original + "\n[ingest]\nno-such-key = 1\n");
  RunResult bad = in_elsewhere(quote(bin) + " ingest --db db " + quote(sample_path()));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("no-such-key") != std::string::npos);
  write_file(config, original);

  // A whole tour step from the other folder: ingest, export, eval.
  write_file(elsewhere / "games.sgf", join(sample_lines(0, 60)));
  RunResult ingest = in_elsewhere(quote(bin) + " ingest --db db --levels 4 --threads 1 --quiet games.sgf");
  INFO(ingest.err);
  REQUIRE(ingest.exit_code == 0);
  RunResult exported = in_elsewhere(quote(bin) + " export --db db -o go.priors");
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);

  // An engine's program built against the installed headers alone reads it.
  write_file(elsewhere / "engine.cpp", R"(
#include <sgfpat/sgfpat_priors.h>
#include <cstdio>
int main(int argc, char** argv) {
  sgfpat_priors::Priors p;
  std::string error;
  if (argc < 2 || !p.open(argv[1], &error)) { std::fprintf(stderr, "%s\n", error.c_str()); return 1; }
  std::printf("levels %d\n", p.levels());
  return 0;
}
)");
  RunResult cc = in_elsewhere(quote(SGFPAT_CXX) + " -std=c++17 -O0 -I " + quote(prefix / "include") +
                              " engine.cpp -o engine");
  INFO(cc.err);
  REQUIRE(cc.exit_code == 0);
  RunResult engine = in_elsewhere("./engine go.priors");
  INFO(engine.err);
  CHECK(engine.exit_code == 0);
  CHECK(engine.out == "levels 4\n");
}
