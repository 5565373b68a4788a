#include "bench/efa_rounds.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "signals/rules.hpp"

namespace podperf {

std::map<std::string, std::uint64_t> efa_counter_rises(const std::vector<EfaDevice>& before,
                                                       const std::vector<EfaDevice>& after,
                                                       const std::vector<std::string>& counters) {
  std::map<std::string, std::uint64_t> total_before;
  std::map<std::string, std::uint64_t> total_after;
  for (const EfaDevice& d : before) {
    for (const auto& [name, v] : d.counters) total_before[name] += v;
  }
  for (const EfaDevice& d : after) {
    for (const auto& [name, v] : d.counters) total_after[name] += v;
  }
  std::map<std::string, std::uint64_t> rises;
  for (const std::string& name : counters) {
    const std::uint64_t a = total_after[name];
    const std::uint64_t b = total_before[name];
    if (a > b) rises[name] = a - b;
  }
  return rises;
}

Finding efa_round_finding(const std::string& host, const std::vector<std::string>& rises_by_round) {
  Finding f;
  f.tag = Tag::kConcern;
  f.source = "signals";
  f.check = "signals.efa_round";
  f.pair_cause_rank = cause_rank::kEfaRoundErrors;
  f.host = host;
  std::string observed;
  for (const std::string& r : rises_by_round) observed += (observed.empty() ? "" : "; ") + r;
  f.observed = observed;
  f.expected = "no rise of EFA error counters while a pair runs";
  f.meaning = "the EFA devices of this host retransmitted, timed out or dropped while its pairs were measured";
  f.effect = "retransmits and timeouts stall NCCL's network channels: lower and noisier busbw on pairs with this host";
  f.next_step =
      "confirm: grep . /sys/class/infiniband/*/ports/1/hw_counters/{retrans_*,*_remote_*,rx_drops}; retest the pair "
      "with podperf pairs --pairs; if it repeats, drain the node and report the EFA device to the provider";
  return f;
}

EfaRoundWatch::EfaRoundWatch(const Comm& world, const std::string& root) : root_(root) {
  Comm local = world.split_shared();
  leader_ = local.rank() == 0;
  for (std::size_t at = root_.find("%h"); at != std::string::npos; at = root_.find("%h", at)) {
    root_.replace(at, 2, local_hostname());
  }
  if (leader_) {
    counters_ = load_rules("").efa_concern_counters;
    const auto devices = read_efa_devices(root_);
    has_efa_ = devices.readable && !devices.value.empty();
  }
}

void EfaRoundWatch::begin() {
  if (leader_ && has_efa_) start_ = read_efa_devices(root_).value;
}

void EfaRoundWatch::end(const std::string& what) {
  if (!leader_ || !has_efa_) return;
  const auto rises = efa_counter_rises(start_, read_efa_devices(root_).value, counters_);
  if (rises.empty()) return;
  std::string text;
  for (const auto& [name, delta] : rises) text += fmt::format("{}{} +{}", text.empty() ? "" : ", ", name, delta);
  rises_.push_back(fmt::format("{} during {}", text, what));
}

std::vector<Finding> EfaRoundWatch::gather_findings(const Comm& world) const {
  const std::string mine = leader_ && !rises_.empty()
                               ? nlohmann::json{{"host", local_hostname()}, {"rises", rises_}}.dump(
                                     -1, ' ', false, nlohmann::json::error_handler_t::replace)
                               : std::string();
  std::vector<Finding> out;
  for (const std::string& text : gather_strings(world, mine, 0)) {
    if (text.empty()) continue;
    const auto j = nlohmann::json::parse(text);
    out.push_back(efa_round_finding(j["host"].get<std::string>(), j["rises"].get<std::vector<std::string>>()));
  }
  return out;
}

}  // namespace podperf
