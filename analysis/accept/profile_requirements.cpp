// Whether a run measured what an acceptance profile asks. Accept floor; pure, local; throws nothing.
#include "analysis/accept/profile_requirements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/base/units.hpp"
#include "analysis/config/fs_probes.hpp"

namespace podperf {
namespace {

std::string size_range(const std::set<std::uint64_t>& sizes) {
  if (sizes.empty()) return "none";
  if (sizes.size() == 1) return format_size(*sizes.begin());
  return fmt::format("{}..{} ({})", format_size(*sizes.begin()), format_size(*sizes.rbegin()), sizes.size());
}

// A size a profile holds as text (validated when the profile was loaded); 0 when it does not parse.
std::uint64_t size_of(const std::string& text) {
  try {
    return parse_size(text, "profile");
  } catch (const std::exception&) {
    return 0;
  }
}

class Requirements {
 public:
  Requirements(const Run& run, const std::vector<ProfileOverride>& overrides) : run_(run) {
    for (const ProfileOverride& o : overrides) overridden_.insert(o.option);
  }

  // `ok`: met (text `met`); else unmet: the run has `measured` where the profile wants `wanted`.
  void require(bool ok, std::string met, std::string measured, std::string wanted, std::vector<std::string> options) {
    if (ok) {
      out_.met.push_back(std::move(met));
      return;
    }
    UnmetRequirement u{std::move(measured), std::move(wanted), std::move(options), false};
    for (const std::string& o : u.options) u.overridden = u.overridden || overridden_.contains(o);
    out_.unmet.push_back(std::move(u));
  }

  void pairs(const ProfilePairs& pp) {
    std::set<std::uint64_t> measured;
    for (const PairResult& p : run_.pairs) measured.insert(p.size_bytes);
    // The acceptance size is what the verdict rests on (busbw_min, straggler, slow_link): it must be measured
    // and the nodes judged there or above. The smaller sizes of the profile's sweep draw the curve only.
    const std::uint64_t judged =
        run_.judged_size_bytes != 0 ? run_.judged_size_bytes : (measured.empty() ? 0 : *measured.rbegin());
    const std::string sizes = fmt::format("sizes {} judged at {}", size_range(measured), format_size(judged));
    require(measured.contains(pp.max_size_bytes) && judged >= pp.max_size_bytes, sizes, sizes,
            fmt::format("{}..{}, judged at {}", pp.min_bytes, pp.max_bytes, pp.max_bytes), {"-b", "-e", "-f", "-i"});
    const RunOptions& o = run_.options;
    require(o.iters >= pp.iters, fmt::format("{} iterations", o.iters), fmt::format("{} iterations", o.iters),
            fmt::format("{}", pp.iters), {"-n"});
    require(o.warmup >= pp.warmup, fmt::format("{} warm-up", o.warmup), fmt::format("{} warm-up", o.warmup),
            fmt::format("{}", pp.warmup), {"-w"});
    require(o.retest >= pp.retest, fmt::format("retest {}", o.retest), fmt::format("retest {}", o.retest),
            fmt::format("{}", pp.retest), {"--retest"});
    require(o.concurrency == pp.concurrency, fmt::format("concurrency {}", o.concurrency),
            fmt::format("concurrency {}", o.concurrency.empty() ? "?" : o.concurrency), pp.concurrency,
            {"--concurrency"});
    const std::string op = run_.pairs.empty() ? o.op : run_.pairs.front().op;
    require(op == "all_reduce", "all_reduce", fmt::format("op {}", op), "all_reduce", {"--op"});
  }

