// The pattern database: stored games and pattern counts in RocksDB.
//
// Column families (named in store/column_families.h, whose handles are
// found by those names):
//   default  meta: "scheme" (key scheme + threshold + the database format
//            version, core/format_version.h's kDatabaseFormat, which covers
//            every family's keys and values and is checked at open),
//            "generation" (which counts are current), "summary"
//            (encode_summary() of the last count), "games" (number of
//            stored games)
//   games    fingerprint (16 bytes) -> encode_game() record; and "scheme",
//            a copy of meta "scheme" that `sgfpat repair` reads back when
//            the meta table file is lost
//   counts   generation (4, BE) | level (1) | key (8, BE) -> 3 x u64 LE
//            (played, seen, wins), summed by the "sgfpat.add3" merge operator
//            (store/count_entry.h)
//   positions  the position index: keys and values made by lib/search,
//            gathered in memory and taken in as sorted table files (a
//            "run"); meta "position_index" holds the number of games whose
//            entries are in it (complete when = "games"), written after
//            each run, or "off" when the user wants none (ingest
//            --no-position-index); meta "position_entries" the entries
//            written into it, recorded with it (a reader finds lost
//            table files of the index by it)
//   pending  fingerprint -> "" for every stored game the current generation
//            does not count yet (written with the game, cleared by the
//            commit of the generation that counts it)
//   meta also holds "count_progress" while a count in parts runs (see
//   save_count_progress()), and "sketch": the file (in the database folder) of the
//   count-min sketch of played patterns over the counted games, written
//   with the generation that counts them (see count/played_sketch_file.h).
//
// A count is a new generation written beside the current one; the switch to
// it is one atomic write, so readers and crashes see old or new counts,
// never a mix.  Readers open the database as a RocksDB secondary instance,
// which works while an ingest holds the primary.
//
// The class's definitions are split by job, one file each:
// store/pattern_db_internal.h lists them.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/status.h"
#include "pattern/key_scheme.h"
#include "store/column_families.h"
#include "store/count_summary.h"
#include "store/frontier_entry.h"
#include "store/game_record.h"
#include "store/pending_pattern.h"
#include "store/position_entry.h"
#include "store/table_files.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
class WriteBatch;
class Iterator;
struct Range;
}  // namespace rocksdb

namespace sgfpat {

struct DbSettings {
  KeyScheme scheme;
  int min_played = 2;  // patterns played fewer times are not reported
  friend bool operator==(const DbSettings&, const DbSettings&) = default;
};

struct PatternCounts {
  uint64_t played = 0;
  uint64_t seen = 0;
  uint64_t wins = 0;
};

struct OpenOptions {
  bool create_if_missing = false;
  bool secondary = false;  // open as a reader: a RocksDB secondary instance (read-only)
  DbSettings settings;     // used when creating; checked when `check_settings`
  bool check_settings = false;
  // Bytes RocksDB may hold in write buffers and its block cache (index and
  // filter blocks included), so that a process's peak stays within its
  // budget; 0 leaves RocksDB's defaults (readers).
  size_t memory_bytes = 0;
  // For `sgfpat repair` only: open a writer without checking that the
  // counts hold what the last count reported (they are about to be
  // recounted from the stored games).
  bool skip_counts_check = false;
  // Memory the position index entries of new games gather before they are
  // written as one sorted table file (bigger: fewer files to merge later).
  size_t position_run_bytes = size_t(64) << 20;
  // Threads that write table files known in full side by side (the counts
  // of a generation, a run of the position index): the cores the writer
  // may use while it waits for them.
  int write_threads = 1;
};

class PatternDb {
 public:
  ~PatternDb();
  // Opens the database at `path`; creates one only in a new or empty
  // directory when create_if_missing (a directory holding other files, or a
  // database that lost its CURRENT file, is refused: nothing is written;
  // what a creation killed early left, without a table file or a logged
  // write, is cleared and the database made).  An existing database must
  // be sgfpat's (its column families and key scheme; with
  // create_if_missing, one with no key scheme and no entry at all, a
  // creation killed before its first write, is made again), and a reader
  // checks that the counts' table files hold what the last count reported
  // (Corruption otherwise).  Refuses one whose recorded settings differ
  // from options.settings when check_settings is set (InvalidArgument).
  // Codes: NotFound (no database there), Busy (another process writes it,
  // or is still creating it), Corruption (damaged, or not an sgfpat database),
  // NotSupported (another format version), IOError / NoSpace.  A writer
  // upgrades in place what an older database of a format it reads lacks
  // (see accept_format()).
  static Status Open(const std::string& path, const OpenOptions& options, std::unique_ptr<PatternDb>* out);
  // Opens an existing database for reading (a secondary instance).
  static Status OpenReader(const std::string& path, std::unique_ptr<PatternDb>* out) {
    OpenOptions options;
    options.secondary = true;
    return Open(path, options, out);
  }

