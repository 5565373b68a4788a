#include "analysis/pairs/correlate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include "analysis/base/chunks.hpp"
#include "analysis/pairs/pair_judge.hpp"
#include "analysis/stats/stats.hpp"

namespace podperf {
namespace {

// The host's CONCERN findings, likeliest cause of a slow pair first (their pair_cause_rank, from the row
// of the table that wrote them: analysis/base/cause_rank.hpp), ties in their order.
std::vector<std::string> causes_for(const Run& run, const std::string& host) {
  std::vector<const Finding*> concerns;
  for (const Finding& f : run.findings) {
    if (f.tag == Tag::kConcern && f.host == host) concerns.push_back(&f);
  }
  std::stable_sort(concerns.begin(), concerns.end(),
                   [](const Finding* a, const Finding* b) { return a->pair_cause_rank < b->pair_cause_rank; });
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

}  // namespace

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 3 || y.size() != n) return 0.0;
  auto ranks = [n](const std::vector<double>& v) {
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&v](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(n);
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i;
      while (j + 1 < n && v[order[j + 1]] == v[order[i]]) ++j;
      for (std::size_t k = i; k <= j; ++k) r[order[k]] = (static_cast<double>(i + j) / 2.0) + 1.0;
      i = j + 1;
    }
    return r;
  };
  const std::vector<double> rx = ranks(x);
  const std::vector<double> ry = ranks(y);
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += rx[i];
    my += ry[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
}

std::map<std::string, double> host_busbw_ratio(const Run& run, std::size_t threads, const JudgedPairs* judged) {
  // Hosts by index, once: at scale a string-keyed map lookup per pair costs seconds.
  std::map<std::string, std::size_t> host_index;
  std::vector<std::size_t> node_host(run.nodes.size());
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    node_host[i] = host_index.emplace(run.nodes[i].hostname, host_index.size()).first->second;
  }
  const std::size_t unknown = host_index.emplace(host_of(run, -1), host_index.size()).first->second;
  const std::size_t hosts = host_index.size();
  // At scale (millions of pairs) the sweep runs in chunks on separate threads, each with its own
  // ratios per host; a host's median is that of all chunks' ratios together (an order statistic:
  // the same value whatever order they were gathered in).
  // judge_pairs's judged pairs, when given, are these pairs already (one chunk per thread).
  const bool from_judged = judged != nullptr && judged->filled && !judged->chunks.empty();
  const std::size_t workers = from_judged   ? judged->chunks.size()
                              : threads > 0 ? threads
                                            : analysis_threads(run.pairs.size());
  std::vector<std::vector<std::vector<double>>> ratios(workers, std::vector<std::vector<double>>(hosts));
  const auto add = [&](std::vector<std::vector<double>>& mine, int node, double ratio) {
    const bool known = node >= 0 && static_cast<std::size_t>(node) < node_host.size();
    mine[known ? node_host[static_cast<std::size_t>(node)] : unknown].push_back(ratio);
  };
  // Room for a share of a chunk's ratios per host (each pair gives two): most vectors then never
  // grow, and none more than once or twice (growing copies them).
  const auto reserve = [hosts](std::vector<std::vector<double>>& mine, std::size_t pairs) {
    const std::size_t share = 2 * pairs / hosts + 16;
    for (std::vector<double>& r : mine) r.reserve(share + share / 4);
  };
  if (from_judged) {
    in_chunks(workers, workers, [&](std::size_t w, std::size_t, std::size_t) {
      std::vector<std::vector<double>>& mine = ratios[w];
      reserve(mine, judged->chunks[w].size());
      for (const JudgedRatio& j : judged->chunks[w]) {
        add(mine, j.a, j.ratio);
        add(mine, j.b, j.ratio);
      }
    });
  } else {
    in_chunks(run.pairs.size(), workers, [&](std::size_t w, std::size_t begin, std::size_t end) {
      std::vector<std::vector<double>>& mine = ratios[w];
      reserve(mine, end - begin);
      for (std::size_t i = begin; i < end; ++i) {
        const PairResult& p = run.pairs[i];
        if (!judged_ok(run, p)) continue;
        add(mine, p.nodes[0], p.ratio);
        add(mine, p.nodes[1], p.ratio);
      }
    });
  }
  // The medians, hosts split among the same threads (nth_element over all of a host's ratios).
  std::vector<double> medians(hosts, 0.0);
  std::vector<char> has(hosts, 0);
  in_chunks(hosts, std::min(workers, hosts), [&](std::size_t, std::size_t begin, std::size_t end) {
    std::vector<double> all;
    std::vector<double> scratch;
    for (std::size_t h = begin; h < end; ++h) {
      std::vector<double>* r = &ratios[0][h];
      if (workers > 1) {
        all.clear();
        for (std::size_t w = 0; w < workers; ++w) {
          all.insert(all.end(), ratios[w][h].begin(), ratios[w][h].end());
          std::vector<double>().swap(ratios[w][h]);
        }
        r = &all;
      }
      if (r->empty()) continue;
      medians[h] = upper_median_in_place(*r, scratch);
      has[h] = 1;
      if (workers == 1) std::vector<double>().swap(ratios[0][h]);
    }
  });
  std::map<std::string, double> out;
  for (const auto& [host, i] : host_index) {
    if (has[i] != 0) out[host] = medians[i];
  }
  return out;
}

