#pragma once
// Command line: `podperf pairs|run [options]`, nccl-tests flags where they exist.
#include <optional>
#include <string>
#include <vector>

namespace podperf {

struct PairsOptions {
  std::string backend = "auto";
  std::string op = "all_reduce";
  std::string dtype = "float";
  int combine = 3;  // -a: 0 rank0, 1 avg, 2 min, 3 max
  std::string min_bytes = "16M";
  std::string max_bytes = "256M";
  std::uint64_t step_factor = 2;
  std::string step_bytes = "0";
  int iters = 20;
  int warmup = 5;
  int check = 1;
  std::string concurrency = "round";
  std::string pairs;  // "0:3,2:5": retest chosen pairs only
  std::optional<double> threshold;
  double timeout_s = 600.0;
  std::string out = "results";
  std::string run_id;
  int virtual_nodes = 0;
  std::string config;
};

struct Cli {
  std::string command;  // pairs | run | version
  PairsOptions pairs;
  std::vector<std::string> argv;
};

// Parses the command line. Prints help or errors (on launcher rank 0 only) and returns the exit
// code to end with (0 for --help, 2 for bad usage), or nullopt to go on.
std::optional<int> parse_cli(int argc, char** argv, Cli& cli);

}  // namespace podperf
