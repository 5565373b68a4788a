#include "bench/mpi.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <utility>

namespace podperf {

namespace {
std::string mpi_message(int code) {
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int len = 0;
  if (MPI_Error_string(code, text.data(), &len) != MPI_SUCCESS) return fmt::format("MPI error {}", code);
  return std::string(text.data(), static_cast<std::size_t>(len));
}

int world_rank_or_minus_one() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return -1;
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
}  // namespace

std::string local_hostname() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown-host";
  return std::string(name.data());
}

MpiError::MpiError(const std::string& host, int rank, const char* file, int line, const char* call, int code)
    : RuntimeFailure(fmt::format("MPI failure on host {} rank {} at {}:{}: {} -> {}", host, rank, file, line, call,
                                 mpi_message(code))) {}

void throw_mpi_error(const char* file, int line, const char* call, int code) {
  throw MpiError(local_hostname(), world_rank_or_minus_one(), file, line, call, code);
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  PODPERF_CHECK_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided));
  PODPERF_CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  PODPERF_CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank_));
  PODPERF_CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size_));
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && MPI_Finalize() != MPI_SUCCESS) std::fprintf(stderr, "podperf: MPI_Finalize failed\n");
}

Comm::Comm(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
  if (comm_ != MPI_COMM_NULL) {
    PODPERF_CHECK_MPI(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    PODPERF_CHECK_MPI(MPI_Comm_rank(comm_, &rank_));
    PODPERF_CHECK_MPI(MPI_Comm_size(comm_, &size_));
  }
}

Comm Comm::world() {
  return Comm(MPI_COMM_WORLD, false);
}

Comm::~Comm() {
  release();
}

Comm::Comm(Comm&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      owned_(std::exchange(other.owned_, false)),
      rank_(other.rank_),
      size_(other.size_) {}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    owned_ = std::exchange(other.owned_, false);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

void Comm::release() noexcept {
  if (owned_ && comm_ != MPI_COMM_NULL) {
    if (MPI_Comm_free(&comm_) != MPI_SUCCESS) std::fprintf(stderr, "podperf: MPI_Comm_free failed\n");
  }
  comm_ = MPI_COMM_NULL;
  owned_ = false;
}

Comm Comm::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  PODPERF_CHECK_MPI(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out));
  return Comm(out, true);
}

Comm Comm::split_shared() const {
  MPI_Comm out = MPI_COMM_NULL;
  PODPERF_CHECK_MPI(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &out));
  return Comm(out, true);
}

void Comm::barrier() const {
  PODPERF_CHECK_MPI(MPI_Barrier(comm_));
}

std::string broadcast_string(const Comm& comm, const std::string& value, int root) {
  unsigned long long length = value.size();
  PODPERF_CHECK_MPI(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm.raw()));
  std::string out = comm.rank() == root ? value : std::string(length, '\0');
  if (length > 0) PODPERF_CHECK_MPI(MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, root, comm.raw()));
  return out;
}

namespace {
// Strings of `lengths` (in rank order) stored back to back: their offsets, and the pieces.
std::vector<int> offsets_of(const std::vector<int>& lengths, int& total) {
  std::vector<int> offsets(lengths.size(), 0);
  total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = total;
    total += lengths[i];
  }
  return offsets;
}
std::vector<std::string> split_pieces(const std::string& all, const std::vector<int>& lengths,
                                      const std::vector<int>& offsets) {
  std::vector<std::string> out;
  out.reserve(lengths.size());
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}
}  // namespace

std::vector<std::string> gather_strings(const Comm& comm, const std::string& value, int root) {
  int length = static_cast<int>(value.size());
  std::vector<int> lengths(comm.rank() == root ? static_cast<std::size_t>(comm.size()) : 0);
  PODPERF_CHECK_MPI(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, comm.raw()));
  int total = 0;
  const std::vector<int> offsets = offsets_of(lengths, total);
  std::string all(static_cast<std::size_t>(total), '\0');
  PODPERF_CHECK_MPI(MPI_Gatherv(value.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                                root, comm.raw()));
  return split_pieces(all, lengths, offsets);
}

std::vector<std::string> allgather_strings(const Comm& comm, const std::string& value) {
  int length = static_cast<int>(value.size());
  std::vector<int> lengths(static_cast<std::size_t>(comm.size()));
  PODPERF_CHECK_MPI(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm.raw()));
  int total = 0;
  const std::vector<int> offsets = offsets_of(lengths, total);
  std::string all(static_cast<std::size_t>(total), '\0');
  PODPERF_CHECK_MPI(
      MPI_Allgatherv(value.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, comm.raw()));
  return split_pieces(all, lengths, offsets);
}

}  // namespace podperf
