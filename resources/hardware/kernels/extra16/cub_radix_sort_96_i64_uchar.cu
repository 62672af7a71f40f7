// block: 96
// input: in = keys_1024.npy
// BlockRadixSort<long long, 96, 3, unsigned char, 5> (three warps, 64-bit signed keys, byte values,
// 5-bit digits): Sort on bits 0..40 of keys made from two words, then SortDescending of the same keys
#include <cub/cub.cuh>
__global__ void radix_sort_96_i64(const int *in, long long *out, unsigned char *vals_out) {
    using Sort = cub::BlockRadixSort<long long, 96, 3, unsigned char, 5>;
    __shared__ typename Sort::TempStorage temp;
    long long k[3];
    unsigned char v[3];
    for (int i = 0; i < 3; ++i) {
        int j = threadIdx.x * 3 + i;
        k[i] = ((long long)(in[j] >> 12) << 20) ^ (long long)(in[j + 300] & 0xfffff);
        v[i] = (unsigned char)j;
    }
    Sort(temp).Sort(k, v, 0, 41);
    cub::StoreDirectBlocked(threadIdx.x, out, k);
    cub::StoreDirectBlocked(threadIdx.x, vals_out, v);
    __syncthreads();
    Sort(temp).SortDescending(k, v);
    cub::StoreDirectBlocked(threadIdx.x, out + 288, k);
    cub::StoreDirectBlocked(threadIdx.x, vals_out + 288, v);
}
