#include "bench/pair_payload.hpp"

#include <algorithm>
#include <cstring>

namespace podperf {
namespace {
constexpr double kHead = 4242.25;
constexpr double kTail = -4242.75;
constexpr std::size_t kErrorBytes = 1024;
constexpr std::size_t kErrorDoubles = kErrorBytes / sizeof(double);
constexpr double kMeasured = 1.0;
constexpr double kSkipped = 2.0;
}  // namespace

std::size_t payload_length(std::size_t sizes, int iters) {
  return 1 + sizes * (2 + static_cast<std::size_t>(iters)) + kErrorDoubles + 1;
}

std::vector<double> empty_payload(std::size_t sizes, int iters) {
  return std::vector<double>(payload_length(sizes, iters), 0.0);
}

std::vector<double> encode_payload(const PairMeasurement& m, std::size_t sizes, int iters) {
  std::vector<double> out = empty_payload(sizes, iters);
  out.front() = kHead;
  const auto stride = 2 + static_cast<std::size_t>(iters);
  for (std::size_t s = 0; s < sizes && s < m.cases.size(); ++s) {
    double* slot = out.data() + 1 + s * stride;
    slot[0] = m.cases[s].skipped ? kSkipped : kMeasured;
    slot[1] = static_cast<double>(m.cases[s].wrong);
    std::copy_n(m.cases[s].samples_s.begin(), std::min(m.cases[s].samples_s.size(), static_cast<std::size_t>(iters)),
                slot + 2);
  }
  const std::size_t len = std::min(m.error.size(), kErrorBytes - 1);
  std::memcpy(out.data() + 1 + sizes * stride, m.error.data(), len);
  out.back() = kTail;
  return out;
}

bool payload_arrived(const std::vector<double>& payload) {
  return payload.size() >= 2 && payload.front() == kHead && payload.back() == kTail;
}

DecodedPayload decode_measurements(const std::vector<double>& payload, std::size_t ncases, int iters) {
  DecodedPayload out;
  const auto stride = 2 + static_cast<std::size_t>(iters);
  std::string error(kErrorBytes, '\0');
  std::memcpy(error.data(), payload.data() + 1 + ncases * stride, kErrorBytes);
  error.resize(std::strlen(error.c_str()));
  out.error = error.empty() ? "not measured" : error;
  for (std::size_t s = 0; s < ncases; ++s) {
    const double* slot = payload.data() + 1 + s * stride;
    if (slot[0] != kMeasured && slot[0] != kSkipped) break;
    CaseMeasurement m;
    m.skipped = slot[0] == kSkipped;
    m.wrong = static_cast<std::int64_t>(slot[1]);
    m.samples_s.assign(slot + 2, slot + 2 + iters);
    out.cases.push_back(std::move(m));
  }
  return out;
}

std::vector<PairResult> decode_payload(const std::vector<double>& payload, const PairContext& ctx) {
  const DecodedPayload decoded = decode_measurements(payload, ctx.sizes.size(), ctx.iters);
  std::vector<PairResult> results;
  for (std::size_t s = 0; s < ctx.sizes.size(); ++s) {
    PairResult r;
    r.round = ctx.round;
    r.nodes = ctx.nodes;
    r.op = std::string(ctx.op->name);
    const CaseCounts counts = case_counts(*ctx.op, ctx.sizes[s], dtype_info(ctx.dtype).bytes, ctx.ranks);
    r.dtype = std::string(dtype_info(ctx.dtype).name);
    r.size_bytes = counts.size_bytes;
    r.count = counts.chunk;
    r.ranks = ctx.ranks;
    if (s < decoded.cases.size()) {
      fill_timing(r, decoded.cases[s], *ctx.op, ctx.ranks);
    } else {
      r.status = "error";
      r.error = decoded.error;
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace podperf
