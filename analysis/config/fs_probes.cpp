// The filesystem probe catalog's look-ups and the texts made from it (the --probes items, help and
// the missing-writer message). Floor analysis/, pure, local; throws nothing but std::bad_alloc.
#include "analysis/config/fs_probes.hpp"

#include <algorithm>

#include "analysis/base/text.hpp"

namespace podperf {
namespace {

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  if (items.size() <= 1) return text::join(items);
  const std::vector<std::string> head(items.begin(), items.end() - 1);
  return text::join(head) + " and " + items.back();
}

void add_once(std::vector<std::string>& out, std::string_view item) {
  if (std::find(out.begin(), out.end(), item) == out.end()) out.emplace_back(item);
}

// The --probes items that read what `writer` leaves, in catalog order.
std::vector<std::string> readers_of(std::string_view writer) {
  std::vector<std::string> out;
  for (const FsProbeTraits& t : kFsProbes) {
    if (t.needs == writer) add_once(out, t.option);
  }
  return out;
}

// The --probes items whose rows leave files for readers that exist, in catalog order.
std::vector<std::string> writers_with_readers() {
  std::vector<std::string> out;
  for (const FsProbeTraits& t : kFsProbes) {
    if (!t.leaves.empty() && !readers_of(t.option).empty()) add_once(out, t.option);
  }
  return out;
}

std::string_view leaves_of(std::string_view writer) {
  for (const FsProbeTraits& t : kFsProbes) {
    if (t.option == writer && !t.leaves.empty()) return t.leaves;
  }
  return "files";
}

}  // namespace

const FsProbeTraits* find_fs_probe(std::string_view name) {
  for (const FsProbeTraits& t : kFsProbes) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::vector<std::string> fs_probe_options() {
  std::vector<std::string> out;
  for (const FsProbeTraits& t : kFsProbes) add_once(out, t.option);
  return out;
}

bool is_fs_probe_option(std::string_view option) {
  return std::any_of(kFsProbes.begin(), kFsProbes.end(),
                     [option](const FsProbeTraits& t) { return t.option == option; });
}

bool is_fs_probe_list(std::string_view list) {
  while (true) {
    const std::size_t comma = list.find(',');
    if (!is_fs_probe_option(list.substr(0, comma))) return false;
    if (comma == std::string_view::npos) return true;
    list.remove_prefix(comma + 1);
  }
}

std::string fs_probe_options_text(std::string_view sep) {
  return text::join(fs_probe_options(), sep);
}

std::string fs_probes_help() {
  std::vector<std::string> clauses;
  for (const std::string& w : writers_with_readers()) {
    // The first clause has the verb; the others share it: "a read w's files, b v's shards".
    clauses.push_back(and_list(readers_of(w)) + (clauses.empty() ? " read " : " ") + w + "'s " +
                      std::string(leaves_of(w)));
  }
  std::string help = "comma list of " + fs_probe_options_text();
  if (!clauses.empty()) help += " (reads need the matching write: " + text::join(clauses) + ")";
  return help;
}

std::string fs_missing_writer(const std::vector<std::string>& chosen) {
  auto has = [&chosen](std::string_view item) { return std::find(chosen.begin(), chosen.end(), item) != chosen.end(); };
  for (const std::string& w : writers_with_readers()) {
    if (has(w)) continue;
    const std::vector<std::string> readers = readers_of(w);
    if (std::none_of(readers.begin(), readers.end(), has)) continue;
    return and_list(readers) + (readers.size() == 1 ? " reads the " : " read the ") + std::string(leaves_of(w)) + " " +
           w + " writes; add " + w;
  }
  return "";
}

bool fs_probe_is_meta(std::string_view probe) {
  const FsProbeTraits* t = find_fs_probe(probe);
  return t != nullptr && t->io == FsIo::kMetadata;
}

bool fs_probe_reads(std::string_view probe) {
  const FsProbeTraits* t = find_fs_probe(probe);
  return t != nullptr && t->io == FsIo::kRead;
}

bool fs_probe_writes(std::string_view probe) {
  const FsProbeTraits* t = find_fs_probe(probe);
  return t != nullptr && t->io == FsIo::kWrite;
}

bool fs_probe_has_latency(std::string_view probe) {
  const FsProbeTraits* t = find_fs_probe(probe);
  return t != nullptr && t->judge == FsJudge::kLatency;
}

double fs_probe_floor_mb_s(std::string_view probe, double write_floor, double read_floor) {
  const FsProbeTraits* t = find_fs_probe(probe);
  if (t == nullptr || !t->floor) return 0.0;
  if (t->io == FsIo::kWrite) return write_floor;
  if (t->io == FsIo::kRead) return read_floor;
  return 0.0;
}

std::string fs_probe_label(std::string_view probe, int block) {
  return block > 0 ? std::string(probe) + " #" + std::to_string(block) : std::string(probe);
}

}  // namespace podperf
