#pragma once
// MPI session, a move-only communicator, the MPI check macro and small gather helpers.
#include <mpi.h>

#include <string>
#include <vector>

#include "analysis/base/errors.hpp"

namespace podperf {

// An MPI call failed: carries host, rank, file:line, the call text and MPI's own message. Exit 3.
class MpiError : public RuntimeFailure {
 public:
  MpiError(const std::string& host, int rank, const char* file, int line, const char* call, int code);
};

[[noreturn]] void throw_mpi_error(const char* file, int line, const char* call, int code);

#define PODPERF_CHECK_MPI(call)                                           \
  do {                                                                    \
    const int podperf_mpi_rc_ = (call);                                   \
    if (podperf_mpi_rc_ != MPI_SUCCESS) {                                 \
      ::podperf::throw_mpi_error(__FILE__, __LINE__, #call, podperf_mpi_rc_); \
    }                                                                     \
  } while (0)

// This process's host name (gethostname).
std::string local_hostname();

// Initializes MPI (MPI_THREAD_FUNNELED: only the main thread calls MPI) and sets
// MPI_ERRORS_RETURN on the world, so failures become MpiError. Finalizes on destruction.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

// Owns an MPI communicator (freed on destruction unless it is MPI_COMM_WORLD or null).
class Comm {
 public:
  Comm() = default;
  explicit Comm(MPI_Comm comm, bool owned);
  static Comm world();
  ~Comm();
  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  [[nodiscard]] bool is_null() const { return comm_ == MPI_COMM_NULL; }
  [[nodiscard]] MPI_Comm raw() const { return comm_; }
  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  // Collective over this communicator. color < 0: this rank gets a null Comm.
  [[nodiscard]] Comm split(int color, int key) const;
  // Collective: ranks sharing memory (one host).
  [[nodiscard]] Comm split_shared() const;
  void barrier() const;

 private:
  void release() noexcept;
  MPI_Comm comm_ = MPI_COMM_NULL;
  bool owned_ = false;
  int rank_ = -1;
  int size_ = 0;
};

// Collective over `comm`: broadcasts a string from `root`.
std::string broadcast_string(const Comm& comm, const std::string& value, int root);
// Collective: every rank's string, in rank order, on `root` (empty vector elsewhere).
std::vector<std::string> gather_strings(const Comm& comm, const std::string& value, int root);
// Collective: every rank's string, in rank order, on every rank.
std::vector<std::string> allgather_strings(const Comm& comm, const std::string& value);

}  // namespace podperf
