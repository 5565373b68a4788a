#pragma once
// POSIX file I/O for the filesystem probes, each call checked: a failure throws FsIoError naming the
// operation, the file, the offset where there is one, and the system's message. Local, no MPI.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "analysis/base/errors.hpp"

namespace podperf {

class FsIoError : public RuntimeFailure {
 public:
  FsIoError(const std::string& what, int error_number) : RuntimeFailure(what), errno_(error_number) {}
  [[nodiscard]] int error_number() const { return errno_; }

 private:
  int errno_;
};

// "write /x/r3.seq at offset 1048576: No space left on device (ENOSPC)"
[[noreturn]] void throw_fs_error(const std::string& op, const std::string& file, int error_number,
                                 std::int64_t offset = -1);

// Memory aligned to 4 KiB (what O_DIRECT needs), filled with pseudo-random bytes from `seed` so that
// compressing or deduplicating filesystems cannot shortcut the writes.
class IoBuffer {
 public:
  IoBuffer(std::size_t bytes, std::uint64_t seed);
  [[nodiscard]] unsigned char* data() { return data_.get(); }
  [[nodiscard]] const unsigned char* data() const { return data_.get(); }
  [[nodiscard]] std::size_t size() const { return size_; }
  // Writes (a, b) into the first 16 bytes (when the buffer has them): every block written is unique.
  void stamp(std::uint64_t a, std::uint64_t b);

 private:
  struct Free {
    void operator()(unsigned char* p) const;
  };
  std::unique_ptr<unsigned char, Free> data_;
  std::size_t size_;
};

// An open file; closed (without checking) by the destructor, checked by close().
class File {
 public:
  // flags as for open(2); direct adds O_DIRECT (EINVAL on filesystems without it, e.g. tmpfs, is
  // reported as such).
  File(const std::string& path, int flags, bool direct, int mode = 0644);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // Whole-buffer pwrite/pread, retrying short transfers. read returns the bytes read (less at EOF).
  void write_at(const void* data, std::size_t bytes, std::uint64_t offset);
  std::size_t read_at(void* data, std::size_t bytes, std::uint64_t offset);
  void fsync();
  void close();
  // posix_fadvise(DONTNEED) on the whole file: a hint to drop this host's cached pages of it (only
  // clean pages go; only podperf's own file is affected). Errors are ignored.
  void drop_cached_pages() noexcept;
  // Share of the file's pages resident in this host's page cache (mmap + mincore), 0..1; -1 when it
  // cannot be measured (empty file, mmap refused).
  [[nodiscard]] double cached_fraction() const noexcept;
  [[nodiscard]] std::uint64_t size_bytes() const;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace podperf
