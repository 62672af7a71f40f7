// block: 256
// input: table = lut_256.npy
// input: idx = lut_idx_1024.npy
// a 256-entry lookup table in shared memory, indexed by codes read from global memory (gamma /
// colour-map style): which banks a warp hits depends on the codes
__global__ void lut_indexed_by_input(const float *table, const int *idx, float *out) {
    __shared__ float lut[256];
    int t = threadIdx.x;
    lut[t] = table[t];
    __syncthreads();
    for (int i = t; i < 1024; i += 256) out[i] = lut[idx[i] & 255];
}