  void fs(const ProfileFs& f) {
    std::map<std::string, const FsProbeResult*> first;  // probe name -> its first result
    std::set<std::string> options;                      // the --probes items that ran
    for (const FsProbeResult& p : run_.fs.probes) {
      first.emplace(p.probe, &p);
      const FsProbeTraits* t = find_fs_probe(p.probe);
      options.insert(t != nullptr ? std::string(t->option) : p.probe);
    }
    std::vector<std::string> missing;
    for (const auto& item : split_list(f.probes)) {
      if (!options.contains(item)) missing.push_back(item);
    }
    require(missing.empty(), fmt::format("probes {}", fmt::join(options, ",")),
            fmt::format("probes {}", fmt::join(options, ",")),
            fmt::format("{} (not run: {})", f.probes, fmt::join(missing, ", ")), {"--probes"});
    const auto at_least = [&](const char* probe, std::uint64_t value_of_probe, std::uint64_t wanted, const char* what,
                              bool sizes, const char* option) {
      if (!first.contains(probe) || wanted == 0) return;
      const auto text = [&](std::uint64_t v) { return sizes ? format_size(v) : fmt::format("{}", v); };
      require(value_of_probe >= wanted, fmt::format("{} {} {}", probe, what, text(value_of_probe)),
              fmt::format("{} {} {}", probe, what, text(value_of_probe)), text(wanted), {option});
    };
    const auto field = [&](const char* probe, auto member) -> std::uint64_t {
      auto it = first.find(probe);
      return it == first.end() ? 0 : static_cast<std::uint64_t>(it->second->*member);
    };
    at_least("seq-write", field("seq-write", &FsProbeResult::file_size_bytes), size_of(f.file_size), "file size", true,
             "--file-size");
    at_least("ckpt-save", field("ckpt-save", &FsProbeResult::file_size_bytes), size_of(f.ckpt_shard_size), "shard size",
             true, "--ckpt-shard-size");
    at_least("ckpt-save", field("ckpt-save", &FsProbeResult::files_per_rank), static_cast<std::uint64_t>(f.ckpt_shards),
             "shards per rank", false, "--ckpt-shards");
    at_least("meta-create", field("meta-create", &FsProbeResult::files_per_rank),
             static_cast<std::uint64_t>(f.meta_files), "files per rank", false, "--meta-files");
    if (auto it = first.find("rand-read"); it != first.end() && !it->second->ranks.empty() && f.rand_ops > 0) {
      at_least("rand-read", it->second->ranks.front().ops, static_cast<std::uint64_t>(f.rand_ops), "reads per rank",
               false, "--rand-ops");
    }
    if (auto it = first.find("seq-write"); it != first.end()) {
      const std::uint64_t block = it->second->block_size_bytes;
      const std::uint64_t wanted = size_of(f.block_size);
      if (wanted != 0) {
        require(block == wanted, fmt::format("block size {}", format_size(block)),
                fmt::format("block size {}", format_size(block)), format_size(wanted), {"--block-size"});
      }
    }
    if (f.direct) {
      bool all_direct = true;
      for (const FsProbeResult& p : run_.fs.probes) {
        const FsProbeTraits* t = find_fs_probe(p.probe);
        if (t != nullptr && t->direct && !p.direct) all_direct = false;
      }
      require(all_direct, "O_DIRECT", "page cache (no O_DIRECT)", "O_DIRECT", {"--direct"});
    }
  }

  ProfileRequirements finish(const Profile& profile) {
    std::vector<std::string> asked;   // unmet, overridden on the command line
    std::vector<std::string> lacked;  // unmet, nobody asked
    for (const UnmetRequirement& u : out_.unmet) {
      (u.overridden ? asked : lacked).push_back(fmt::format("{} (profile: {})", u.measured, u.wanted));
    }
    if (out_.unmet.empty() && out_.met.empty()) {
      out_.status = "SKIP";
      out_.detail = fmt::format("no stage of profile {} in this run (see the stages check)", profile.name);
    } else if (out_.unmet.empty()) {
      out_.status = "PASS";
      out_.detail = fmt::format("the run measured what profile {} asks: {}", profile.name, fmt::join(out_.met, "; "));
    } else if (lacked.empty()) {
      out_.status = "WARN";
      out_.detail = fmt::format("not profile {}'s acceptance: overridden on the command line: {}", profile.name,
                                fmt::join(asked, "; "));
    } else {
      out_.status = "FAIL";
      out_.detail =
          fmt::format("the run measured less than profile {} asks: {}", profile.name, fmt::join(lacked, "; "));
      if (!asked.empty()) out_.detail += fmt::format("; overridden on the command line: {}", fmt::join(asked, "; "));
    }
    return std::move(out_);
  }

 private:
  static std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(',', start), list.size());
      if (end > start) out.push_back(list.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }

  const Run& run_;
  std::set<std::string> overridden_;
  ProfileRequirements out_;
};

}  // namespace

ProfileRequirements check_profile_requirements(const Run& run, const Profile& profile,
                                               const std::vector<ProfileOverride>& overrides) {
  Requirements r(run, overrides);
  if (profile.pairs_stage && !run.pairs.empty()) r.pairs(profile.pairs);
  if (profile.fs_stage && !run.fs.probes.empty()) r.fs(profile.fs);
  return r.finish(profile);
}

}  // namespace podperf
