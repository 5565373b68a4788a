#pragma once
// What the probes' run functions are made of (floor bench/, local, no MPI): a fresh result whose
// exceptions become its error (guarded), the timed region's clock, paths in the probe directory,
// progress, whole-file reads, page-cache drops and percentiles. A new probe's file includes this and
// bench/fs/probes.hpp; its run function then goes in a row of bench/fs/probe_catalog.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "analysis/base/errors.hpp"
#include "analysis/model/run.hpp"
#include "bench/fs/fs_io.hpp"
#include "bench/fs/probes.hpp"

namespace podperf::probe_kit {

// Seeds the probes' pseudo-random data and offsets from (with the rank).
inline constexpr std::uint64_t kSeedBase = 0x5EED0000ULL;

// Seconds from t0 to now (t0: the probe's common start, ProbeContext::start).
double seconds_since(std::chrono::steady_clock::time_point t0);
// `rel` in the probe directory.
std::string path_of(const ProbeContext& c, const std::string& rel);
// Rank 0's progress during a probe (nothing on the other ranks).
void report(const ProbeContext& c, std::uint64_t done, std::uint64_t total);

// A result for this rank, naming `file`; `reads`: it reads the source rank's files (source_node set).
FsRankResult begin(const ProbeContext& c, std::string file, bool reads);
// Ends the timed region now, unless the probe ended it already; sets the rank's rates.
void finish(FsRankResult& r, const ProbeContext& c);
// Ends the timed region with status error: "node N rank R: <what>".
void fail(FsRankResult& r, const ProbeContext& c, const std::exception& e);

// Runs `body(result)` on a fresh result; any exception but std::bad_alloc becomes the result's error.
template <class Body>
FsRankResult guarded(const ProbeContext& c, std::string file, bool reads, Body&& body) {
  FsRankResult r = begin(c, std::move(file), reads);
  try {
    body(r);
    finish(r, c);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    fail(r, c, e);
  }
  return r;
}

// Drops this host's cached pages of `path` (a hint; errors ignored).
void drop_cached_pages_of(const std::string& path) noexcept;
// Drops this host's cached pages of `path` (a hint) and returns the share that stayed resident.
double drop_and_measure_cache(const std::string& path);
// Nearest-rank percentile q in (0, 1] of the values (0 when there are none).
double percentile(std::vector<double> values, double q);
// The whole (small) file as text.
std::string read_text(const std::string& path);

// Reads a whole file of `expected` bytes in blocks, feeding `sink(data, n)` and rank 0's progress;
// throws RuntimeFailure when it is shorter. Returns the bytes read.
template <class Sink>
std::uint64_t read_whole(File& f, IoBuffer& buf, std::uint64_t expected, const ProbeContext& c, Sink&& sink) {
  std::uint64_t off = 0;
  while (off < expected) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), expected - off));
    const std::size_t got = f.read_at(buf.data(), want, off);
    if (got > 0) sink(buf.data(), got);
    off += got;
    report(c, off, expected);
    if (got < want) {
      throw RuntimeFailure(fmt::format("read {}: the file ends at {} bytes, {} were written", f.path(), off, expected));
    }
  }
  return off;
}

}  // namespace podperf::probe_kit
