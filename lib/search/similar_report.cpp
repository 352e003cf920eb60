#include "search/similar_report.h"

#include "export/rates.h"
#include "store/game_record.h"

namespace sgfpat {

namespace {
std::string point_text(bool has, Point p, int size) { return has ? gtp_name(p, size) : "end"; }
}  // namespace

Status shown_hits(PatternDb* db, const std::vector<PositionHit>& hits, size_t limit, std::vector<ShownHit>* out) {
  out->clear();
  for (size_t i = 0; i < hits.size() && i < limit; ++i) {
    ShownHit s;
    s.hit = hits[i];
    Fingerprint fp;
    std::string record;
    Status st = db->find_game(std::string_view(reinterpret_cast<const char*>(s.hit.game.data()), 8), &fp, &record, &s.found);
    if (!st.ok()) return st;
    if (s.found) s.found = decode_game(record, &s.game).ok();
    out->push_back(std::move(s));
  }
  return Status::OK();
}

nlohmann::ordered_json hit_json(const ShownHit& s, int size) {
  nlohmann::ordered_json j;
  const PositionHit& h = s.hit;
  std::string hex;
  for (uint8_t b : h.game) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
  j["game"] = hex;
  j["distance"] = h.distance;
  j["move_number"] = h.position + 1;  // the move played next
  j["next"] = point_text(h.has_next, h.next, size);
  j["to_move"] = std::string(1, color_char(h.mover));
  j["symmetry"] = h.sym;
  j["colours_exchanged"] = h.swap;
  if (s.found) {
    const GameInfo& g = s.game.info;
    j["black"] = g.black_name;
    j["black_rank"] = g.black_rank;
    j["white"] = g.white_name;
    j["white_rank"] = g.white_rank;
    j["date"] = g.date;
    j["result"] = g.result;
    j["file"] = s.game.origin.file;
    j["member"] = s.game.origin.member;
    j["index_in_file"] = s.game.origin.index + 1;
  }
  return j;
}

nlohmann::ordered_json continuations_json(const std::vector<Continuation>& table, int size) {
  nlohmann::ordered_json conts = nlohmann::ordered_json::array();
  for (const Continuation& c : table) {
    const Interval ci = wilson95(c.wins, c.count);
    conts.push_back({{"move", gtp_name(c.move, size)}, {"count", c.count}, {"wins", c.wins},
                     {"win_rate", rate(c.wins, c.count)}, {"win_rate_ci95", {ci.low, ci.high}}});
  }
  return conts;
}

}  // namespace sgfpat
