#pragma once
// What a shared filesystem should deliver: FSx for Lustre throughput per TiB of storage by deployment
// type (configs/filesystems.toml, IOR, fio, elbencho, DLIO and the FSx for Lustre performance documentation). Writes
// and cache-missing reads are limited by the lower of the network and disk baselines.
#include <string>
#include <string_view>
#include <vector>

namespace podperf {

struct FsxDeployment {
  std::string name;  // "PERSISTENT_2-250"
  double network_mb_s_per_tib = 0.0;
  double disk_read_mb_s_per_tib = 0.0;
  double disk_write_mb_s_per_tib = 0.0;
};

struct FsCapacityTable {
  std::vector<FsxDeployment> fsx;
  std::string source;  // "embedded:filesystems.toml" or the path
};

struct FsExpected {
  double read_mb_s = 0.0;
  double write_mb_s = 0.0;
  std::string source;  // "FSx PERSISTENT_2-250 x 4.8 TiB, per configs/filesystems.toml (built in)"
};

// Parses TOML text; `source` names it in errors. Throws ConfigError (file:line, key, expected).
FsCapacityTable parse_fs_capacity(std::string_view toml_text, const std::string& source);
// `path` empty: the embedded configs/filesystems.toml. Throws ConfigError.
FsCapacityTable load_fs_capacity(const std::string& path);

// capacity_tib x min(network, disk) per TiB for reads and writes. Throws UsageError naming the known
// deployment types when `deployment` is unknown (case-insensitive match), or when capacity_tib <= 0.
FsExpected fsx_expected(const FsCapacityTable& table, const std::string& deployment, double capacity_tib);

}  // namespace podperf
