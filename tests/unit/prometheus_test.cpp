// analysis/report/prometheus and analysis/report/node_rows: the textfile of a small judged run, read back
// by a parser of the exposition format written here (HELP and TYPE once per family and before its
// samples, label values unescaped, finite values), with label escaping of ", \ and newlines; the
// per-node facts (median busbw at the judged size, pairs, flagged pairs, straggler, verdict).
#include "analysis/report/prometheus.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/report/node_rows.hpp"

namespace podperf {
namespace {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  double value = 0;
};

// Parses `text`; ADD_FAILURE()s on anything the format refuses. Returns the samples in order.
std::vector<Sample> parse_exposition(const std::string& text) {
  std::vector<Sample> out;
  std::set<std::string> help, type, closed;
  std::string current;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      const std::string name = line.substr(7, line.find(' ', 7) - 7);
      std::set<std::string>& seen = line[2] == 'H' ? help : type;
      EXPECT_TRUE(seen.insert(name).second) << "twice: " << line;
      EXPECT_EQ(closed.count(name), 0u) << "after its samples or split: " << line;
      if (current != name && !current.empty()) closed.insert(current);
      current = name;
      continue;
    }
    Sample s;
    std::size_t i = line.find_first_of("{ ");
    s.name = line.substr(0, i);
    EXPECT_TRUE(help.count(s.name) && type.count(s.name)) << "no HELP/TYPE before: " << line;
    EXPECT_EQ(s.name, current) << "outside its family: " << line;
    if (line[i] == '{') {
      ++i;
      while (line[i] != '}') {
        const std::size_t eq = line.find("=\"", i);
        const std::string key = line.substr(i, eq - i);
        std::string value;
        for (i = eq + 2; line[i] != '"'; ++i) {
          if (line[i] == '\\') {
            ++i;
            EXPECT_TRUE(line[i] == '\\' || line[i] == '"' || line[i] == 'n') << "bad escape: " << line;
            value += line[i] == 'n' ? '\n' : line[i];
          } else {
            value += line[i];
          }
        }
        s.labels[key] = value;
        ++i;
        if (line[i] == ',') ++i;
      }
      ++i;
    }
    EXPECT_EQ(line[i], ' ') << line;
    s.value = std::stod(line.substr(i + 1));
    EXPECT_TRUE(std::isfinite(s.value)) << line;
    out.push_back(s);
  }
  return out;
}

Run small_run() {
  Run run;
  run.run_id = "r1";
  run.command = "accept";
  run.backend = "host";
  run.judged_size_bytes = 1 << 20;
  for (int i = 0; i < 3; ++i) {
    NodeInfo n;
    n.index = i;
    n.label = n.hostname = "h" + std::to_string(i);
    n.instance_type = "p5.48xlarge";
    run.nodes.push_back(n);
  }
  run.nodes[2].label = "we\"ird\\host\nname";  // every character the format escapes
  auto pair = [&](int a, int b, double busbw, bool flagged, std::uint64_t size) {
    PairResult p;
    p.nodes = {a, b};
    p.size_bytes = size;
    p.busbw_gbps = busbw;
    p.flagged = flagged;
    run.pairs.push_back(p);
  };
  pair(0, 1, 100, false, 1 << 20);
  pair(0, 2, 50, true, 1 << 20);
  pair(1, 2, 60, true, 1 << 20);
  pair(1, 2, 1, true, 1 << 10);  // not the judged size: not counted
  run.stragglers.push_back(Straggler{2, run.nodes[2].label, 2, 2, 0.5, 0.4, 0.6, "", {}, ""});
  run.verdict.status = "FAIL";
  run.verdict.profile = "quick";
  run.verdict.sku = "p5.48xlarge";
  run.verdict.nodes = {{"h0", "h0", "PASS", {}}, {"h1", "h1", "WARN", {}}, {run.nodes[2].label, "h2", "FAIL", {}}};
  FsProbeResult probe;
  probe.probe = "seq-write";
  probe.mb_per_s = 900;
  probe.nodes = {FsNodeResult{0, "h0", 1, 0, 0, 0, 0, 300, 0, 1.0, false},
                 FsNodeResult{1, "h1", 1, 0, 0, 0, 0, std::nan(""), 0, 1.0, false}};
  run.fs.probes.push_back(probe);
  return run;
}

TEST(NodeSummary, JudgedSizeFactsPerNode) {
  const std::vector<NodeSummary> s = summarize_nodes(small_run());
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].pairs, 2);
  EXPECT_EQ(s[0].flagged_pairs, 1);
  EXPECT_DOUBLE_EQ(*s[0].median_busbw_gbps, 75.0);
  EXPECT_EQ(s[2].flagged_pairs, 2);
  EXPECT_DOUBLE_EQ(*s[2].median_busbw_gbps, 55.0);
  EXPECT_TRUE(s[2].straggler);
  EXPECT_FALSE(s[0].straggler);
  EXPECT_EQ(s[1].verdict, "WARN");
  EXPECT_EQ(s[2].verdict, "FAIL");
}

TEST(Prometheus, ParsesBackWithEscapedLabelsAndOneHelpPerFamily) {
  const podperf::Run run = small_run();
  const std::vector<Sample> samples = parse_exposition(render_prometheus(run, summarize_nodes(run)));
  std::map<std::string, std::map<std::string, double>> by_host;  // name -> host -> value
  for (const Sample& s : samples) {
    if (s.labels.count("host")) by_host[s.name][s.labels.at("host")] = s.value;
  }
  const std::string odd = run.nodes[2].label;
  EXPECT_EQ(by_host["podperf_node_verdict"]["h0"], 0);
  EXPECT_EQ(by_host["podperf_node_verdict"]["h1"], 1);
  EXPECT_EQ(by_host["podperf_node_verdict"][odd], 2);
  EXPECT_EQ(by_host["podperf_node_straggler"][odd], 1);
  EXPECT_EQ(by_host["podperf_node_straggler"]["h0"], 0);
  EXPECT_EQ(by_host["podperf_node_busbw_gbps"]["h0"], 75);
  EXPECT_EQ(by_host["podperf_node_flagged_pairs"][odd], 2);
  EXPECT_EQ(by_host["podperf_node_pairs"]["h1"], 2);
  EXPECT_EQ(by_host["podperf_fs_node_mb_per_second"]["h0"], 300);
  EXPECT_EQ(by_host["podperf_fs_node_mb_per_second"].count("h1"), 0u) << "a value that is not finite is left out";
}

TEST(Prometheus, LabelValueEscaping) {
  EXPECT_EQ(prometheus_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(prometheus_label_value("plain"), "plain");
}

TEST(Prometheus, AFamilyWithoutSeriesIsLeftOut) {
  podperf::Run run = small_run();
  run.pairs.clear();
  run.stragglers.clear();
  run.verdict = Verdict{};
  run.fs.probes.clear();
  const std::string text = render_prometheus(run, summarize_nodes(run));
  EXPECT_EQ(text.find("podperf_node_verdict"), std::string::npos) << text;
  EXPECT_EQ(text.find("podperf_node_straggler"), std::string::npos) << text;
  EXPECT_EQ(text.find("podperf_fs_"), std::string::npos) << text;
  EXPECT_NE(text.find("podperf_run_info{run_id=\"r1\""), std::string::npos) << text;
  parse_exposition(text);
}

}  // namespace
}  // namespace podperf
