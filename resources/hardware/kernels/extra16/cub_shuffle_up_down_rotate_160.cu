// block: 160
// input: in = floats_1024.npy
// BlockShuffle<float, 160, 3> (its own header; five warps): Up with block_suffix, Down with
// block_prefix over 3 blocked items, Rotate by 7 and Offset by -33 of one item
#include <cub/cub.cuh>
#include <cub/block/block_shuffle.cuh>
__global__ void shuffle_160(const float *in, float *out) {
    using Shuf = cub::BlockShuffle<float, 160, 3>;
    __shared__ typename Shuf::TempStorage temp;
    float x[3], y[3], z[3], suffix, prefix;
    cub::LoadDirectBlocked(threadIdx.x, in, x);
    Shuf(temp).Up(x, y, suffix);
    __syncthreads();
    Shuf(temp).Down(x, z, prefix);
    __syncthreads();
    cub::StoreDirectBlocked(threadIdx.x, out, y);
    cub::StoreDirectBlocked(threadIdx.x, out + 480, z);
    float r = -1.f, o = -2.f;
    Shuf(temp).Rotate(x[1], r, 7);
    __syncthreads();
    Shuf(temp).Offset(x[2], o, -33);
    out[960 + threadIdx.x] = r;
    out[1120 + threadIdx.x] = o;
    if (threadIdx.x == 0) { out[1280] = suffix; out[1281] = prefix; }
}
