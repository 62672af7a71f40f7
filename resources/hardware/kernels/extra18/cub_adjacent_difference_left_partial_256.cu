// block: 256
// input: in = floats_1024.npy
// BlockAdjacentDifference<float, 256>: SubtractLeftPartialTile with valid items 700 (4 items a
// thread, the default difference), then with a tile predecessor and valid 333 and a custom
// operator; SubtractLeft over the full tile with a predecessor
#include <cub/cub.cuh>
struct AbsDiff {
    __device__ float operator()(float a, float b) const { return fabsf(a - b) * 0.5f; }
};
__global__ void adjdiff_left_partial(const float *in, float *out) {
    using AD = cub::BlockAdjacentDifference<float, 256>;
    __shared__ typename AD::TempStorage tmp;
    int t = threadIdx.x;
    float x[4], y[4];
    for (int i = 0; i < 4; ++i) x[i] = in[t * 4 + i];
    AD(tmp).SubtractLeftPartialTile(x, y, cuda::std::minus<>{}, 700);
    for (int i = 0; i < 4; ++i) out[t * 4 + i] = y[i];
    __syncthreads();
    AD(tmp).SubtractLeftPartialTile(x, y, AbsDiff(), 333, 1.75f);
    for (int i = 0; i < 4; ++i) out[1024 + t * 4 + i] = y[i];
    __syncthreads();
    AD(tmp).SubtractLeft(x, y, AbsDiff(), -3.0f);
    for (int i = 0; i < 4; ++i) out[2048 + t * 4 + i] = y[i];
}
