#pragma once
// A pair's measurements as one fixed-size message to rank 0. Fixed size, so rank 0 posts its
// receives before measuring its own pair, and the watchdog can tell from the head and tail markers
// which pairs' results had arrived when a round overran, even while rank 0 itself is stuck.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/model/run.hpp"
#include "bench/collectives.hpp"
#include "bench/dtype.hpp"
#include "bench/runner.hpp"

namespace podperf {

struct PairMeasurement {
  std::vector<CaseMeasurement> cases;  // one per size, in plan order, up to the first failure
  std::string error;                   // why the remaining sizes were not measured
};

// Number of doubles in a payload for `sizes` sizes of `iters` iterations.
std::size_t payload_length(std::size_t sizes, int iters);
// A receive buffer: zeros (no markers) of payload_length.
std::vector<double> empty_payload(std::size_t sizes, int iters);
std::vector<double> encode_payload(const PairMeasurement& m, std::size_t sizes, int iters);
// True when both markers are present: the message has landed.
bool payload_arrived(const std::vector<double>& payload);

struct DecodedPayload {
  std::vector<CaseMeasurement> cases;  // the cases measured, in order, up to the first failure
  std::string error;
};
DecodedPayload decode_measurements(const std::vector<double>& payload, std::size_t ncases, int iters);

struct PairContext {
  int round = 0;
  std::array<int, 2> nodes{0, 0};
  const Op* op = nullptr;
  DType dtype = DType::kFloat;
  std::vector<std::uint64_t> sizes;  // nominal (-b/-e); each result carries the size that ran
  int iters = 0;
  int ranks = 0;  // ranks in the pair's communicator
};
// One PairResult per size; sizes not measured get status "error" and the error text.
std::vector<PairResult> decode_payload(const std::vector<double>& payload, const PairContext& ctx);

}  // namespace podperf
