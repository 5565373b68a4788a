#pragma once
// Analysis thresholds loaded from configs/thresholds.toml (embedded) or a user file.
#include <string>
#include <string_view>

namespace podperf {

struct PairThresholds {
  double threshold = 0.0;            // fraction below the population that names a node (and flags a pair)
  double noise_factor = 0.0;         // below the judged size: the gap must exceed noise_factor * pair robust sigma
  double spread_factor = 0.0;        // the low-pair rule: ...and spread_factor * the healthy spread
  double max_spread_fraction = 0.0;  // that spread counts at most as this fraction of the baseline
  int baseline_max_passes = 0;
  double baseline_min_kept_fraction = 0.0;  // below the judged size: the baseline keeps at least this share
  int intermittent_min_links = 0;  // a node with low measurements against this many partners may be intermittent
  // A pair between two healthy nodes is a link when more than the link cut below what its class and
  // nodes predict: the larger of the threshold and z pair noises, z the t quantile at
  // 1 - link_family_alpha / (pairs judged).
  double link_family_alpha = 0.0;
  // A node is named when its capacity is beyond the threshold and its bound (the t quantile at
  // 1 - node_family_alpha / N nodes) below the healthy population (analysis/pairs/pair_verdicts.hpp).
  double node_family_alpha = 0.001;
  // A crossing class is slower than the pairs inside a group (pairs.slow_crossing) beyond the threshold
  // and q standard errors, q the t quantile at 1 - class_family_alpha / (2 x classes): tested with the
  // run's pooled noise and with each class's own, either deciding (analysis/pairs/pair_findings.cpp).
  double class_family_alpha = 0.01;
  // The pair noise assumed before the run says otherwise, worth noise_prior_df degrees of freedom (so
  // that 3 or 4 nodes cannot make the noise small by chance), and the least noise ever assumed.
  double noise_prior = 0.03;
  double noise_prior_df = 2.0;
  double min_pair_noise = 0.005;
  // With no healthy majority (half the nodes or more below the others), a node is named only at this
  // fraction of the others or below; nearer, ambiguous (a faster pair or class looks the same).
  double half_split_max_ratio = 0.35;
  // pairs.stalling_node and pairs.recovered_in_retest: distinct partners that name a node.
  int min_cleared_partners = 2;
  // A pair stalled: at least stall_min_iterations of its iterations slower than stall_factor times its
  // median; a node in stalled pairs with min_cleared_partners partners: pairs.stalling_node
  // (analysis/pairs/pair_stalls.hpp).
  double stall_factor = 5.0;
  int stall_min_iterations = 2;
};

// Per-node judgment of the filesystem probes (analysis/fs/fs_analysis.hpp) and the filesystem findings.
struct FsThresholds {
  double threshold = 0.0;            // fraction below the nodes' robust baseline that flags a node
  double spread_factor = 0.0;        // ...and the gap exceeds spread_factor * spread of the healthy nodes
  double max_spread_fraction = 0.0;  // that spread counts at most as this fraction of the baseline
  int baseline_max_passes = 0;
  double baseline_min_kept_fraction = 0.0;  // the baseline keeps at least this share of the nodes
  double saturation_fraction = 0.0;         // aggregate >= this fraction of the expected throughput: saturated
  double resolution_seconds =
      0.0;  // a node's time resolves a difference beyond spread_factor x this (or x the nodes' spread)
  double cache_warn_fraction = 0.0;  // a read whose file was more cached than this share warns
};

// Pairs that cross a topology level against pairs inside one (analysis/topology/topology_analysis.hpp).
struct TopologyThresholds {
  double slower_fraction = 0.10;  // a crossing class whose median busbw is more than this below the reference: CONCERN
  int min_pairs = 2;              // classes (and the reference) with fewer pairs are shown, not judged
};

struct Thresholds {
  PairThresholds pairs;
  FsThresholds fs;
  TopologyThresholds topology;
  std::string source;  // "embedded:thresholds.toml" or the file path
};

// The same thresholds as TOML text that parse_thresholds reads back to equal values (doubles with 17
// digits): how a run's recorded thresholds (run.json "thresholds") are checked with the file's rules.
std::string thresholds_toml(const Thresholds& t);

// Parses TOML text; `source` names it in errors. Throws ConfigError (file, line, key, expected).
Thresholds parse_thresholds(std::string_view toml_text, const std::string& source);
// Loads `path`, or the embedded configs/thresholds.toml when path is empty. Throws ConfigError.
Thresholds load_thresholds(const std::string& path);

}  // namespace podperf
