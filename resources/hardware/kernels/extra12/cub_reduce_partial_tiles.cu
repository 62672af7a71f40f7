// block: 128
// input: in = floats_1024.npy
#include <cub/cub.cuh>
// sum of 1000 floats in tiles of 256 (two a thread); the last tile is partial and goes through
// Reduce(x, op, num_valid); then a max over the first n (64) values with Reduce(.., num_valid)
struct MaxF {
    __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};
__global__ void reduce_partial_tiles(const float *in, float *out, int n) {
    using Reduce = cub::BlockReduce<float, 128>;
    __shared__ typename Reduce::TempStorage temp;
    const int total = 1000;
    float acc = 0.f;
    for (int base = 0; base < total; base += 256) {
        int valid = total - base < 256 ? total - base : 256;
        float x[2];
        for (int i = 0; i < 2; ++i) {
            int j = base + threadIdx.x * 2 + i;
            x[i] = j < total ? in[j] : 0.f;
        }
        float partial = (valid == 256) ? Reduce(temp).Sum(x) : Reduce(temp).Sum(x[0] + x[1], (valid + 1) / 2);
        __syncthreads();
        if (threadIdx.x == 0) acc += partial;
    }
    float m = Reduce(temp).Reduce(in[threadIdx.x], MaxF(), n);
    if (threadIdx.x == 0) { out[0] = acc; out[1] = m; }
}
