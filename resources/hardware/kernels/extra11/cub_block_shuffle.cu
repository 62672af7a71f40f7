// block: 128
// input: in = floats_1024.npy
#include <cub/block/block_shuffle.cuh>
// a 3-point moving average with BlockShuffle: each thread gets its neighbours' values through
// shared memory (cub/cub.cuh does not include BlockShuffle: its own header, as users include it)
__global__ void block_shuffle_smooth(const float *in, float *out) {
    using Shuffle = cub::BlockShuffle<float, 128>;
    __shared__ typename Shuffle::TempStorage temp;
    float x = in[threadIdx.x], left = x, right = x;  // the ends keep their own value
    Shuffle(temp).Offset(x, left, -1);
    __syncthreads();
    Shuffle(temp).Offset(x, right, 1);
    out[threadIdx.x] = (left + x + right) * (1.f / 3.f);
}
