// block: 16, 8
// input: keys = keys_1024.npy
// BlockRadixSort on a 2-D block: <int, 16, 4, NullType, 4, true, BLOCK_SCAN_WARP_SCANS,
// cudaSharedMemBankSizeFourByte, 8> (threads ranked x + 16 y), keys only, 512 keys,
// then SortBlockedToStriped of the same keys' low 16 bits
#include <cub/cub.cuh>
__global__ void radix_sort_2d(const int *keys, int *out) {
    using Sort = cub::BlockRadixSort<int, 16, 4, cub::NullType, 4, true, cub::BLOCK_SCAN_WARP_SCANS,
                                     cudaSharedMemBankSizeFourByte, 8>;
    __shared__ typename Sort::TempStorage temp;
    int t = threadIdx.y * 16 + threadIdx.x;
    int k[4], k2[4];
    for (int i = 0; i < 4; ++i) {
        k[i] = keys[t * 4 + i];
        k2[i] = k[i] & 0xffff;
    }
    Sort(temp).Sort(k);
    for (int i = 0; i < 4; ++i) out[t * 4 + i] = k[i];
    __syncthreads();
    Sort(temp).SortBlockedToStriped(k2);
    for (int i = 0; i < 4; ++i) out[512 + i * 128 + t] = k2[i];
}
