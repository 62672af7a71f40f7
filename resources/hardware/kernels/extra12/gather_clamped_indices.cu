// block: 256
// input: idx = gather_idx_1024.npy
// input: vals = floats_1024.npy
// gathers from a 512-entry shared table with indices from the data that are sometimes negative or
// past the end: clamped (min/max), wrapped ((i % 512 + 512) % 512), and guarded (0 outside)
__global__ void gather_clamped(const int *idx, const float *vals, float *out) {
    __shared__ float s[512];
    int t = threadIdx.x;
    s[t] = vals[t];
    s[t + 256] = vals[t + 256];
    __syncthreads();
    for (int j = 0; j < 4; ++j) {
        int i = idx[j * 256 + t];
        int c = min(max(i, 0), 511);
        int w = (i % 512 + 512) % 512;
        float g = (i >= 0 && i < 512) ? s[i] : 0.f;
        out[j * 256 + t] = s[c] + 2.f * s[w] + 4.f * g;
    }
}