  // RocksDB's own repair of the files at `path` (which must not be open):
  // rebuilds the MANIFEST from the table and log files it finds, and moves
  // the files it cannot read to `path`/lost/.  Counts and games in the files
  // it set aside are gone; callers recount (see lib/repair) and take back
  // what store/salvage.h still reads.  The meta values of `restore` are
  // written where the repaired files lack them (the key scheme the logs
  // still held).
  static Status RepairFiles(const std::string& path, const std::map<std::string, std::string>& restore = {});
  // True when another process holds the database's write lock.
  static bool InUse(const std::string& path);

  const DbSettings& settings() const { return settings_; }
  const std::string& path() const { return path_; }

  // --- games ---
  Status has_game(const Fingerprint& fp, bool* found);
  uint64_t game_count() const { return game_count_; }
  uint64_t move_count() const { return move_count_; }
  // Stores games atomically together with the new game and move counts.
  // The games' position index entries (given when the index is complete)
  // join the run in memory: see flush_position_index().
  Status add_games(const std::vector<std::pair<Fingerprint, std::string>>& records, uint64_t moves,
                   const PositionEntries& positions = {});
  // Deletes the records of `remove` (damaged games) and records `games` and
  // `moves` as the stored totals, in one write.  For `sgfpat repair`, after
  // it has counted what survived; the position index is marked incomplete.
  Status set_game_totals(const std::vector<Fingerprint>& remove, uint64_t games, uint64_t moves);
  // Visits every stored game record in fingerprint order; stop by returning false.
  Status for_each_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit);
  // The same for the games whose fingerprint's first byte is in [first, last).
  Status for_each_game(int first, int last, const std::function<bool(const Fingerprint&, std::string_view)>& visit);
  // The records of the games `fps` (records->at(i) for fps[i]), in one
  // batched read.  A game that is not stored is reported as Corruption.
  Status get_games(std::span<const Fingerprint> fps, std::vector<std::string>* records);
  // The game whose fingerprint starts with `prefix` (*found false if none).
  Status find_game(std::string_view prefix, Fingerprint* fp, std::string* record, bool* found);

  // --- position index ---
  // True when every stored game has its entries in the index (or in the
  // run not written yet).
  bool has_position_index() const { return has(Family::kPositions) && indexed_games_ == game_count_; }
  // Writes the entries gathered in memory (add_games(), add_position_entries())
  // as one sorted table file that the index takes in whole, then records in
  // a synced write how many games the index covers.  Runs also when they
  // reach OpenOptions::position_run_bytes.  Entries not written when the
  // process ends are lost and the index stays recorded incomplete (rebuilt
  // whole by the next ingest), never wrong.
  Status flush_position_index();
  // Changes the size at which the gathered entries are written (first
  // OpenOptions::position_run_bytes): a run already larger is written when
  // the next entries come.
  // Raising it while a run is gathered moves the run to a larger array.
  void set_position_run_bytes(size_t bytes);
  // True when the database keeps no position index by choice: ingest then
  // neither builds nor extends it (building it again turns this off).
  bool position_index_off() const { return index_off_; }
  // Drops the index (its entries and table files) and records that none is
  // wanted, in one synced write.
  Status turn_position_index_off();
  // "complete", "off" or "incomplete" (built by the next ingest), for reports.
  const char* position_index_state() const {
    return index_off_ ? "off" : has_position_index() ? "complete" : "incomplete";
  }
  // Building the index of a database that lacks it: reset, add entries
  // (into the run, in any order), then complete (the run written, then
  // marked complete in one synced write).  A build killed before it
  // completes is started again from reset.
  Status reset_position_index();
  Status add_position_entries(const PositionEntries& entries);
  Status complete_position_index();
  // The same build from entries known in key order (the merged indexes of
  // other databases): after reset, `fill` puts them in strictly increasing
  // key order into one table file, taken in whole, then complete.
  Status add_sorted_position_entries(const TableFill& fill);
  // Reads the position index in key order, an entry at a time: a
  // for_each_position() the caller drives (several indexes merged).
  class PositionCursor {
   public:
    ~PositionCursor();
    bool valid() const;  // false at the end and after an error
    std::string_view key() const;
    std::string_view value() const;
    void next();
    Status status() const;  // the error that ended it, if any

