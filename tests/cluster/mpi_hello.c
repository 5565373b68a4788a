/* mpi_hello.c - self-test program for the namespace cluster (tests/cluster).
 *
 *   mpi_hello                  one line per rank (printed by rank 0, in order):
 *                              HELLO rank=R size=N host=H shared=S
 *                              (S = size of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED))
 *   mpi_hello --pingpong BYTES ITERS
 *                              also: for every pair of ranks i<j, in turn, i and j
 *                              ping-pong BYTES ITERS times while the others wait;
 *                              rank 0 prints  PAIR i j hi hj MBps=X
 *                              (MB/s = 2*BYTES*ITERS / elapsed / 1e6, one warm-up exchange)
 * Build: mpicc -O2 -o mpi_hello mpi_hello.c
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOSTLEN 64

static double pingpong(int me, int peer, int first, char *buf, int bytes, int iters) {
    MPI_Status st;
    double t0 = 0.0;
    for (int it = -1; it < iters; ++it) { /* it == -1: warm-up */
        if (it == 0) t0 = MPI_Wtime();
        if (first) {
            MPI_Send(buf, bytes, MPI_CHAR, peer, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &st);
        } else {
            MPI_Recv(buf, bytes, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &st);
            MPI_Send(buf, bytes, MPI_CHAR, peer, 7, MPI_COMM_WORLD);
        }
    }
    (void)me;
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv) {
    int rank, size, shared_size;
    long bytes = 0;
    int iters = 0;
    char host[HOSTLEN];
    MPI_Comm shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--pingpong") == 0 && i + 2 < argc) {
            bytes = atol(argv[i + 1]);
            iters = atoi(argv[i + 2]);
            i += 2;
        }
    }

    memset(host, 0, sizeof host);
    gethostname(host, sizeof host - 1);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    MPI_Comm_size(shared, &shared_size);

    char *hosts = NULL;
    int *shs = NULL;
    if (rank == 0) {
        hosts = calloc((size_t)size, HOSTLEN);
        shs = calloc((size_t)size, sizeof(int));
    }
    MPI_Gather(host, HOSTLEN, MPI_CHAR, hosts, HOSTLEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Gather(&shared_size, 1, MPI_INT, shs, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; ++r)
            printf("HELLO rank=%d size=%d host=%s shared=%d\n", r, size, hosts + (size_t)r * HOSTLEN, shs[r]);
        fflush(stdout);
    }

    if (bytes > 0 && iters > 0) {
        char *buf = malloc((size_t)bytes);
        memset(buf, rank, (size_t)bytes);
        for (int i = 0; i < size; ++i) {
            for (int j = i + 1; j < size; ++j) {
                double mbps = 0.0;
                MPI_Barrier(MPI_COMM_WORLD);
                if (rank == i || rank == j) {
                    double dt = pingpong(rank, rank == i ? j : i, rank == i, buf, (int)bytes, iters);
                    mbps = 2.0 * (double)bytes * iters / dt / 1e6;
                    if (rank == i && i != 0) MPI_Send(&mbps, 1, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD);
                }
                if (rank == 0) {
                    if (i != 0) MPI_Recv(&mbps, 1, MPI_DOUBLE, i, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    printf("PAIR %d %d %s %s MBps=%.1f\n", i, j, hosts + (size_t)i * HOSTLEN,
                           hosts + (size_t)j * HOSTLEN, mbps);
                    fflush(stdout);
                }
            }
        }
        free(buf);
    }

    free(hosts);
    free(shs);
    MPI_Comm_free(&shared);
    MPI_Finalize();
    return 0;
}
