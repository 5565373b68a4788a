// Compile-time check of podperf's NCCL declarations (bench/nccl_api.hpp) against the toolkit's nccl.h:
// result codes, data types, the NOCOLOR value, the unique id and the 2.18 prefix of ncclConfig_t.
// Built only where nccl.h is found; contains no code.
#include <nccl.h>

#include <cstddef>

#include "bench/nccl_api.hpp"

namespace podperf {

static_assert(kNcclSuccess == ncclSuccess && kNcclInProgress == ncclInProgress);
static_assert(kNcclInvalidArgument == ncclInvalidArgument && kNcclInvalidUsage == ncclInvalidUsage);
constexpr bool same(int a, int b) { return a == b; }
static_assert(same(kNcclInt32, ncclInt32) && same(kNcclFloat16, ncclFloat16) && same(kNcclFloat32, ncclFloat32));
static_assert(same(kNcclFloat64, ncclFloat64) && same(kNcclBfloat16, ncclBfloat16) && same(kNcclSum, ncclSum));
static_assert(kNcclSplitNoColor == NCCL_SPLIT_NOCOLOR);
static_assert(sizeof(NcclUniqueId) == sizeof(ncclUniqueId));
static_assert(kNcclMinVersion == NCCL_VERSION(2, 18, 0) && kNcclAlltoAllVersion == NCCL_VERSION(2, 28, 0));
static_assert(offsetof(NcclConfig, magic) == offsetof(ncclConfig_t, magic));
static_assert(offsetof(NcclConfig, version) == offsetof(ncclConfig_t, version));
static_assert(offsetof(NcclConfig, blocking) == offsetof(ncclConfig_t, blocking));
static_assert(offsetof(NcclConfig, net_name) == offsetof(ncclConfig_t, netName));
static_assert(offsetof(NcclConfig, split_share) == offsetof(ncclConfig_t, splitShare));
static_assert(sizeof(NcclConfig) <= sizeof(ncclConfig_t));

}  // namespace podperf