   private:
    friend class PatternDb;
    PositionCursor() = default;
    std::unique_ptr<rocksdb::Iterator> it_;
  };
  Status open_position_cursor(std::unique_ptr<PositionCursor>* out);
  // Visits the entries whose key starts with `prefix`, in key order.
  Status for_each_position(std::string_view prefix, const std::function<bool(std::string_view, std::string_view)>& visit);
  // Bytes of the index: its table files and memtables; not the run in
  // memory.
  uint64_t position_index_bytes();

  // Stored games the current generation does not count yet: their number,
  // and a visit of each with its record, in fingerprint order.
  Status pending_count(uint64_t* n);
  Status for_each_pending_game(const std::function<bool(const Fingerprint&, std::string_view)>& visit);

  // --- counts ---
  uint32_t generation() const { return generation_; }
  // Summary of the current counts (all zero if never counted).
  const CountSummary& summary() const { return summary_; }
  Status get(int level, uint64_t key, PatternCounts* counts, bool* found);
  // Visits the current counts of a level (0: every level) in key order,
  // including those below min_played (callers filter).
  Status for_each_count(int level, const std::function<bool(int, uint64_t, const PatternCounts&)>& visit);

  // Writing a new generation: begin_generation() clears leftovers of any
  // interrupted count, add_counts() merges partial sums into it, and
  // commit_generation() switches to it in one synced write, then drops the
  // old one (what a kill leaves of it is never read, and the next
  // begin_generation() drops it).
  Status begin_generation(uint32_t* gen);
  Status add_counts(uint32_t gen, const std::vector<std::tuple<int, uint64_t, PatternCounts>>& partial);
  // Writes whole counts of generation `gen` straight into sorted table
  // files, one per fill, written side by side (OpenOptions::write_threads)
  // and taken in: much faster than add_counts() for counts known in
  // full.  Each fill calls the sink in strictly increasing (level, key)
  // order and returns its first error; no two fills' ranges overlap (one
  // level each, for instance).
  using CountSink = std::function<Status(int level, uint64_t key, const PatternCounts&)>;
  using CountFill = std::function<Status(const CountSink&)>;
  Status write_sorted_counts(uint32_t gen, const std::vector<CountFill>& fills);
  // How many fills write_sorted_counts() runs side by side.
  int write_threads() const { return write_threads_; }
  // Deletes the patterns of generation `gen` played fewer than min_played
  // times (counted because the sketch over-estimated them) and collapses
  // the others' partial sums.  Says how many were deleted and how many are
  // kept per level (kept[level-1]; levels beyond kept->size() are ignored).
  Status prune_generation(uint32_t gen, uint64_t* deleted, std::vector<uint64_t>* kept);
  // `sketch_file` (a file name in the database folder, "" for none) is
  // recorded with the switch, and the pending games are cleared by it: the
  // new generation must count every stored game.  Sketch files other than
  // the recorded one are removed afterwards.
  Status commit_generation(uint32_t gen, const CountSummary& summary, const std::string& sketch_file = "");
  // The sketch file recorded with the current generation ("" if none).
  const std::string& sketch_file() const { return sketch_file_; }
  // How far a count in parts of the next generation got: a record the
  // counter encodes (count/parts_progress.h), written synced, so that the
  // count run again after a kill goes on from there.  begin_generation(),
  // commit_generation() and set_game_totals() delete it.  "" when none.
  Status save_count_progress(std::string_view record);
  Status count_progress(std::string* record);
  // The same for a catch-up (count/catchup_progress.h), under its own meta
  // key; commit_night() deletes it.  "" when none.
  Status save_catchup_progress(std::string_view record);
  Status catchup_progress(std::string* record);
  // Replaces the summary of the current generation.
  Status set_summary(const CountSummary& summary);

