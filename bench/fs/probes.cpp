// The filesystem probes, one rank's part of each (see probes.hpp). Floor bench/, local, no MPI.
#include "bench/fs/probes.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "analysis/base/errors.hpp"
#include "bench/fs/checksum.hpp"
#include "bench/fs/fs_io.hpp"
#include "bench/fs/probe_kit.hpp"

namespace podperf {

using namespace probe_kit;

std::string seq_file_name(int rank) {
  return fmt::format("seq.r{}", rank);
}
std::string meta_dir_name(int rank) {
  return fmt::format("meta.r{}", rank);
}
std::string shard_file_name(int rank, std::uint64_t shard) {
  return fmt::format("{}/shard.r{}.{}", kCkptDir, rank, shard);
}

FsRankResult probe_seq_write(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, seq_file_name(c.rank), false, [&](FsRankResult& r) {
    IoBuffer buf(p.block_size_bytes, kSeedBase + static_cast<std::uint64_t>(c.rank));
    const std::string path = path_of(c, r.file);
    r.start_s = seconds_since(c.start);
    File f(path, O_WRONLY | O_CREAT | O_TRUNC, p.direct);
    for (std::uint64_t off = 0; off < p.file_size_bytes; off += p.block_size_bytes) {
      const auto n = static_cast<std::size_t>(std::min(p.block_size_bytes, p.file_size_bytes - off));
      buf.stamp(static_cast<std::uint64_t>(c.rank), off);
      f.write_at(buf.data(), n, off);
      r.bytes += n;
      ++r.ops;
      report(c, r.bytes, p.file_size_bytes);
    }
    f.fsync();
    f.close();
    r.end_s = seconds_since(c.start);  // the timed region is open .. close, as fio's and IOR's
    // Clean after fsync, so a reader on this host misses the cache. Not timed: dropping 1 GiB of pages
    // takes tens of milliseconds, a write does not include it.
    if (!p.direct) drop_cached_pages_of(path);
  });
}

FsRankResult probe_seq_read(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, seq_file_name(c.source_rank), true, [&](FsRankResult& r) {
    IoBuffer buf(p.block_size_bytes, 1);
    const std::string path = path_of(c, r.file);
    if (!p.direct) r.cached_fraction = drop_and_measure_cache(path);
    r.start_s = seconds_since(c.start);
    File f(path, O_RDONLY, p.direct);
    r.bytes = read_whole(f, buf, p.file_size_bytes, c, [&](const unsigned char*, std::size_t) { ++r.ops; });
    f.close();
  });
}

FsRankResult probe_rand_read(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, seq_file_name(c.source_rank), true, [&](FsRankResult& r) {
    IoBuffer buf(p.rand_block_size_bytes, 1);
    const std::string path = path_of(c, r.file);
    const std::uint64_t blocks = p.file_size_bytes / p.rand_block_size_bytes;
    std::mt19937_64 rng(kSeedBase ^ static_cast<std::uint64_t>(c.rank) * 0x9E3779B97F4A7C15ULL);
    std::vector<std::uint64_t> offsets(p.rand_ops);
    for (std::uint64_t& o : offsets) o = (rng() % blocks) * p.rand_block_size_bytes;
    r.latency_us.reserve(offsets.size());
    if (!p.direct) r.cached_fraction = drop_and_measure_cache(path);
    r.start_s = seconds_since(c.start);
    File f(path, O_RDONLY, p.direct);
    for (std::uint64_t off : offsets) {
      const auto t = std::chrono::steady_clock::now();
      const std::size_t got = f.read_at(buf.data(), p.rand_block_size_bytes, off);
      r.latency_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count());
      if (got != p.rand_block_size_bytes) {
        throw RuntimeFailure(fmt::format("read {} at offset {}: {} of {} bytes (the file is shorter than written)",
                                         path, off, got, p.rand_block_size_bytes));
      }
      r.bytes += got;
      ++r.ops;
      if (r.ops % 256 == 0) report(c, r.ops, p.rand_ops);
    }
    f.close();
    r.lat_p50_us = percentile(r.latency_us, 0.50);
    r.lat_p90_us = percentile(r.latency_us, 0.90);
    r.lat_p99_us = percentile(r.latency_us, 0.99);
    r.lat_p999_us = percentile(r.latency_us, 0.999);
  });
}

