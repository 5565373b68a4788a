#include "analysis/correlate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace podperf {
namespace {

// Likelier causes of slow collectives first: hardware errors during the run, then the transport,
// then the host's configuration.
constexpr std::array<std::string_view, 15> kPriority{
    "xid",       "efa_round", "efa_counters", "efa_delta", "pcie",  "nccl.tcp_fallback", "nccl.ofi_tcp", "gdrdma",
    "efa_count", "nccl",      "governor",     "iowait",    "steal", "memlock",           "shm"};

std::size_t rank_of(const Finding& f) {
  for (std::size_t i = 0; i < kPriority.size(); ++i) {
    if (f.check.find(kPriority[i]) != std::string::npos) return i;
  }
  return kPriority.size();
}

std::vector<std::string> causes_for(const Run& run, const std::string& host) {
  std::vector<const Finding*> concerns;
  for (const Finding& f : run.findings) {
    if (f.tag == Tag::kConcern && f.host == host) concerns.push_back(&f);
  }
  std::stable_sort(concerns.begin(), concerns.end(),
                   [](const Finding* a, const Finding* b) { return rank_of(*a) < rank_of(*b); });
  std::vector<std::string> out;
  for (const Finding* f : concerns) {
    out.push_back(
        fmt::format("{}: {}{}", f->check, f->observed, f->next_step.empty() ? "" : " (next: " + f->next_step + ")"));
  }
  return out;
}

const std::string& host_of(const Run& run, int node) {
  static const std::string kNone;
  return node >= 0 && static_cast<std::size_t>(node) < run.nodes.size()
             ? run.nodes[static_cast<std::size_t>(node)].hostname
             : kNone;
}

// A healthy node to pair a suspect with: the first node that is not a straggler.
std::string known_good(const Run& run) {
  for (const NodeInfo& n : run.nodes) {
    const bool bad = std::any_of(run.stragglers.begin(), run.stragglers.end(),
                                 [&n](const Straggler& s) { return s.node == n.index; });
    if (!bad) return n.label;
  }
  return "";
}

}  // namespace

void correlate(Run& run) {
  const std::string good = known_good(run);
  for (Straggler& s : run.stragglers) {
    s.likely_causes = causes_for(run, host_of(run, s.node));
    if (s.likely_causes.empty()) {
      s.next_step = good.empty() ? "no host concern found; check the node's NICs and GPUs with the vendor tools"
                                 : fmt::format(
                                       "no host concern found on this node; confirm by pairing it with a known-good "
                                       "node: podperf pairs --pairs {}:{} --concurrency sequential",
                                       s.hostname, good);
    } else {
      s.next_step = "act on the first likely cause, then rerun podperf pairs";
    }
  }
  for (LinkFinding& l : run.links) {
    l.likely_causes.clear();
    for (int node : l.nodes) {
      for (std::string& c : causes_for(run, host_of(run, node))) {
        l.likely_causes.push_back(fmt::format("{}: {}", host_of(run, node), c));
      }
    }
  }
}

}  // namespace podperf