  // ---- nights (docs/nightly.md; store/pattern_db_night.cpp) ----

  // The generation whose kept set the frontier index was last built for (0:
  // never built).  The index holds every counted move's frontier only when
  // it equals generation().
  uint32_t frontier_generation() const { return frontier_generation_; }
  // Clears the frontier index: its record first (synced), then its entries.
  Status clear_frontier();
  // Takes in `sorted` (entries in increasing order) as one table file of the
  // frontier index: how a build writes its runs.
  Status add_frontier_run(const std::vector<FrontierEntry>& sorted);
  // Records the index complete for generation `gen` (a synced write).
  Status finish_frontier(uint32_t gen);
  // Corruption when the frontier index's table files hold fewer than
  // `entries` entries (a lost or unreadable file: the index must be built
  // again; readers never read it, so it is not checked at open).
  Status check_frontier_present(uint64_t entries);
  // Visits, for each (level, key) of `sorted_keys` (increasing), the
  // frontier entries under it, in order.  Corruption for a damaged entry.
  // Several threads may call it at once (each call reads with its own
  // iterator).
  Status frontier_moves(std::span<const std::pair<int, uint64_t>> sorted_keys,
                        const std::function<bool(const FrontierEntry&)>& visit);
  // Every pending pattern, by (level, key).
  Status for_each_pending_pattern(const std::function<bool(const PendingPattern&)>& visit);
  // The stored games whose fingerprints begin with `prefix` (one, but for
  // a collision of 8 bytes).
  Status games_with_prefix(uint64_t prefix, const std::function<bool(const Fingerprint&, std::string_view)>& visit);

  // What a night or a catch-up writes, taken in at once (every part or
  // none, across a crash too).  Each list in increasing key order.
  struct NightEdits {
    std::vector<std::tuple<int, uint64_t, PatternCounts>> counts_added;  // merged into the current generation
    std::vector<std::tuple<int, uint64_t, PatternCounts>> counts_put;    // put into it (a catch-up's new patterns)
    std::vector<PendingPattern> pending_put;                             // whole values
    std::vector<std::pair<int, uint64_t>> pending_deleted;
    std::vector<FrontierEntry> frontier_put, frontier_deleted;  // disjoint
    std::vector<Fingerprint> counted_games;                       // their pending marks cleared
    CountSummary summary;                                         // the new summary
    uint32_t frontier_generation = 0;                             // recorded when not 0
    // Edit runs (store/edit_run.h) of the counts, pending_patterns and
    // frontier families, when the edits were too many to hold: a family
    // with runs has none of its edits above (Internal otherwise); the runs'
    // keys are disjoint, and the counts' keys are those of the current
    // generation.
    std::vector<std::string> counts_runs, pending_runs, frontier_runs;
  };
  Status commit_night(const NightEdits& edits);

  // Writes every family's memtable into table files and waits for it, so
  // that the write-ahead log is not the only copy of what was written (a
  // damaged or lost log then loses nothing).  Ingest and repair end with it.
  Status flush_to_tables();

  // Reads every block of every table file and checks its checksum (the
  // whole database: for `sgfpat repair`'s check).  Corruption naming the
  // damage.
  Status verify_tables();

  // Bytes on disk (SST + WAL files).
  uint64_t disk_bytes() const;

 private:
  PatternDb() = default;

  // One attempt of Open() (a reader's is made again when a writer replaced
  // the MANIFEST it was reading).
  static Status open_once(const std::string& path, const OpenOptions& options, std::unique_ptr<PatternDb>* out);
  // open_once()'s steps, in order (store/pattern_db_open.cpp).
  struct Opening;
  // The families of an existing database: sgfpat's, or what a creation
  // killed after CURRENT left (cleared and made again by a writer asked to
  // create; Busy while its creator still runs).  An existing database is
  // opened, never taken over: column families that sgfpat did not make
  // mean another program's database (Corruption).
  static Status check_column_families(Opening* o);
  // RocksDB opened on the families the database has (or, for a writer,
  // should have), as the writer or a reader.
  Status open_files(Opening* o);
  // cf_ filled from RocksDB's handles, each matched by its family's name.
  Status adopt_handles(const std::vector<rocksdb::ColumnFamilyHandle*>& handles);
  // The key scheme read, its format version accepted and its settings
  // checked; or written, when the database is new.
  Status read_scheme(Opening* o);
  // The one place the database format version found at open is accepted,
  // refused, or upgraded (what a writer rewrites in place).
  Status accept_format(uint32_t found, const Opening& o);
  Status load_meta();
  // A reader's catch-up with the writer until the generation holds still.
  Status catch_up(const Opening& o);
  Status check_counts_present();
  Status check_games_present();
  // The same for the position index, against meta "position_entries"
  // (a reader's RocksDB drops a family's table files from its view back to
  // before the first one that is missing: the index then looks complete
  // and empty).
  Status check_positions_present();
  // The same for the pending patterns, against the summary's count.
  Status check_pending_present();

