// block: 64
// input: in = normal_4096.npy
// BlockRadixSort<double, 64, 4> keys only: SortDescendingBlockedToStriped of 256 doubles (signs
// mixed), then SortDescending of their absolute values
#include <cub/cub.cuh>
__global__ void radix_sort_double_desc(const float *in, double *out) {
    using RS = cub::BlockRadixSort<double, 64, 4>;
    __shared__ typename RS::TempStorage tmp;
    int t = threadIdx.x;
    double k[4];
    for (int i = 0; i < 4; ++i) k[i] = (double)in[t * 4 + i] * 3.0;
    RS(tmp).SortDescendingBlockedToStriped(k);
    for (int i = 0; i < 4; ++i) out[i * 64 + t] = k[i];
    __syncthreads();
    for (int i = 0; i < 4; ++i) k[i] = fabs(k[i]);
    RS(tmp).SortDescending(k);
    for (int i = 0; i < 4; ++i) out[256 + t * 4 + i] = k[i];
}