FsRankResult probe_meta_create(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, meta_dir_name(c.rank), false, [&](FsRankResult& r) {
    const std::string dir = path_of(c, r.file);
    if (::mkdir(dir.c_str(), 0755) != 0) throw_fs_error("mkdir", dir, errno);
    IoBuffer buf(std::max<std::uint64_t>(p.meta_file_size_bytes, 16), kSeedBase + static_cast<std::uint64_t>(c.rank));
    r.start_s = seconds_since(c.start);
    for (std::uint64_t i = 0; i < p.meta_files; ++i) {
      File f(fmt::format("{}/f{}", dir, i), O_WRONLY | O_CREAT | O_EXCL, false);
      if (p.meta_file_size_bytes > 0) {
        buf.stamp(static_cast<std::uint64_t>(c.rank), i);
        f.write_at(buf.data(), p.meta_file_size_bytes, 0);
      }
      f.close();
      r.bytes += p.meta_file_size_bytes;
      ++r.ops;
      if (r.ops % 256 == 0) report(c, r.ops, p.meta_files);
    }
  });
}

FsRankResult probe_meta_stat(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, meta_dir_name(c.source_rank), true, [&](FsRankResult& r) {
    const std::string dir = path_of(c, r.file);
    r.start_s = seconds_since(c.start);
    for (std::uint64_t i = 0; i < p.meta_files; ++i) {
      const std::string file = fmt::format("{}/f{}", dir, i);
      struct stat st {};
      if (::stat(file.c_str(), &st) != 0) throw_fs_error("stat", file, errno);
      ++r.ops;
    }
  });
}

FsRankResult probe_meta_read(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, meta_dir_name(c.source_rank), true, [&](FsRankResult& r) {
    const std::string dir = path_of(c, r.file);
    IoBuffer buf(std::max<std::uint64_t>(p.meta_file_size_bytes, 16), 1);
    r.start_s = seconds_since(c.start);
    for (std::uint64_t i = 0; i < p.meta_files; ++i) {
      File f(fmt::format("{}/f{}", dir, i), O_RDONLY, false);
      const std::size_t got = p.meta_file_size_bytes > 0 ? f.read_at(buf.data(), p.meta_file_size_bytes, 0) : 0;
      if (got != p.meta_file_size_bytes) {
        throw RuntimeFailure(fmt::format("read {}: {} of {} bytes", f.path(), got, p.meta_file_size_bytes));
      }
      f.close();
      r.bytes += got;
      ++r.ops;
    }
  });
}

FsRankResult probe_meta_unlink(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, meta_dir_name(c.rank), false, [&](FsRankResult& r) {
    const std::string dir = path_of(c, r.file);
    r.start_s = seconds_since(c.start);
    for (std::uint64_t i = 0; i < p.meta_files; ++i) {
      const std::string file = fmt::format("{}/f{}", dir, i);
      if (::unlink(file.c_str()) != 0) throw_fs_error("unlink", file, errno);
      ++r.ops;
    }
    finish(r, c);  // the directory's removal is not part of the timed phase
    if (::rmdir(dir.c_str()) != 0) throw_fs_error("rmdir", dir, errno);
  });
}

FsRankResult probe_ckpt_save(const ProbeContext& c, std::vector<ShardRecord>& saved) {
  const FsPlan& p = *c.plan;
  return guarded(c, shard_file_name(c.rank, 0), false, [&](FsRankResult& r) {
    IoBuffer buf(p.block_size_bytes, kSeedBase + 7919 * static_cast<std::uint64_t>(c.rank + 1));
    const std::uint64_t total = p.ckpt_shard_size_bytes * p.ckpt_shards;
    r.start_s = seconds_since(c.start);
    for (std::uint64_t k = 0; k < p.ckpt_shards; ++k) {
      ShardRecord rec{c.rank, k, shard_file_name(c.rank, k), 0, 0};
      Checksum sum;
      File f(path_of(c, rec.file), O_WRONLY | O_CREAT | O_TRUNC, p.direct);
      for (std::uint64_t off = 0; off < p.ckpt_shard_size_bytes; off += p.block_size_bytes) {
        const auto n = static_cast<std::size_t>(std::min(p.block_size_bytes, p.ckpt_shard_size_bytes - off));
        buf.stamp((static_cast<std::uint64_t>(c.rank) << 32) | k, off);
        f.write_at(buf.data(), n, off);
        sum.update(buf.data(), n);
        rec.bytes += n;
        r.bytes += n;
        ++r.ops;
        report(c, r.bytes, total);
      }
      f.fsync();
      f.close();
      rec.checksum = sum.value();
      saved.push_back(std::move(rec));
    }
  });
}