  // The NotSupported a reader's writes return (a secondary instance writes
  // nothing).
  Status read_only() const;
  // Corruption unless a family's table files (those overlapping `range`,
  // if given: whole files, so at least the entries in it) and memtables
  // hold at least `want` entries and their properties are readable: fewer
  // means files are lost or unreadable (RocksDB may drop a damaged table
  // from a reader's view without an error), and an answer from them would
  // be wrong, not empty.  `what` names the family's files ("the games'"),
  // `says(have)` the shortfall.  `values_only`: merge operands are not
  // counted (a night's additions to the counts are operands: they must not
  // stand in for lost values).
  Status check_entries(rocksdb::ColumnFamilyHandle* cf, uint64_t want, const std::string& what,
                       const std::function<std::string(uint64_t have)>& says, const rocksdb::Range* range = nullptr,
                       bool values_only = false);
  // The recorded summary's reported patterns per level (index level-1);
  // empty when never counted.
  std::vector<uint64_t> reported_per_level() const;
  Status scan_counts(uint32_t gen, int level, const std::function<bool(int, uint64_t, const PatternCounts&)>& visit);

  std::string path_;
  std::string secondary_path_;
  bool secondary_ = false;
  DbSettings settings_;
  uint64_t game_count_ = 0;
  uint64_t move_count_ = 0;
  uint64_t indexed_games_ = 0;
  uint64_t position_entries_ = 0;      // meta "position_entries" (0 when none)
  bool position_entries_known_ = false;  // it is recorded
  bool index_off_ = false;      // meta "position_index" is "off"
  uint32_t generation_ = 0;
  uint32_t frontier_generation_ = 0;  // meta "frontier"
  CountSummary summary_;
  std::string sketch_file_;
  std::unique_ptr<rocksdb::DB> db_;
  // The handle of each family, found by name; nullptr for a family the
  // database lacks (a reader of an older database may lack "pending" and
  // "positions").
  std::array<rocksdb::ColumnFamilyHandle*, kFamilyCount> cf_{};
  rocksdb::ColumnFamilyHandle* cf(Family family) const { return cf_[size_t(family)]; }
  bool has(Family family) const { return cf(family) != nullptr; }
  void drop_position_files();  // the index's table files, after its entries were deleted
  // Writes run_ (if any) as table files the positions family takes in
  // together (one per write thread), clears it, then records
  // indexed_games_ (unless a build is under way).
  Status write_position_run();
  // store/table_files.h's take_in_tables() into this database's folder.
  Status take_in_tables(rocksdb::ColumnFamilyHandle* cf, const std::string& name, const std::string& what,
                        bool seqno_in_file, const std::vector<TableFill>& fills);
  int write_threads_ = 1;
  PositionEntries run_;  // index entries not written yet
  size_t run_limit_ = 0;  // entries: write the run when it holds this many
  // Deletes [begin, end) of `cf` outside the write-ahead log, flushed into a
  // table file at once, when an entry is there to read (nothing is written
  // otherwise); `what` names it in errors.
  Status delete_range_now(rocksdb::ColumnFamilyHandle* cf, const std::string& begin, const std::string& end,
                          const std::string& what);
  // delete_range_now() of the counts in [begin, end).
  Status drop_counts_in(const std::string& begin, const std::string& end);
  // Leaves the counts as one sorted run in the last level (it only reclaims
  // space and speeds reads: a failure changes no count, so none is
  // reported).
  void compact_counts();
  // Marks the index "off" or not built (a synced write), then deletes its
  // entries (the deletion flushed at once, outside the log).
  Status clear_position_index(bool off);
};

}  // namespace sgfpat
