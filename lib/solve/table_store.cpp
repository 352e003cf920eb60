#include "solve/table_store.h"

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "core/format_version.h"

namespace sgfpat::solve {

namespace {

std::string cell_key(int w, int h, uint64_t index) {
  std::string k(10, '\0');
  k[0] = char(w);
  k[1] = char(h);
  for (int i = 0; i < 8; ++i) k[size_t(2 + i)] = char((index >> (56 - 8 * i)) & 0xff);
  return k;
}
std::string meta_key(int w, int h) { return std::string{char(w), char(h)} + "meta"; }

uint64_t get64(const std::string& s, size_t at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | uint8_t(s[at + size_t(i)]);
  return v;
}
void put64(std::string* s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s->push_back(char((v >> (56 - 8 * i)) & 0xff));
}

const char kFormatKey[] = "format";

// The database's format version checked (a database without the record is
// version 1).
Status check_version(rocksdb::DB* db, const std::string& dir) {
  std::string v;
  rocksdb::Status s = db->Get(rocksdb::ReadOptions(), kFormatKey, &v);
  if (s.IsNotFound()) return check_format_version(kRetroTableFormat, 1, dir);
  if (!s.ok()) return Status::IOError("reading table database " + dir + ": " + s.ToString());
  if (v.size() != 4) return Status::Corruption(dir + ": damaged format record (" + std::to_string(v.size()) + " bytes)");
  return check_format_version(kRetroTableFormat, uint32_t(get64(std::string(4, '\0') + v, 0)), dir);
}

}  // namespace

Status write_table(const std::string& dir, const RetroTable& table, TableSummary* summary) {
  rocksdb::Options opt;
  opt.create_if_missing = true;
  opt.compression = rocksdb::kNoCompression;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(opt, dir, &raw);
  if (!s.ok()) return Status::IOError("cannot open table database " + dir + ": " + s.ToString());
  std::unique_ptr<rocksdb::DB> db(raw);
  Status st = check_version(db.get(), dir);
  if (!st.ok()) return st;
  std::string version(4, '\0');
  for (int i = 0; i < 4; ++i) version[size_t(i)] = char((kRetroTableFormat.current >> (24 - 8 * i)) & 0xff);
  s = db->Put(rocksdb::WriteOptions(), kFormatKey, version);
  if (!s.ok()) return Status::IOError("writing table " + dir + ": " + s.ToString());
  const Geometry& g = table.geometry();
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;  // the summary is written after a flush: a crash leaves no complete-looking table
  rocksdb::WriteBatch batch;
  TableSummary sum;
  for (uint64_t i = 0; i < table.cells(); ++i) {
    uint8_t c = table.cell(i);
    if (!(c & 0x80)) continue;
    ++sum.positions;
    if (c & 0x40) ++sum.wins;
    batch.Put(cell_key(g.width(), g.height(), i), std::string(1, char(c)));
    if (batch.Count() >= 100000) {
      s = db->Write(wo, &batch);
      if (!s.ok()) return Status::IOError("writing table " + dir + ": " + s.ToString());
      batch.Clear();
    }
  }
  s = db->Write(wo, &batch);
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  std::string meta;
  put64(&meta, sum.positions);
  put64(&meta, sum.wins);
  if (s.ok()) s = db->Put(rocksdb::WriteOptions(), meta_key(g.width(), g.height()), meta);
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return Status::IOError("writing table " + dir + ": " + s.ToString());
  *summary = sum;
  return Status::OK();
}

TableReader::TableReader() = default;
TableReader::~TableReader() = default;

Status TableReader::open(const std::string& dir) {
  rocksdb::Options opt;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(opt, dir, &raw);
  if (!s.ok()) return Status::IOError("cannot open table database " + dir + ": " + s.ToString());
  db_.reset(raw);
  Status st = check_version(db_.get(), dir);
  if (!st.ok()) db_.reset();
  return st;
}

Status TableReader::summary(int width, int height, TableSummary* out) const {
  std::string v;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), meta_key(width, height), &v);
  if (s.IsNotFound())
    return Status::NotFound("the database has no complete " + std::to_string(width) + "x" + std::to_string(height) +
                         " table");
  if (!s.ok()) return Status::IOError("reading table summary: " + s.ToString());
  if (v.size() != 16) return Status::Corruption("damaged table summary (" + std::to_string(v.size()) + " bytes)");
  out->positions = get64(v, 0);
  out->wins = get64(v, 8);
  return Status::OK();
}

Status TableReader::lookup(const Geometry& g, const Position& pos, bool* found, TableValue* v) const {
  *found = false;
  if (table_side(pos) != pos.to_move) return Status::OK();
  uint64_t idx = table_index(g, pos);
  std::string val;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cell_key(g.width(), g.height(), idx), &val);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return Status::IOError("reading table: " + s.ToString());
  if (val.size() != 1 || !RetroTable::decode(uint8_t(val[0]), v))
    return Status::Corruption("damaged table record for position " + std::to_string(idx));
  *found = true;
  return Status::OK();
}

}  // namespace sgfpat::solve