void correlate(Run& run, std::size_t min_nodes, std::size_t threads, const JudgedPairs* judged) {
  run.findings.erase(std::remove_if(run.findings.begin(), run.findings.end(),
                                    [](const Finding& f) { return f.check.rfind("correlation.", 0) == 0; }),
                     run.findings.end());
  // Only when some host signal could be related (the medians cost a pass over the pairs).
  const std::map<std::string, double> busbw =
      run.node_metrics.empty() ? std::map<std::string, double>{} : host_busbw_ratio(run, threads, judged);
  std::map<std::string, std::map<std::string, double>> metrics;  // name -> host -> value
  for (const NodeMetric& m : run.node_metrics) metrics[m.name][m.host] = m.value;
  for (const auto& [name, by_host] : metrics) {
    std::vector<double> x, y;
    for (const auto& [host, value] : by_host) {
      auto it = busbw.find(host);
      if (it == busbw.end()) continue;
      x.push_back(value);
      y.push_back(it->second);
    }
    if (x.size() < min_nodes) continue;
    const double rho = spearman(x, y);
    if (std::fabs(rho) < 0.7) continue;
    Finding f;
    f.tag = rho < 0 ? Tag::kConcern : Tag::kInfo;
    f.source = "analysis";
    f.check = "correlation." + name;
    f.observed =
        fmt::format("{} tracks the hosts' median pair busbw: Spearman rho {:.2f} over {} hosts", name, rho, x.size());
    f.expected = "|rho| < 0.7 (no host signal explains the spread of busbw)";
    f.meaning = rho < 0 ? "hosts with more of this signal have lower busbw" : "an unexpected positive relation";
    f.effect =
        rho < 0 ? "the signal is a likely cause of the slow pairs across the cluster, not only on stragglers" : "";
    f.next_step = fmt::format(
        "compare node_metrics '{}' in run.json with the pair matrix; fix the hosts with the "
        "highest values first",
        name);
    run.findings.push_back(std::move(f));
  }

  // The judge set each straggler's next step (a confirmation against a known-good node, judged by this
  // run); a likely cause comes first.
  for (Straggler& s : run.stragglers) {
    s.likely_causes = causes_for(run, host_of(run, s.node));
    if (s.likely_causes.empty()) {
      if (s.next_step.empty()) s.next_step = "check the node's NICs and GPUs with the vendor tools";
    } else if (!s.next_step.starts_with("act on the first likely cause")) {
      s.next_step = "act on the first likely cause, then " +
                    (s.next_step.empty() ? "rerun " + pairs_rerun_command(run) : s.next_step);
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
