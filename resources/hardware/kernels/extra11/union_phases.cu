// block: 32, 8
// input: in = floats_1024.npy
// one shared union used in two phases: a padded transpose tile, then (after a barrier) the same bytes
// as a 64-bin histogram of the transposed values
union Shared {
    float tile[32][33];
    unsigned int hist[64];
};
__global__ void union_phases(const float *in, float *out, unsigned int *hist_out) {
    __shared__ Shared u;
    int x = threadIdx.x, y = threadIdx.y, t = y * 32 + x;
    for (int j = y; j < 32; j += 8) u.tile[j][x] = in[j * 32 + x];
    __syncthreads();
    float v[4];
    for (int k = 0; k < 4; ++k) {
        v[k] = u.tile[x][y + 8 * k];
        out[(y + 8 * k) * 32 + x] = v[k];
    }
    __syncthreads();
    if (t < 64) u.hist[t] = 0;
    __syncthreads();
    for (int k = 0; k < 4; ++k) atomicAdd(&u.hist[(int)(fabsf(v[k]) * 16.f) & 63], 1u);
    __syncthreads();
    if (t < 64) hist_out[t] = u.hist[t];
}
