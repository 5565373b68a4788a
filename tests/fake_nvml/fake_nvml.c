/* A fake NVML for tests: exports the NVML symbols podperf dlopens, with GPUs and values read from the
 * text file named by $FAKE_NVML_CONFIG at every nvmlInit_v2 (one `key=value` per line, '#' comments):
 *
 *   gpus=2                     number of GPUs (default 0)
 *   driver=535.161.08          nvmlSystemGetDriverVersion
 *   cuda=12020                 nvmlSystemGetCudaDriverVersion (also cuDriverGetVersion)
 *   nccl=22803                 ncclGetVersion (so the same file stands in for libnccl's version call)
 *   init_error=9               nvmlInit_v2 returns this (9: NVML_ERROR_DRIVER_NOT_LOADED)
 *   gpuN.<field>=<value>       per GPU, N from 0: name, temp, slowdown, sm_clock, sm_clock_max,
 *                              clock_reasons (decimal or 0x hex), pcie_gen, pcie_gen_max, pcie_width,
 *                              pcie_width_max, ecc_volatile_uncorrected, ecc_aggregate_uncorrected,
 *                              remap_correctable, remap_uncorrectable, remap_pending, remap_failure,
 *                              nvlinks (link count), nvlink_down (index of an inactive link),
 *                              nvlink_replay / nvlink_recovery / nvlink_crc_flit / nvlink_crc_data
 *                              (counter value on every link), lost=1 (handle call returns
 *                              NVML_ERROR_GPU_IS_LOST), ecc_supported=0, remap_supported=0
 *
 * Deliberately absent: nvmlDeviceGetGpuFabricInfo, nvmlDeviceGetCurrentClocksEventReasons (only the
 * older ...ThrottleReasons is exported) and nvmlSystemGetCudaDriverVersion_v2, so the reader's
 * "missing symbol = not supported" and fallback paths run. Test-only code: never shipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_MAX_GPUS 16
#define FAKE_MAX_LINKS 18

typedef int nvmlReturn_t;
typedef struct FakeGpu* nvmlDevice_t;

typedef struct {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
} FakePciInfo;

struct FakeGpu {
  int index;
  char name[64];
  long long temp, slowdown, sm_clock, sm_clock_max;
  unsigned long long clock_reasons;
  long long pcie_gen, pcie_gen_max, pcie_width, pcie_width_max;
  long long ecc_volatile, ecc_aggregate;
  long long remap_corr, remap_unc, remap_pending, remap_failure;
  long long nvlinks, nvlink_down;
  long long nvlink_counters[4];
  int lost, ecc_supported, remap_supported;
};

static struct FakeGpu g_gpus[FAKE_MAX_GPUS];
static int g_count = 0;
static char g_driver[64] = "535.161.08";
static int g_cuda = 12020;
static int g_nccl = 22803;
static int g_init_error = 0;

static void fake_defaults(void) {
  g_count = 0;
  strcpy(g_driver, "535.161.08");
  g_cuda = 12020;
  g_nccl = 22803;
  g_init_error = 0;
  for (int i = 0; i < FAKE_MAX_GPUS; ++i) {
    struct FakeGpu* g = &g_gpus[i];
    memset(g, 0, sizeof *g);
    g->index = i;
    snprintf(g->name, sizeof g->name, "Fake H100 80GB HBM3");
    g->temp = 45;
    g->slowdown = 90;
    g->sm_clock = 1980;
    g->sm_clock_max = 1980;
    g->clock_reasons = 0;
    g->pcie_gen = 5;
    g->pcie_gen_max = 5;
    g->pcie_width = 16;
    g->pcie_width_max = 16;
    g->nvlinks = 0;
    g->nvlink_down = -1;
    g->ecc_supported = 1;
    g->remap_supported = 1;
  }
}

static void fake_set(struct FakeGpu* g, const char* field, const char* value) {
  long long v = strtoll(value, NULL, 0);
  if (strcmp(field, "name") == 0) snprintf(g->name, sizeof g->name, "%s", value);
  else if (strcmp(field, "temp") == 0) g->temp = v;
  else if (strcmp(field, "slowdown") == 0) g->slowdown = v;
  else if (strcmp(field, "sm_clock") == 0) g->sm_clock = v;
  else if (strcmp(field, "sm_clock_max") == 0) g->sm_clock_max = v;
  else if (strcmp(field, "clock_reasons") == 0) g->clock_reasons = strtoull(value, NULL, 0);
  else if (strcmp(field, "pcie_gen") == 0) g->pcie_gen = v;
  else if (strcmp(field, "pcie_gen_max") == 0) g->pcie_gen_max = v;
  else if (strcmp(field, "pcie_width") == 0) g->pcie_width = v;
  else if (strcmp(field, "pcie_width_max") == 0) g->pcie_width_max = v;
  else if (strcmp(field, "ecc_volatile_uncorrected") == 0) g->ecc_volatile = v;
  else if (strcmp(field, "ecc_aggregate_uncorrected") == 0) g->ecc_aggregate = v;
  else if (strcmp(field, "remap_correctable") == 0) g->remap_corr = v;
  else if (strcmp(field, "remap_uncorrectable") == 0) g->remap_unc = v;
  else if (strcmp(field, "remap_pending") == 0) g->remap_pending = v;
  else if (strcmp(field, "remap_failure") == 0) g->remap_failure = v;
  else if (strcmp(field, "nvlinks") == 0) g->nvlinks = v;
  else if (strcmp(field, "nvlink_down") == 0) g->nvlink_down = v;
  else if (strcmp(field, "nvlink_replay") == 0) g->nvlink_counters[0] = v;
  else if (strcmp(field, "nvlink_recovery") == 0) g->nvlink_counters[1] = v;
  else if (strcmp(field, "nvlink_crc_flit") == 0) g->nvlink_counters[2] = v;
  else if (strcmp(field, "nvlink_crc_data") == 0) g->nvlink_counters[3] = v;
  else if (strcmp(field, "lost") == 0) g->lost = (int)v;
  else if (strcmp(field, "ecc_supported") == 0) g->ecc_supported = (int)v;
  else if (strcmp(field, "remap_supported") == 0) g->remap_supported = (int)v;
}

static void fake_load(void) {
  fake_defaults();
  const char* path = getenv("FAKE_NVML_CONFIG");
  if (path == NULL) return;
  FILE* f = fopen(path, "r");
  if (f == NULL) return;
  char line[256];
  while (fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '#' || line[0] == '\0') continue;
    char* eq = strchr(line, '=');
    if (eq == NULL) continue;
    *eq = '\0';
    const char* key = line;
    const char* value = eq + 1;
    if (strcmp(key, "gpus") == 0) {
      g_count = atoi(value);
      if (g_count < 0) g_count = 0;
      if (g_count > FAKE_MAX_GPUS) g_count = FAKE_MAX_GPUS;
    } else if (strcmp(key, "driver") == 0) {
      snprintf(g_driver, sizeof g_driver, "%s", value);
    } else if (strcmp(key, "cuda") == 0) {
      g_cuda = atoi(value);
    } else if (strcmp(key, "nccl") == 0) {
      g_nccl = atoi(value);
    } else if (strcmp(key, "init_error") == 0) {
      g_init_error = atoi(value);
    } else if (strncmp(key, "gpu", 3) == 0) {
      char* dot = strchr(key, '.');
      if (dot == NULL) continue;
      int i = atoi(key + 3);
      if (i >= 0 && i < FAKE_MAX_GPUS) fake_set(&g_gpus[i], dot + 1, value);
    }
  }
  fclose(f);
}

static nvmlReturn_t copy_string(char* out, unsigned length, const char* s) {
  if (out == NULL) return 2;
  if (strlen(s) + 1 > length) return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
  strcpy(out, s);
  return 0;
}

nvmlReturn_t nvmlInit_v2(void) {
  fake_load();
  return g_init_error;
}
nvmlReturn_t nvmlShutdown(void) { return 0; }
const char* nvmlErrorString(nvmlReturn_t rc) {
  switch (rc) {
    case 0: return "Success";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 9: return "Driver Not Loaded";
    case 15: return "GPU is lost";
    default: return "Unknown Error";
  }
}
nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned length) { return copy_string(version, length, g_driver); }
nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* v) {
  *v = g_cuda;
  return 0;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* count) {
  *count = (unsigned)g_count;
  return 0;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t* device) {
  if (index >= (unsigned)g_count) return 2;
  if (g_gpus[index].lost) return 15; /* NVML_ERROR_GPU_IS_LOST */
  *device = &g_gpus[index];
  return 0;
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned length) { return copy_string(name, length, d->name); }
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned length) {
  char s[64];
  snprintf(s, sizeof s, "GPU-fake0000-0000-0000-0000-%012d", d->index);
  return copy_string(uuid, length, s);
}
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, FakePciInfo* pci) {
  memset(pci, 0, sizeof *pci);
  pci->bus = (unsigned)(0x10 + d->index);
  snprintf(pci->bus_id, sizeof pci->bus_id, "00000000:%02X:00.0", pci->bus);
  snprintf(pci->bus_id_legacy, sizeof pci->bus_id_legacy, "0000:%02X:00.0", pci->bus);
  return 0;
}
static nvmlReturn_t out_uint(long long v, unsigned* out) {
  if (v < 0) return 3; /* NVML_ERROR_NOT_SUPPORTED */
  *out = (unsigned)v;
  return 0;
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned* t) {
  return sensor == 0 ? out_uint(d->temp, t) : 2;
}
nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t d, int kind, unsigned* t) {
  return kind == 1 ? out_uint(d->slowdown, t) : 3;
}
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned* mhz) { return type == 1 ? out_uint(d->sm_clock, mhz) : 3; }
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned* mhz) {
  return type == 1 ? out_uint(d->sm_clock_max, mhz) : 3;
}
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* reasons) {
  *reasons = d->clock_reasons;
  return 0;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { return out_uint(d->pcie_gen, v); }
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* v) { return out_uint(d->pcie_gen_max, v); }
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* v) { return out_uint(d->pcie_width, v); }
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* v) { return out_uint(d->pcie_width_max, v); }
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int error_type, int counter_type, unsigned long long* count) {
  if (!d->ecc_supported) return 3;
  if (error_type != 1) return 3; /* the fake knows uncorrected errors only */
  *count = (unsigned long long)(counter_type == 0 ? d->ecc_volatile : d->ecc_aggregate);
  return 0;
}
nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned* corr, unsigned* unc, unsigned* pending,
                                       unsigned* failure) {
  if (!d->remap_supported) return 3;
  *corr = (unsigned)d->remap_corr;
  *unc = (unsigned)d->remap_unc;
  *pending = (unsigned)d->remap_pending;
  *failure = (unsigned)d->remap_failure;
  return 0;
}
nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link, unsigned* active) {
  if (d->nvlinks <= 0) return 3;
  if ((long long)link >= d->nvlinks || link >= FAKE_MAX_LINKS) return 2;
  *active = (long long)link == d->nvlink_down ? 0u : 1u;
  return 0;
}
nvmlReturn_t nvmlDeviceGetNvLinkErrorCounter(nvmlDevice_t d, unsigned link, int counter, unsigned long long* value) {
  if ((long long)link >= d->nvlinks || counter < 0 || counter > 3) return 2;
  *value = (unsigned long long)d->nvlink_counters[counter];
  return 0;
}

/* Stand-ins for the version getters of libnccl.so.2 and libcuda.so.1 (read the same config). */
int ncclGetVersion(int* version) {
  fake_load();
  *version = g_nccl;
  return 0;
}
int cuDriverGetVersion(int* version) {
  fake_load();
  *version = g_cuda;
  return 0;
}
