/* A fake NCCL for tests: exports the NCCL symbols podperf dlopens (bench/nccl_api.hpp) and plays a
 * non-blocking communicator's life as $FAKE_NCCL says, read at every ncclCommInitRankConfig and
 * ncclCommSplit (comma-separated key=value; unknown keys are ignored):
 *
 *   version=N          ncclGetVersion (default 22809; the _old library 21805)
 *   init_error=R       ncclCommInitRankConfig returns R ...
 *   init_error_rank=K  ... only for rank K (default: every rank)
 *   init_polls=N       the new communicator reads ncclInProgress for N polls (-1: forever), then success
 *   async_error=R      after init, ncclCommGetAsyncError reports R from the first poll on
 *   getasync_fail=R    ncclCommGetAsyncError itself returns R
 *   split_polls=N      a split child is written into *newcomm after N polls of the parent (-1: never,
 *                      until fake_nccl_complete_splits)
 *   coll_polls=N       each collective leaves the communicator in progress for N polls
 *   send_fail=R        ncclSend returns R
 *   finalize_error=R / destroy_error=R / abort_error=R   those calls return R
 *
 * Test hooks: fake_nccl_count("abort"|"destroy"|"finalize"|"group_start"|"group_end"|"send"|"recv"|
 * "alltoall"|"all_reduce"), fake_nccl_group_depth(), fake_nccl_reset(), fake_nccl_last_split_slot()
 * and fake_nccl_complete_splits() (writes a child into every pending slot, as NCCL's thread would
 * when it finishes late). Built without ncclAlltoAll as podperf_fake_nccl_old. Test-only code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_NCCL_DEFAULT_VERSION
#define FAKE_NCCL_DEFAULT_VERSION 22809
#endif
#define FAKE_MAX_COMMS 64

typedef int ncclResult_t;
enum { kSuccess = 0, kInProgress = 7 };

typedef struct FakeComm {
  int used;
  int rank;
  int nranks;
  int polls_left; /* -1: forever */
  ncclResult_t async_error;
  ncclResult_t getasync_fail;
  struct FakeComm** pending_slot; /* split child not yet written */
  int split_polls_left;
  int coll_polls;
} FakeComm;
typedef FakeComm* ncclComm_t;
typedef struct {
  char internal[128];
} ncclUniqueId; /* passed by value, as in nccl.h */

static FakeComm comms[FAKE_MAX_COMMS];
static struct {
  int abort, destroy, finalize, group_start, group_end, send, recv, alltoall, all_reduce;
} counts;
static int group_depth;
static void* last_split_slot;
static char last_error[128];

static long cfg(const char* key, long fallback) {
  const char* env = getenv("FAKE_NCCL");
  if (env == NULL) return fallback;
  size_t n = strlen(key);
  for (const char* p = env; p != NULL && *p != '\0';) {
    if (strncmp(p, key, n) == 0 && p[n] == '=') return strtol(p + n + 1, NULL, 10);
    p = strchr(p, ',');
    if (p != NULL) ++p;
  }
  return fallback;
}

static FakeComm* new_comm(int rank, int nranks) {
  for (int i = 0; i < FAKE_MAX_COMMS; ++i) {
    if (!comms[i].used) {
      memset(&comms[i], 0, sizeof(comms[i]));
      comms[i].used = 1;
      comms[i].rank = rank;
      comms[i].nranks = nranks;
      comms[i].polls_left = (int)cfg("init_polls", 0);
      comms[i].async_error = (ncclResult_t)cfg("async_error", 0);
      comms[i].getasync_fail = (ncclResult_t)cfg("getasync_fail", 0);
      comms[i].coll_polls = (int)cfg("coll_polls", 0);
      return &comms[i];
    }
  }
  return NULL;
}

int fake_nccl_count(const char* what) {
  if (strcmp(what, "abort") == 0) return counts.abort;
  if (strcmp(what, "destroy") == 0) return counts.destroy;
  if (strcmp(what, "finalize") == 0) return counts.finalize;
  if (strcmp(what, "group_start") == 0) return counts.group_start;
  if (strcmp(what, "group_end") == 0) return counts.group_end;
  if (strcmp(what, "send") == 0) return counts.send;
  if (strcmp(what, "recv") == 0) return counts.recv;
  if (strcmp(what, "alltoall") == 0) return counts.alltoall;
  if (strcmp(what, "all_reduce") == 0) return counts.all_reduce;
  return -1;
}
int fake_nccl_group_depth(void) { return group_depth; }
void* fake_nccl_last_split_slot(void) { return last_split_slot; }
void fake_nccl_reset(void) {
  memset(comms, 0, sizeof(comms));
  memset(&counts, 0, sizeof(counts));
  group_depth = 0;
  last_split_slot = NULL;
}
void fake_nccl_complete_splits(void) {
  for (int i = 0; i < FAKE_MAX_COMMS; ++i) {
    if (comms[i].used && comms[i].pending_slot != NULL) {
      *comms[i].pending_slot = new_comm(comms[i].rank, comms[i].nranks);
      comms[i].pending_slot = NULL;
    }
  }
}

