#include "bench/fs/fs_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace podperf {
namespace {

constexpr std::size_t kAlign = 4096;

const char* errno_name(int e) {
  switch (e) {
    case ENOSPC: return "ENOSPC";
    case EIO: return "EIO";
    case EDQUOT: return "EDQUOT";
    case EACCES: return "EACCES";
    case EROFS: return "EROFS";
    case ENOENT: return "ENOENT";
    case EINVAL: return "EINVAL";
    case EEXIST: return "EEXIST";
    default: return nullptr;
  }
}

}  // namespace

void throw_fs_error(const std::string& op, const std::string& file, int error_number, std::int64_t offset) {
  const char* name = errno_name(error_number);
  const std::string where = offset >= 0 ? fmt::format(" at offset {}", offset) : "";
  const std::string reason = name != nullptr ? fmt::format("{} ({})", std::strerror(error_number), name)
                                             : std::string(std::strerror(error_number));
  throw FsIoError(fmt::format("{} {}{}: {}", op, file, where, reason), error_number);
}

void IoBuffer::Free::operator()(unsigned char* p) const {
  std::free(p);
}

IoBuffer::IoBuffer(std::size_t bytes, std::uint64_t seed) : size_(bytes) {
  void* p = nullptr;
  const std::size_t rounded = (bytes + kAlign - 1) / kAlign * kAlign;
  if (::posix_memalign(&p, kAlign, rounded == 0 ? kAlign : rounded) != 0) throw std::bad_alloc();
  data_.reset(static_cast<unsigned char*>(p));
  // splitmix64: cheap, and every byte differs from the block before.
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < rounded; i += 8) {
    x += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    std::memcpy(data_.get() + i, &z, 8);
  }
}

void IoBuffer::stamp(std::uint64_t a, std::uint64_t b) {
  if (size_ >= 16) {
    std::memcpy(data_.get(), &a, 8);
    std::memcpy(data_.get() + 8, &b, 8);
  }
}

File::File(const std::string& path, int flags, bool direct, int mode) : path_(path) {
  fd_ = ::open(path.c_str(), flags | O_CLOEXEC | (direct ? O_DIRECT : 0), mode);
  if (fd_ < 0) {
    const int e = errno;
    if (direct && e == EINVAL) {
      throw FsIoError(fmt::format("open {} with O_DIRECT: the filesystem does not support direct I/O (EINVAL); "
                                  "run without --direct",
                                  path),
                      e);
    }
    throw_fs_error("open", path, e);
  }
}

File::~File() {
  if (fd_ >= 0) ::close(fd_);
}

void File::write_at(const void* data, std::size_t bytes, std::uint64_t offset) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pwrite(fd_, p + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_fs_error("write", path_, errno, static_cast<std::int64_t>(offset + done));
    }
    if (n == 0) throw_fs_error("write", path_, EIO, static_cast<std::int64_t>(offset + done));
    done += static_cast<std::size_t>(n);
  }
}

std::size_t File::read_at(void* data, std::size_t bytes, std::uint64_t offset) {
  auto* p = static_cast<unsigned char*>(data);
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = ::pread(fd_, p + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_fs_error("read", path_, errno, static_cast<std::int64_t>(offset + done));
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void File::fsync() {
  if (::fsync(fd_) != 0) throw_fs_error("fsync", path_, errno);
}

void File::close() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw_fs_error("close", path_, errno);
}

void File::drop_cached_pages() noexcept {
  (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
}

double File::cached_fraction() const noexcept {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || st.st_size <= 0) return -1.0;
  const auto length = static_cast<std::size_t>(st.st_size);
  void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd_, 0);
  if (map == MAP_FAILED) return -1.0;
  const long page = ::sysconf(_SC_PAGESIZE);
  const std::size_t pages = (length + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page);
  std::vector<unsigned char> resident(pages);
  double out = -1.0;
  if (::mincore(map, length, resident.data()) == 0) {
    std::size_t in = 0;
    for (unsigned char r : resident) in += r & 1U;
    out = static_cast<double>(in) / static_cast<double>(pages);
  }
  ::munmap(map, length);
  return out;
}

std::uint64_t File::size_bytes() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw_fs_error("fstat", path_, errno);
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace podperf
