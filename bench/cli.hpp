#pragma once
// Command line: `podperf pairs|run|collective [options]`, nccl-tests flags where they exist.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace podperf {

// Options every measuring command takes.
struct CommonOptions {
  std::string backend = "auto";
  std::string min_bytes;
  std::string max_bytes;
  std::uint64_t step_factor = 2;
  std::string step_bytes = "0";
  int iters = 20;
  int warmup = 5;
  int check = 1;
  int combine = 3;  // -a: 0 rank0, 1 avg, 2 min, 3 max
  double timeout_s = 600.0;
  std::string out = "results";
  std::string run_id;
  int virtual_nodes = 0;
  std::string signals_root = "/";  // host signals read under this prefix; %h -> the host's name
};

struct PairsOptions : CommonOptions {
  PairsOptions() {
    min_bytes = "16M";
    max_bytes = "256M";
  }
  std::string op = "all_reduce";
  std::string dtype = "float";
  std::string concurrency = "round";
  std::string pairs;  // "0:3,2:5": retest chosen pairs only
  int retest = 1;     // passes re-measuring pairs flagged at the judged size
  std::optional<double> threshold;
  std::string config;
};

struct CollectiveOptions : CommonOptions {
  CollectiveOptions() {
    min_bytes = "8";
    max_bytes = "128M";
  }
  std::string ops = "all_reduce";  // comma list or "all"
  std::string dtypes = "float";    // comma list
  std::string group_by = "world";  // world | node
};

struct SignalsCliOptions {
  std::string root = "/";
  bool json = false;
  std::string rules;
  double sample_seconds = 1.0;
};

struct Cli {
  std::string command;  // pairs | run | collective | signals
  SignalsCliOptions signals;
  PairsOptions pairs;
  CollectiveOptions collective;
  std::vector<std::string> argv;
};

// Parses the command line. Prints help or errors (on launcher rank 0 only) and returns the exit
// code to end with (0 for --help, 2 for bad usage), or nullopt to go on.
std::optional<int> parse_cli(int argc, char** argv, Cli& cli);

}  // namespace podperf
