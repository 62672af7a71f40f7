// block: 128
#define HISTOGRAM64_BIN_COUNT 64
#define THREADBLOCK_SIZE 128
#define SHARED_MEMORY_BANKS 32
// per-thread byte counters (CUDA samples histogram64 layout): bin b of thread p at s_Hist[p + b * 128]
__global__ void histogram64Kernel(unsigned int *d_PartialHistograms, const unsigned int *d_Data, int dataCount) {
    const unsigned int threadPos = ((threadIdx.x & ~(SHARED_MEMORY_BANKS * 4 - 1)) << 0) |
                                   ((threadIdx.x & (SHARED_MEMORY_BANKS - 1)) << 2) |
                                   ((threadIdx.x & (SHARED_MEMORY_BANKS * 3)) >> 5);
    __shared__ __align__(4) unsigned char s_Hist[THREADBLOCK_SIZE * HISTOGRAM64_BIN_COUNT];
    for (unsigned int i = 0; i < (HISTOGRAM64_BIN_COUNT / 4); i++)
        ((unsigned int *)s_Hist)[threadIdx.x + i * THREADBLOCK_SIZE] = 0;
    __syncthreads();
    unsigned char *s_ThreadBase = s_Hist + threadPos;
    for (unsigned int pos = threadIdx.x; pos < dataCount; pos += blockDim.x) {
        unsigned int bin = (pos * 7) & 63;
        s_ThreadBase[bin * THREADBLOCK_SIZE]++;
    }
    __syncthreads();
    if (threadIdx.x < HISTOGRAM64_BIN_COUNT) {
        unsigned char *s_HistBase = s_Hist + threadIdx.x * THREADBLOCK_SIZE;
        unsigned int sum = 0;
        unsigned int pos = 4 * (threadIdx.x & 15);
        for (unsigned int i = 0; i < (THREADBLOCK_SIZE / 4); i++) {
            sum += s_HistBase[pos + 0] + s_HistBase[pos + 1] + s_HistBase[pos + 2] + s_HistBase[pos + 3];
            pos = (pos + 4) & (THREADBLOCK_SIZE - 1);
        }
        d_PartialHistograms[blockIdx.x * HISTOGRAM64_BIN_COUNT + threadIdx.x] = sum;
    }
}
