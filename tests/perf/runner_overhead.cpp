// The runner's per-operation timing overhead against a bare MPI loop of the same collective.
// Under mpirun (runner_overhead.sh): every rank in one group; for each size, REPS repetitions of
//   (a) podperf: run_case on the host backend's Group (what podperf pairs/collective time), and
//   (b) bare: MPI_Barrier, MPI_Wtime, MPI_Allreduce, MPI_Wtime, per iteration, on its own buffers,
// alternating which goes first, each with the same warm-up and iterations; per-iteration times are
// combined over ranks by max (podperf's default -a 3) on both sides. Rank 0 prints one line per
// repetition and a summary per size: the median over repetitions of (podperf / bare - 1) in percent,
// for the median per-iteration time and for the wall time of the whole loop per iteration.
// Short blocks (5 iterations) and many repetitions (31) pair each podperf block with a bare one run
// right next to it, which cancels the drift of a shared machine better than a few long blocks.
// With --empty-iters N it also measures the harness's own cost per operation, which the comparison
// above cannot resolve on a noisy machine: both loops on an empty all_reduce (count 0: MPI returns at
// once, so what differs is podperf's dispatch and bookkeeping inside the timed region), REPS blocks of
// N iterations each, alternating; the median over blocks of (podperf - bare) in nanoseconds with its
// 95% bootstrap interval, and that cost as a share of each size's measured bare operation.
// Usage: podperf_runner_overhead [--sizes 1M,4M,16M,64M] [--iters N] [--warmup N] [--reps N]
//                                [--bare-buffers first|last] [--empty-iters N]
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/base/units.hpp"
#include "analysis/compare/sweep_ranking.hpp"
#include "analysis/stats/stats.hpp"
#include "bench/backend_host.hpp"
#include "bench/collectives.hpp"
#include "bench/runner.hpp"

namespace podperf {
namespace {

struct Options {
  std::vector<std::uint64_t> sizes{1ULL << 20, 4ULL << 20, 16ULL << 20, 64ULL << 20};
  int iters = 5;
  int warmup = 2;
  int reps = 31;
  bool bare_first = false;  // allocate the bare loop's buffers before podperf's group
  int empty_iters = 0;      // > 0: also the harness cost on empty operations, blocks of this many
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--sizes") {
      o.sizes.clear();
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        o.sizes.push_back(parse_size(value.substr(start, comma - start), "--sizes"));
        start = comma + 1;
      }
    } else if (key == "--iters") {
      o.iters = std::atoi(value.c_str());
    } else if (key == "--warmup") {
      o.warmup = std::atoi(value.c_str());
    } else if (key == "--bare-buffers") {
      if (value != "first" && value != "last") throw std::runtime_error("--bare-buffers first|last");
      o.bare_first = value == "first";
    } else if (key == "--empty-iters") {
      o.empty_iters = std::atoi(value.c_str());
    } else if (key == "--reps") {
      o.reps = std::atoi(value.c_str());
    } else {
      throw std::runtime_error("unknown option " + key);
    }
  }
  if ((argc - 1) % 2 != 0) throw std::runtime_error("options come in pairs: --name value");
  if (o.iters < 1 || o.reps < 1 || o.warmup < 0) throw std::runtime_error("--iters/--reps >= 1, --warmup >= 0");
  return o;
}

struct Timing {
  std::vector<double> samples_s;  // per iteration, max over ranks
  double median_s = 0.0;  // their median
  double wall_per_iter_s = 0.0;  // the whole timed loop (barriers included) per iteration, rank 0
};

Timing time_podperf(Group& group, const Case& c, const Options& o) {
  group.comm().barrier();
  const double t0 = MPI_Wtime();
  const CaseMeasurement m = run_case(group, c, o.warmup, o.iters, /*check=*/false, TimeCombine::kMax);
  const double wall = MPI_Wtime() - t0;
  return {m.samples_s, median(m.samples_s), wall / o.iters};
}