void drop_saved_shards(const ProbeContext& c, const std::vector<ShardRecord>& saved) {
  if (c.plan->direct) return;
  for (const ShardRecord& s : saved) drop_cached_pages_of(path_of(c, s.file));
}

std::string format_ckpt_metadata(const std::vector<ShardRecord>& shards) {
  nlohmann::json j;
  j["format"] = "podperf-checkpoint-1";
  j["shards"] = nlohmann::json::array();
  for (const ShardRecord& s : shards) {
    j["shards"].push_back({{"rank", s.rank},
                           {"shard", s.shard},
                           {"file", s.file},
                           {"bytes", s.bytes},
                           {"checksum", fmt::format("{:016x}", s.checksum)}});
  }
  return j.dump(1) + "\n";
}

std::vector<ShardRecord> parse_ckpt_metadata(const std::string& text) {
  std::vector<ShardRecord> out;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (j.value("format", "") != "podperf-checkpoint-1") throw InputError("not a podperf checkpoint metadata file");
    for (const nlohmann::json& s : j.at("shards")) {
      ShardRecord r;
      r.rank = s.at("rank").get<int>();
      r.shard = s.at("shard").get<std::uint64_t>();
      r.file = s.at("file").get<std::string>();
      r.bytes = s.at("bytes").get<std::uint64_t>();
      r.checksum = std::stoull(s.at("checksum").get<std::string>(), nullptr, 16);
      out.push_back(std::move(r));
    }
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("checkpoint metadata: {}", e.what()));
  }
  return out;
}

double write_ckpt_metadata(const ProbeContext& c, const std::vector<ShardRecord>& shards, FsRankResult& r) {
  try {
    const std::string text = format_ckpt_metadata(shards);
    const std::string final_path = path_of(c, kCkptMetadata);
    const std::string tmp = final_path + ".tmp";
    File f(tmp, O_WRONLY | O_CREAT | O_TRUNC, false);
    f.write_at(text.data(), text.size(), 0);
    f.fsync();
    f.close();
    if (::rename(tmp.c_str(), final_path.c_str()) != 0) throw_fs_error("rename", tmp + " to " + final_path, errno);
    File dir(path_of(c, kCkptDir), O_RDONLY | O_DIRECTORY, false);
    dir.fsync();
    dir.close();
    return seconds_since(c.start);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    if (status_ok(r.status)) {
      r.status = "error";
      r.error = fmt::format("node {} rank {}: {}", c.node_label, c.rank, e.what());
    }
  }
  return 0.0;
}

FsRankResult probe_ckpt_load(const ProbeContext& c) {
  const FsPlan& p = *c.plan;
  return guarded(c, shard_file_name(c.source_rank, 0), true, [&](FsRankResult& r) {
    IoBuffer buf(p.block_size_bytes, 1);
    if (!p.direct) {
      double cached = 0.0;
      for (std::uint64_t k = 0; k < p.ckpt_shards; ++k) {
        cached = std::max(cached, drop_and_measure_cache(path_of(c, shard_file_name(c.source_rank, k))));
      }
      r.cached_fraction = cached;
    }
    const std::uint64_t total = p.ckpt_shard_size_bytes * p.ckpt_shards;
    r.start_s = seconds_since(c.start);
    const std::vector<ShardRecord> shards = parse_ckpt_metadata(read_text(path_of(c, kCkptMetadata)));
    std::vector<std::string> mismatches;
    std::uint64_t found = 0;
    for (const ShardRecord& s : shards) {
      if (s.rank != c.source_rank) continue;
      ++found;
      Checksum sum;
      File f(path_of(c, s.file), O_RDONLY, p.direct);
      read_whole(f, buf, s.bytes, c, [&](const unsigned char* data, std::size_t n) {
        sum.update(data, n);
        r.bytes += n;
        ++r.ops;
        report(c, r.bytes, total);
      });
      f.close();
      if (sum.value() != s.checksum) {
        ++r.checksum_mismatches;
        mismatches.push_back(fmt::format("{} (saved {:016x}, read {:016x})", s.file, s.checksum, sum.value()));
      }
    }
    if (found != p.ckpt_shards) {
      throw RuntimeFailure(fmt::format("{}: lists {} shards of rank {}, {} were saved", kCkptMetadata, found,
                                       c.source_rank, p.ckpt_shards));
    }
    if (!mismatches.empty()) {
      r.status = "wrong";
      r.error =
          fmt::format("node {} rank {}: checksum mismatch in {}", c.node_label, c.rank, fmt::join(mismatches, ", "));
    }
  });
}

}  // namespace podperf
