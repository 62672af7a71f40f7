// block: 96
// input: in = floats_1024.npy
// BlockShuffle<double, 96>: Offset by +5 and -40, Rotate by 17, Up with the block suffix and
// Down with the block prefix over 3 items
#include <cub/cub.cuh>
#include <cub/block/block_shuffle.cuh>
__global__ void shuffle_double_96(const float *in, double *out) {
    using SH = cub::BlockShuffle<double, 96>;
    __shared__ typename SH::TempStorage tmp;
    int t = threadIdx.x;
    double x = (double)in[t] + 0.5, y = -1.0, z = -2.0;
    SH(tmp).Offset(x, y, 5);
    __syncthreads();
    SH(tmp).Offset(x, z, -40);
    __syncthreads();
    double r = -3.0;
    SH(tmp).Rotate(x, r, 17);
    out[t] = y; out[96 + t] = z; out[192 + t] = r;
    __syncthreads();
    double a[3], b[3] = {-7.0, -7.0, -7.0}, suffix = -8.0, prefix = -9.0;
    for (int i = 0; i < 3; ++i) a[i] = (double)in[96 + t * 3 + i];
    SH(tmp).Up(a, b, suffix);
    for (int i = 0; i < 3; ++i) out[288 + t * 3 + i] = b[i];
    __syncthreads();
    for (int i = 0; i < 3; ++i) b[i] = -7.0;
    SH(tmp).Down(a, b, prefix);
    for (int i = 0; i < 3; ++i) out[576 + t * 3 + i] = b[i];
    if (t == 0) { out[900] = suffix; out[901] = prefix; }
}
