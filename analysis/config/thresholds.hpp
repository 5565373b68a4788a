#pragma once
// Analysis thresholds loaded from configs/thresholds.toml (embedded) or a user file.
#include <string>
#include <string_view>

namespace podperf {

struct PairThresholds {
  double threshold = 0.0;            // fraction below baseline that flags a pair
  double noise_factor = 0.0;         // gap must exceed noise_factor * pair robust sigma
  double spread_factor = 0.0;        // ...and spread_factor * spread of the healthy pairs
  double max_spread_fraction = 0.0;  // that spread counts at most as this fraction of the baseline
  double straggler_fraction = 0.0;   // decides nothing: the share of flagged pairs quoted in the
                                     // pairs.intermittent_node sentence ("a straggler has more than ...")
  int baseline_max_passes = 0;
  double baseline_min_kept_fraction = 0.0;  // the baseline keeps at least this share of the pairs
  int intermittent_min_links = 0;           // a non-straggler in this many slow links: pairs.intermittent_node
  // A flagged pair between two healthy nodes is named a slow link only when its gap also exceeds
  // z * spread, z = the normal quantile 1 - link_family_alpha / (pairs judged): among millions of
  // pairs some fall beyond any fixed cut by chance. 1 turns it off (z below spread_factor).
  double link_family_alpha = 0.0;
  // The pair inference (analysis/pairs/pair_inference.hpp): a node none of whose pairs is fast is named slow
  // when this many distinct partners cleared by a fast pair were slow with it; fewer: ambiguous.
  int min_cleared_partners = 2;
  // ...and a node cleared by a fast pair is slow after all when more than this share of its measured
  // pairs are links (slow with cleared partners): one pair inside the threshold by chance does not
  // clear a node a little slow (analysis/pairs/pair_inference.hpp name_mostly_slow_nodes).
  double mostly_slow_fraction = 0.75;
  // The baseline is anchored on a fast group above a slow majority when the gap between them exceeds
  // this fraction of the fast group's lowest value (analysis/stats/baseline.hpp anchored_baseline).
  double anchor_gap_fraction = 0.15;
  // A fast group of fewer pairs than this anchors only once a retest reproduces it (analysis/pairs/anchor_check.hpp).
  int anchor_min_pairs = 3;
  // Two nodes cleared only by each other (one fast pair) name a node slow only when its pairs with them
  // average at most this fraction of theirs; nearer, one pair on a faster path explains it as well
  // (analysis/pairs/pair_inference.hpp confirm_anchor): ambiguous.
  double single_pair_anchor_max_ratio = 0.5;
  // A pair stalled: at least stall_min_iterations of its iterations slower than stall_factor times its
  // median; a node in stalled pairs with min_cleared_partners partners: pairs.stalling_node
  // (analysis/pairs/pair_stalls.hpp).
  double stall_factor = 5.0;
  int stall_min_iterations = 2;
  // Nodes whose ceiling is the reference of the lagging-node check (analysis/pairs/pair_ceiling.hpp).
  int lagging_reference_nodes = 4;
  // The fastest consistent group anchors the baseline when the slower nodes' ceilings lie below it by
  // more than the Student t quantile at this confidence (or spread_factor, if larger) times the
  // node-speed model's noise, on that noise's degrees of freedom (analysis/pairs/fastest_group.hpp).
  double fastest_group_confidence = 0.999;
  // ...and only when the group is consistent: its robust baseline drops (as slow links) at most this
  // share of the pairs among its nodes, rounded down (none of 3, 6 or 9 pairs).
  double fastest_group_max_link_fraction = 0.1;
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