ncclResult_t ncclGetVersion(int* v) {
  *v = (int)cfg("version", FAKE_NCCL_DEFAULT_VERSION);
  return kSuccess;
}
const char* ncclGetErrorString(ncclResult_t r) {
  static char buf[64];
  snprintf(buf, sizeof(buf), "fake error %d", r);
  return buf;
}
const char* ncclGetLastError(ncclComm_t comm) {
  (void)comm;
  return last_error;
}
ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  memset(id->internal, 7, sizeof(id->internal));
  return kSuccess;
}
ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank, void* config) {
  (void)id;
  (void)config;
  long err = cfg("init_error", 0);
  long err_rank = cfg("init_error_rank", -1);
  if (err != 0 && (err_rank < 0 || err_rank == rank)) {
    snprintf(last_error, sizeof(last_error), "fake init failure on rank %d", rank);
    *comm = NULL;
    return (ncclResult_t)err;
  }
  *comm = new_comm(rank, nranks);
  return kInProgress;
}
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* state) {
  if (comm == NULL) return 4;
  if (comm->getasync_fail != 0) return comm->getasync_fail;
  if (comm->pending_slot != NULL && comm->split_polls_left > 0 && --comm->split_polls_left == 0) {
    *comm->pending_slot = new_comm(comm->rank, comm->nranks);
    comm->pending_slot = NULL;
  }
  if (comm->pending_slot != NULL) {
    *state = kInProgress;
    return kSuccess;
  }
  if (comm->polls_left != 0) {
    if (comm->polls_left > 0) --comm->polls_left;
    *state = kInProgress;
    return kSuccess;
  }
  *state = comm->async_error;
  return kSuccess;
}
ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t* newcomm, void* config) {
  (void)key;
  (void)config;
  if (comm == NULL) return 4;
  last_split_slot = newcomm;
  int polls = (int)cfg("split_polls", 0);
  if (color < 0) {
    *newcomm = NULL;
    return kSuccess;
  }
  if (polls == 0) {
    *newcomm = new_comm(comm->rank, comm->nranks);
    return kSuccess;
  }
  comm->pending_slot = newcomm;
  comm->split_polls_left = polls; /* -1: never */
  return kInProgress;
}
ncclResult_t ncclCommFinalize(ncclComm_t comm) {
  (void)comm;
  ++counts.finalize;
  return (ncclResult_t)cfg("finalize_error", 0);
}
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  ++counts.destroy;
  if (comm != NULL) comm->used = 0;
  return (ncclResult_t)cfg("destroy_error", 0);
}
ncclResult_t ncclCommAbort(ncclComm_t comm) {
  ++counts.abort;
  if (comm != NULL) comm->used = 0;
  return (ncclResult_t)cfg("abort_error", 0);
}
ncclResult_t ncclGroupStart(void) {
  ++counts.group_start;
  ++group_depth;
  return kSuccess;
}
ncclResult_t ncclGroupEnd(void) {
  ++counts.group_end;
  --group_depth;
  return kSuccess;
}
static ncclResult_t coll(ncclComm_t comm) {
  if (comm == NULL) return 4;
  comm->polls_left = comm->coll_polls;
  return comm->coll_polls != 0 ? kInProgress : kSuccess;
}
ncclResult_t ncclAllReduce(const void* s, void* r, size_t n, int t, int op, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)op, (void)st;
  ++counts.all_reduce;
  return coll(comm);
}
ncclResult_t ncclAllGather(const void* s, void* r, size_t n, int t, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)st;
  return coll(comm);
}
ncclResult_t ncclReduceScatter(const void* s, void* r, size_t n, int t, int op, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)op, (void)st;
  return coll(comm);
}
ncclResult_t ncclBroadcast(const void* s, void* r, size_t n, int t, int root, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)root, (void)st;
  return coll(comm);
}
ncclResult_t ncclReduce(const void* s, void* r, size_t n, int t, int op, int root, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)op, (void)root, (void)st;
  return coll(comm);
}
ncclResult_t ncclSend(const void* s, size_t n, int t, int peer, ncclComm_t comm, void* st) {
  (void)s, (void)n, (void)t, (void)peer, (void)st;
  ++counts.send;
  long fail = cfg("send_fail", 0);
  if (fail != 0) return (ncclResult_t)fail;
  return group_depth > 0 ? kSuccess : coll(comm);
}
ncclResult_t ncclRecv(void* r, size_t n, int t, int peer, ncclComm_t comm, void* st) {
  (void)r, (void)n, (void)t, (void)peer, (void)st;
  ++counts.recv;
  return group_depth > 0 ? kSuccess : coll(comm);
}
#ifndef FAKE_NCCL_NO_ALLTOALL
ncclResult_t ncclAlltoAll(const void* s, void* r, size_t n, int t, ncclComm_t comm, void* st) {
  (void)s, (void)r, (void)n, (void)t, (void)st;
  ++counts.alltoall;
  return coll(comm);
}
#endif