Timing time_bare(MPI_Comm comm, std::vector<float>& send, std::vector<float>& recv, int count, const Options& o) {
  std::vector<double> samples(static_cast<std::size_t>(o.iters));
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  for (int i = 0; i < o.warmup; ++i) {
    MPI_Barrier(comm);
    MPI_Allreduce(send.data(), recv.data(), count, MPI_FLOAT, MPI_SUM, comm);
  }
  for (int i = 0; i < o.iters; ++i) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    MPI_Allreduce(send.data(), recv.data(), count, MPI_FLOAT, MPI_SUM, comm);
    samples[static_cast<std::size_t>(i)] = MPI_Wtime() - t0;
  }
  MPI_Allreduce(MPI_IN_PLACE, samples.data(), o.iters, MPI_DOUBLE, MPI_MAX, comm);
  const double wall = MPI_Wtime() - start;
  return {samples, median(samples), wall / o.iters};
}

double percent(double podperf, double bare) { return bare > 0.0 ? (podperf / bare - 1.0) * 100.0 : 0.0; }

// The harness's own cost per operation: both loops on an empty all_reduce, blocks alternating.
void harness_cost(Group& group, const Op& op, const Options& o, std::vector<float>& send, std::vector<float>& recv,
                  const std::vector<double>& bare_median_s, bool root) {
  const Case empty{&op, DType::kFloat, 0, false, 0};
  Options block = o;
  block.iters = o.empty_iters;
  block.warmup = 10;
  std::vector<double> diff_ns, pp_ns, bare_ns;
  for (int rep = 0; rep < o.reps; ++rep) {
    Timing pp, bare;
    if (rep % 2 == 0) {
      pp = time_podperf(group, empty, block);
      bare = time_bare(group.comm().raw(), send, recv, 0, block);
    } else {
      bare = time_bare(group.comm().raw(), send, recv, 0, block);
      pp = time_podperf(group, empty, block);
    }
    pp_ns.push_back(pp.median_s * 1e9);
    bare_ns.push_back(bare.median_s * 1e9);
    diff_ns.push_back((pp.median_s - bare.median_s) * 1e9);
  }
  if (!root) return;
  const auto [low, high] = bootstrap_median_interval(diff_ns, 0.95, 4000, 1);
  const double cost = median(diff_ns);
  std::printf(
      "\n# harness cost per operation (empty all_reduce, %d blocks of %d iterations): podperf %.0f ns, bare %.0f ns "
      "(medians); podperf - bare %+.1f ns (95%% interval %+.1f..%+.1f ns)\n",
      o.reps, o.empty_iters, median(pp_ns), median(bare_ns), cost, low, high);
  std::printf("# that cost as a share of the measured operation (upper end of the interval):\n");
  for (std::size_t i = 0; i < o.sizes.size() && i < bare_median_s.size(); ++i) {
    if (bare_median_s[i] <= 0.0) continue;
    std::printf("harness %-8s %6d %10.1fus %+9.4f%%\n", format_size(o.sizes[i]).c_str(), group.comm().size(),
                bare_median_s[i] * 1e6, std::max(std::fabs(low), std::fabs(high)) / (bare_median_s[i] * 1e9) * 100.0);
  }
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const Comm world = Comm::world();
  HostBackend backend;
  const std::uint64_t max_bytes = *std::max_element(o.sizes.begin(), o.sizes.end());
  // Buffers as the host backend allocates its own: value-initialized (zeros), one element spare.
  // Where they lie matters by a few percent on a VM (whichever pair is allocated second was 2-5%
  // faster or slower, the same either way round), so --bare-buffers first|last chooses, and
  // runner_overhead.sh runs both: their mean cancels the placement.
  std::vector<float> send, recv;
  const auto allocate = [&] {
    send.resize(max_bytes / sizeof(float) + 1);
    recv.resize(max_bytes / sizeof(float) + 1);
  };
  if (o.bare_first) allocate();
  std::unique_ptr<Group> group = backend.split(world, 0, world.rank(), max_bytes, DType::kFloat);
  if (!o.bare_first) allocate();
  const Op& op = find_op("all_reduce");
  const bool root = world.rank() == 0;
  if (root) {
    std::printf(
        "# runner overhead: all_reduce float, %d ranks, %d iterations (+%d warm-up), %d repetitions, bare "
        "buffers allocated %s\n",
        world.size(), o.iters, o.warmup, o.reps, o.bare_first ? "first" : "last");
    std::printf("%-8s %4s %-6s %12s %12s %9s %12s %12s %9s\n", "size", "rep", "first", "podperf_med", "bare_med",
                "med_%", "podperf_wall", "bare_wall", "wall_%");
  }
  std::vector<std::string> summary;
  std::vector<double> bare_median_s;  // per size: the bare operation's median over repetitions
  for (std::uint64_t size : o.sizes) {
    const Case c{&op, DType::kFloat, size, false, 0};
    const int count = static_cast<int>(size / sizeof(float));
    std::vector<double> med_pct, wall_pct, all_pp, all_bare, bare_rep_median;
    for (int rep = 0; rep < o.reps; ++rep) {
      Timing pp, bare;
      const bool podperf_first = rep % 2 == 0;  // alternate, so drift and cache effects cancel
      if (podperf_first) {
        pp = time_podperf(*group, c, o);
        bare = time_bare(group->comm().raw(), send, recv, count, o);
      } else {
        bare = time_bare(group->comm().raw(), send, recv, count, o);
        pp = time_podperf(*group, c, o);
      }
      bare_rep_median.push_back(bare.median_s);
      all_pp.insert(all_pp.end(), pp.samples_s.begin(), pp.samples_s.end());
      all_bare.insert(all_bare.end(), bare.samples_s.begin(), bare.samples_s.end());
      med_pct.push_back(percent(pp.median_s, bare.median_s));
      wall_pct.push_back(percent(pp.wall_per_iter_s, bare.wall_per_iter_s));
      if (root) {
        std::printf("%-8s %4d %-6s %10.1fus %10.1fus %+8.2f%% %10.1fus %10.1fus %+8.2f%%\n",
                    format_size(size).c_str(), rep, podperf_first ? "podperf" : "bare", pp.median_s * 1e6,
                    bare.median_s * 1e6, med_pct.back(), pp.wall_per_iter_s * 1e6, bare.wall_per_iter_s * 1e6,
                    wall_pct.back());
      }
    }
    const auto [mn, mx] = std::minmax_element(med_pct.begin(), med_pct.end());
    char line[256];
    const double q1 = quantile(med_pct, 0.25), q3 = quantile(med_pct, 0.75);
    std::snprintf(line, sizeof line, "%-8s %6d %+9.2f%% %+9.2f%% %+7.2f%%..%+.2f%% %+8.2f%%..%+.2f%% %+9.2f%%",
                  format_size(size).c_str(), world.size(), percent(median(all_pp), median(all_bare)),
                  median(med_pct), q1, q3, *mn, *mx, median(wall_pct));
    summary.emplace_back(line);
    bare_median_s.push_back(median(bare_rep_median));
  }
  if (root) {
    std::printf(
        "\n# overhead = podperf / bare - 1 of the per-operation time: pooled (median of all podperf samples over\n"
        "# median of all bare ones), and per repetition (median, quartiles, range over %d); wall: the whole\n"
        "# loop per iteration, barriers included (median over repetitions)\n",
        o.reps);
    std::printf("%-8s %6s %10s %10s %19s %21s %10s\n", "size", "ranks", "pooled", "per-rep", "per-rep IQR",
                "per-rep range", "wall");
    for (const std::string& s : summary) std::printf("%s\n", s.c_str());
  }
  if (o.empty_iters > 0) harness_cost(*group, op, o, send, recv, bare_median_s, root);
  return 0;
}

}  // namespace
}  // namespace podperf

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 0;
  try {
    rc = podperf::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "podperf_runner_overhead: error: %s\n", e.what());
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
