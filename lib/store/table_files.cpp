#include "store/table_files.h"

#include <rocksdb/db.h>
#include <rocksdb/sst_file_writer.h>

#include <algorithm>
#include <filesystem>

#include "core/tasks.h"
#include "store/rocks_status.h"

namespace sgfpat {

namespace {

// Writes one file; *written says how many entries it got.
Status write_table(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& file,
                   const std::string& what, const TableFill& fill, uint64_t* written) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db->GetOptions(cf), cf);
  Status st = from_rocks(writer.Open(file), "writing " + what + " to " + file);
  if (!st.ok()) return st;
  st = fill([&](std::string_view key, std::string_view value) {
    ++*written;
    const rocksdb::Status s =
        writer.Put(rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(value.data(), value.size()));
    // The message only on failure: building it for every entry cost a
    // tenth of the writing.
    return s.ok() ? Status::OK() : from_rocks(s, "writing " + what + " to " + file);
  });
  if (st.ok() && *written > 0) st = from_rocks(writer.Finish(), "writing " + what + " to " + file);
  return st;
}

// Removes the files a killed call left: `name`.* in `dir` (a name may
// still be a second link to a table taken in, holding its space after
// RocksDB deletes it).
void remove_left_files(const std::string& dir, const std::string& name) {
  std::error_code ec;
  std::vector<std::filesystem::path> left;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().filename().string().starts_with(name + ".")) left.push_back(e.path());
  for (const auto& p : left) std::filesystem::remove(p, ec);
}

}  // namespace

Status take_in_together(rocksdb::DB* db, const std::string& dir, const std::string& name, const std::string& what,
                        const std::vector<FamilyEdits>& edits) {
  remove_left_files(dir, name);
  std::vector<rocksdb::IngestExternalFileArg> args;
  std::vector<std::string> files;
  Status st;
  for (size_t i = 0; st.ok() && i < edits.size(); ++i) {
    const std::string file = dir + "/" + name + "." + std::to_string(i);
    files.push_back(file);
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), db->GetOptions(edits[i].cf), edits[i].cf);
    st = from_rocks(writer.Open(file), "writing " + what + " to " + file);
    uint64_t written = 0;
    if (st.ok())
      st = edits[i].fill([&](TableOp op, std::string_view key, std::string_view value) {
        ++written;
        const rocksdb::Slice k(key.data(), key.size()), v(value.data(), value.size());
        const rocksdb::Status s = op == TableOp::kPut     ? writer.Put(k, v)
                                  : op == TableOp::kMerge ? writer.Merge(k, v)
                                                          : writer.Delete(k);
        return s.ok() ? Status::OK() : from_rocks(s, "writing " + what + " to " + file);
      });
    if (st.ok() && written > 0) {
      st = from_rocks(writer.Finish(), "writing " + what + " to " + file);
      rocksdb::IngestExternalFileArg arg;
      arg.column_family = edits[i].cf;
      arg.external_files = {file};
      arg.options.move_files = true;
      // The sequence number in the MANIFEST only: RocksDB's repair sets
      // aside, as corrupt, an external file whose header holds one (its
      // keys read 0).  Repair recounts from the stored games and drops what
      // these files are (counts of a generation, pending patterns, the
      // frontier index, pending marks): their order there does not matter.
      arg.options.write_global_seqno = false;
      args.push_back(std::move(arg));
    }
  }
  if (st.ok() && !args.empty()) st = from_rocks(db->IngestExternalFiles(args), "taking in " + what);
  for (const std::string& f : files) {
    std::error_code ec;
    std::filesystem::remove(f, ec);
  }
  return st;
}

Status take_in_tables(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& dir,
                      const std::string& name, const std::string& what, bool seqno_in_file,
                      const std::vector<TableFill>& fills, int threads) {
  // Files a killed call left (the calls before this one named their single
  // file `name`.sst.tmp): gone first.
  remove_left_files(dir, name);
  const size_t n = fills.size();
  std::vector<std::string> files(n);
  for (size_t i = 0; i < n; ++i) files[i] = dir + "/" + name + "." + std::to_string(i);
  std::vector<uint64_t> written(n, 0);
  const std::vector<Status> results = run_tasks(
      n, threads, [&](size_t i) { return write_table(db, cf, files[i], what, fills[i], &written[i]); },
      "writing " + what);

  Status st;
  std::vector<std::string> taken;
  for (size_t i = 0; i < n; ++i) {
    if (st.ok() && !results[i].ok()) st = results[i];
    if (written[i] > 0) taken.push_back(files[i]);
  }
  rocksdb::IngestExternalFileOptions io;
  io.move_files = true;
  io.write_global_seqno = seqno_in_file;
  if (st.ok() && !taken.empty() && !seqno_in_file)
    st = from_rocks(db->IngestExternalFile(cf, taken, io), "taking in " + what);
  // Files taken in together that need a sequence number share one, and
  // RocksDB's repair (which puts every file in level 0, where no two may
  // share one) would reject two with the same number in their headers:
  // one at a time, then.
  for (size_t i = 0; st.ok() && seqno_in_file && i < taken.size(); ++i)
    st = from_rocks(db->IngestExternalFile(cf, {taken[i]}, io), "taking in " + what);
  for (const std::string& f : files) {
    std::error_code ec;
    std::filesystem::remove(f, ec);
  }
  return st;
}

}  // namespace sgfpat
