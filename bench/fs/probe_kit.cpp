// The probes' common parts (see probe_kit.hpp). Floor bench/, local, no MPI.
#include "bench/fs/probe_kit.hpp"

#include <fcntl.h>

#include <cmath>

namespace podperf::probe_kit {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string path_of(const ProbeContext& c, const std::string& rel) {
  return c.dir + "/" + rel;
}

FsRankResult begin(const ProbeContext& c, std::string file, bool reads) {
  FsRankResult r;
  r.rank = c.rank;
  r.node = c.node;
  r.file = std::move(file);
  r.source_node = reads ? c.source_node : -1;
  return r;
}

// Ends the timed region now, unless the probe ended it already.
void finish(FsRankResult& r, const ProbeContext& c) {
  if (r.end_s == 0.0) r.end_s = seconds_since(c.start);
  const double d = r.end_s - r.start_s;
  if (d > 0.0) {
    r.mb_per_s = static_cast<double>(r.bytes) / d / 1e6;
    r.ops_per_s = static_cast<double>(r.ops) / d;
  }
}

void fail(FsRankResult& r, const ProbeContext& c, const std::exception& e) {
  r.end_s = seconds_since(c.start);
  r.status = "error";
  r.error = fmt::format("node {} rank {}: {}", c.node_label, c.rank, e.what());
}

// Drops this host's cached pages of `path` (a hint; errors ignored).
void drop_cached_pages_of(const std::string& path) noexcept {
  try {
    File(path, O_RDONLY, false).drop_cached_pages();
  } catch (const std::exception&) {
  }
}

// Drops this host's cached pages of `path` (a hint) and returns the share that stayed resident.
double drop_and_measure_cache(const std::string& path) {
  File f(path, O_RDONLY, false);
  f.drop_cached_pages();
  return f.cached_fraction();
}

double percentile(std::vector<double> sorted_values, double q) {
  if (sorted_values.empty()) return 0.0;
  std::sort(sorted_values.begin(), sorted_values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted_values.size())));
  return sorted_values[std::min(sorted_values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

void report(const ProbeContext& c, std::uint64_t done, std::uint64_t total) {
  if (c.progress) c.progress(done, total);
}

std::string read_text(const std::string& path) {
  File f(path, O_RDONLY, false);
  const std::uint64_t size = f.size_bytes();
  std::string text(size, '\0');
  const std::size_t got = f.read_at(text.data(), text.size(), 0);
  text.resize(got);
  f.close();
  return text;
}

}  // namespace podperf::probe_kit
