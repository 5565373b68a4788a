// pairs.bin writer and reader (see run_json_pairs_file.hpp; layout in docs/schema.md). Floor:
// analysis/, local. The reader throws InputError naming the file; the writer what its sink throws.
#include "analysis/io/run_json_pairs_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unordered_map>

#include "analysis/base/errors.hpp"

namespace podperf {
namespace {

static_assert(std::endian::native == std::endian::little, "pairs.bin is little-endian");

constexpr std::array<char, 8> kMagic{'P', 'O', 'D', 'P', 'A', 'I', 'R', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 48;
constexpr std::size_t kRecordBytes = 152;
constexpr std::size_t kPairsPieceBytes = 1 << 20;

template <typename T>
void put(char* at, T value) {
  std::memcpy(at, &value, sizeof value);
}
template <typename T>
T get(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// The distinct strings of the pairs (op, dtype, status, error), in first-seen order.
class StringTable {
 public:
  std::uint32_t id(const std::string& s) {
    const auto [it, added] = ids_.try_emplace(s, static_cast<std::uint32_t>(strings_.size()));
    if (added) strings_.push_back(&it->first);
    return it->second;
  }
  [[nodiscard]] const std::vector<const std::string*>& strings() const { return strings_; }

 private:
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<const std::string*> strings_;
};

std::uint16_t small_id(StringTable& t, const std::string& s) {
  const std::uint32_t id = t.id(s);
  if (id > 0xffff) throw std::length_error("pairs.bin: more than 65535 distinct op, dtype or status strings");
  return static_cast<std::uint16_t>(id);
}

// One pair as its 152-byte record (offsets in docs/schema.md).
void encode(const PairResult& p, StringTable& t, char* r) {
  std::memset(r, 0, kRecordBytes);
  put<std::int32_t>(r + 0, p.round);
  put<std::int32_t>(r + 4, p.nodes[0]);
  put<std::int32_t>(r + 8, p.nodes[1]);
  put<std::int32_t>(r + 12, p.ranks);
  put<std::uint64_t>(r + 16, p.size_bytes);
  put<std::uint64_t>(r + 24, p.count);
  put<std::int64_t>(r + 32, p.wrong);
  const std::array<double, 11> numbers{
      p.median_s,          p.min_s,         p.max_s, p.p99_s,     p.cv, p.algbw_gbps, p.busbw_gbps,
      p.retest_busbw_gbps, p.baseline_gbps, p.ratio, p.noise_gbps};
  std::memcpy(r + 40, numbers.data(), sizeof numbers);
  put<std::uint32_t>(r + 128, static_cast<std::uint32_t>(p.samples_s.size()));
  put<std::uint32_t>(r + 132, static_cast<std::uint32_t>(p.retest_samples_s.size()));
  put<std::uint32_t>(r + 136, t.id(p.error));
  put<std::uint16_t>(r + 140, small_id(t, p.op));
  put<std::uint16_t>(r + 142, small_id(t, p.dtype));
  put<std::uint16_t>(r + 144, small_id(t, p.status));
  put<std::uint8_t>(r + 146, static_cast<std::uint8_t>((p.flagged ? 1 : 0) | (p.cleared_by_retest ? 2 : 0)));
  put<std::uint8_t>(r + 147, static_cast<std::uint8_t>(std::min<std::size_t>(p.later_retest_busbw_gbps.size(), 255)));
}

// Reads `size` bytes at a moving offset of one file through a 1 MiB buffer.
class FileReader {
 public:
  FileReader(int fd, const std::string& path, std::uint64_t offset) : fd_(fd), path_(path), offset_(offset) {}
  void read(char* out, std::size_t size) {
    while (size > 0) {
      if (pos_ == len_) fill();
      const std::size_t n = std::min(size, len_ - pos_);
      std::memcpy(out, buffer_.data() + pos_, n);
      pos_ += n;
      out += n;
      size -= n;
    }
  }

 private:
  void fill() {
    buffer_.resize(kPairsPieceBytes);
    for (;;) {
      const ssize_t got = ::pread(fd_, buffer_.data(), buffer_.size(), static_cast<off_t>(offset_));
      if (got > 0) {
        offset_ += static_cast<std::uint64_t>(got);
        pos_ = 0;
        len_ = static_cast<std::size_t>(got);
        return;
      }
      if (got == 0) throw InputError(fmt::format("{}: shorter than its header says", path_));
      if (errno != EINTR) throw InputError(fmt::format("{}: read failed: {}", path_, std::strerror(errno)));
    }
  }
  int fd_;
  const std::string& path_;
  std::uint64_t offset_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  std::size_t len_ = 0;
};

struct Header {
  std::uint64_t pairs = 0, samples = 0, strings = 0, strings_bytes = 0;
};

Header read_header(int fd, const std::string& path) {
  std::array<char, kHeaderBytes> h{};
  FileReader(fd, path, 0).read(h.data(), h.size());
  if (std::memcmp(h.data(), kMagic.data(), kMagic.size()) != 0) {
    throw InputError(fmt::format("{}: not a podperf pairs file (no {} magic)", path, kPairsFileFormat));
  }
  if (get<std::uint32_t>(h.data() + 8) != kVersion || get<std::uint32_t>(h.data() + 12) != kRecordBytes) {
    throw InputError(fmt::format("{}: version {} with {}-byte records is not supported (this podperf reads {}, {})",
                                 path, get<std::uint32_t>(h.data() + 8), get<std::uint32_t>(h.data() + 12), kVersion,
                                 kRecordBytes));
  }
  return {get<std::uint64_t>(h.data() + 16), get<std::uint64_t>(h.data() + 24), get<std::uint64_t>(h.data() + 32),
          get<std::uint64_t>(h.data() + 40)};
}

std::vector<std::string> read_strings(FileReader& in, const Header& h, const std::string& path) {
  std::vector<std::string> strings;
  std::uint64_t left = h.strings_bytes;
  for (std::uint64_t i = 0; i < h.strings; ++i) {
    std::uint32_t len = 0;
    if (left < sizeof len) throw InputError(fmt::format("{}: string table shorter than its header says", path));
    in.read(reinterpret_cast<char*>(&len), sizeof len);
    left -= sizeof len;
    if (left < len) throw InputError(fmt::format("{}: string table shorter than its header says", path));
    std::string s(len, '\0');
    in.read(s.data(), len);
    left -= len;
    strings.push_back(std::move(s));
  }
  if (left != 0) throw InputError(fmt::format("{}: string table longer than its strings", path));
  return strings;
}

const std::string& string_at(const std::vector<std::string>& strings, std::uint32_t id, const std::string& path,
                             std::uint64_t pair) {
  if (id >= strings.size()) {
    throw InputError(fmt::format("{}: pair {}: string {} of a table of {}", path, pair, id, strings.size()));
  }
  return strings[id];
}

void decode(const char* r, const std::vector<std::string>& strings, const std::string& path, std::uint64_t index,
            PairResult& p) {
  p.round = get<std::int32_t>(r + 0);
  p.nodes = {get<std::int32_t>(r + 4), get<std::int32_t>(r + 8)};
  p.ranks = get<std::int32_t>(r + 12);
  p.size_bytes = get<std::uint64_t>(r + 16);
  p.count = get<std::uint64_t>(r + 24);
  p.wrong = get<std::int64_t>(r + 32);
  std::array<double, 11> n{};
  std::memcpy(n.data(), r + 40, sizeof n);
  p.median_s = n[0];
  p.min_s = n[1];
  p.max_s = n[2];
  p.p99_s = n[3];
  p.cv = n[4];
  p.algbw_gbps = n[5];
  p.busbw_gbps = n[6];
  p.retest_busbw_gbps = n[7];
  p.baseline_gbps = n[8];
  p.ratio = n[9];
  p.noise_gbps = n[10];
  p.error = string_at(strings, get<std::uint32_t>(r + 136), path, index);
  p.op = string_at(strings, get<std::uint16_t>(r + 140), path, index);
  p.dtype = string_at(strings, get<std::uint16_t>(r + 142), path, index);
  p.status = string_at(strings, get<std::uint16_t>(r + 144), path, index);
  const auto flags = get<std::uint8_t>(r + 146);
  p.flagged = (flags & 1) != 0;
  p.cleared_by_retest = (flags & 2) != 0;
}

}  // namespace

void write_pairs_file(const std::vector<PairResult>& pairs, const std::function<void(std::string_view)>& sink) {
  StringTable table;
  std::uint64_t samples = 0;
  for (const PairResult& p : pairs) {  // the small ids first: errors may be many
    (void)small_id(table, p.op);
    (void)small_id(table, p.dtype);
    (void)small_id(table, p.status);
    samples +=
        p.samples_s.size() + p.retest_samples_s.size() + std::min<std::size_t>(p.later_retest_busbw_gbps.size(), 255);
  }
  for (const PairResult& p : pairs) (void)table.id(p.error);
  std::uint64_t strings_bytes = 0;
  for (const std::string* s : table.strings()) strings_bytes += sizeof(std::uint32_t) + s->size();
  std::string out(kHeaderBytes, '\0');
  std::memcpy(out.data(), kMagic.data(), kMagic.size());
  put<std::uint32_t>(out.data() + 8, kVersion);
  put<std::uint32_t>(out.data() + 12, kRecordBytes);
  put<std::uint64_t>(out.data() + 16, pairs.size());
  put<std::uint64_t>(out.data() + 24, samples);
  put<std::uint64_t>(out.data() + 32, table.strings().size());
  put<std::uint64_t>(out.data() + 40, strings_bytes);
  for (const std::string* s : table.strings()) {
    const auto len = static_cast<std::uint32_t>(s->size());
    out.append(reinterpret_cast<const char*>(&len), sizeof len);
    out += *s;
  }
  const auto flush = [&](bool always) {
    if (always || out.size() >= kPairsPieceBytes) {
      sink(out);
      out.clear();
    }
  };
  std::array<char, kRecordBytes> record{};
  for (const PairResult& p : pairs) {
    encode(p, table, record.data());
    out.append(record.data(), record.size());
    flush(false);
  }
  for (const PairResult& p : pairs) {
    out.append(reinterpret_cast<const char*>(p.samples_s.data()), p.samples_s.size() * sizeof(double));
    out.append(reinterpret_cast<const char*>(p.retest_samples_s.data()), p.retest_samples_s.size() * sizeof(double));
    out.append(reinterpret_cast<const char*>(p.later_retest_busbw_gbps.data()),
               std::min<std::size_t>(p.later_retest_busbw_gbps.size(), 255) * sizeof(double));
    flush(false);
  }
  flush(true);
}

nlohmann::json pairs_file_member(const std::vector<PairResult>& pairs, const std::string& file_name) {
  return {{"path", file_name}, {"format", kPairsFileFormat}, {"pairs", pairs.size()}};
}

std::vector<PairResult> read_pairs_file(const nlohmann::json& member, const std::string& run_json_path) {
  std::string name;
  std::uint64_t expected = 0;
  try {
    name = member.at("path").get<std::string>();
    expected = member.at("pairs").get<std::uint64_t>();
    if (member.at("format").get<std::string>() != kPairsFileFormat) {
      throw InputError(fmt::format("{}: pairs_file format {} is not supported (this podperf reads {})", run_json_path,
                                   member.at("format").dump(), kPairsFileFormat));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: bad field: pairs_file: {}", run_json_path, e.what()));
  }
  if (name.empty() || name.find('/') != std::string::npos) {
    throw InputError(
        fmt::format("{}: bad field: pairs_file.path '{}' (a file name beside run.json)", run_json_path, name));
  }
  const std::string path = (std::filesystem::path(run_json_path).parent_path() / name).string();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw InputError(
        fmt::format("{}: cannot open the pairs file {} it names: {}", run_json_path, path, std::strerror(errno)));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const Header h = read_header(fd, path);
  struct stat st {};
  const std::uint64_t size = ::fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  const std::uint64_t records_at = kHeaderBytes + h.strings_bytes;
  if (h.pairs != expected || h.pairs > size / kRecordBytes || h.samples > size / sizeof(double) ||
      records_at + h.pairs * kRecordBytes + h.samples * sizeof(double) != size) {
    throw InputError(
        fmt::format("{}: {} bytes for {} pairs and {} samples ({} expected by {}): cut or not its pairs file", path,
                    size, h.pairs, h.samples, expected, run_json_path));
  }
  FileReader strings_in(fd, path, kHeaderBytes);
  const std::vector<std::string> strings = read_strings(strings_in, h, path);
  FileReader records(fd, path, records_at);
  FileReader samples(fd, path, records_at + h.pairs * kRecordBytes);
  std::vector<PairResult> pairs(h.pairs);
  std::uint64_t samples_left = h.samples;
  std::array<char, kRecordBytes> r{};
  for (std::uint64_t i = 0; i < h.pairs; ++i) {
    records.read(r.data(), r.size());
    PairResult& p = pairs[i];
    decode(r.data(), strings, path, i, p);
    const std::uint64_t n = get<std::uint32_t>(r.data() + 128), m = get<std::uint32_t>(r.data() + 132);
    const std::uint64_t later = get<std::uint8_t>(r.data() + 147);
    if (n + m + later > samples_left) {
      throw InputError(fmt::format("{}: pair {}: more samples than the file holds", path, i));
    }
    samples_left -= n + m + later;
    p.samples_s.resize(n);
    samples.read(reinterpret_cast<char*>(p.samples_s.data()), n * sizeof(double));
    p.retest_samples_s.resize(m);
    samples.read(reinterpret_cast<char*>(p.retest_samples_s.data()), m * sizeof(double));
    p.later_retest_busbw_gbps.resize(later);
    samples.read(reinterpret_cast<char*>(p.later_retest_busbw_gbps.data()), later * sizeof(double));
  }
  if (samples_left != 0) throw InputError(fmt::format("{}: {} samples that no pair holds", path, samples_left));
  return pairs;
}

}  // namespace podperf
