#pragma once
// Private to signals/: the sysfs readers of collect_snapshot (read_efa_devices is public, in
// signals/snapshot.hpp). Each reads under `root` and never throws on host content: what cannot be read
// leaves the Reading not readable, with the reason in `why`.
#include <string>
#include <vector>

#include "signals/snapshot.hpp"

namespace podperf {

// <root>/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor, in CPU number order.
Reading<std::vector<CpuGovernor>> read_governors(const std::string& root);
// <root>/sys/bus/pci/devices/*: NVIDIA GPUs (vendor 0x10de, class 0x0302xx) and their link width and speed.
Reading<std::vector<PcieLink>> read_gpu_pcie(const std::string& root);
// <root>/sys/fs/lustre/osc/*/kbytes*, else <root>/proc/fs/lustre/osc.
Reading<std::vector<LustreOst>> read_lustre(const std::string& root);

}  // namespace podperf
