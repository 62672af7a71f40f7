// block: 128
// input: sel = warp_select_4.npy
// input: in = floats_1024.npy
// each warp reads columns through a pointer to one of two shared tiles chosen from data at run time:
// the padded tile is conflict-free, the unpadded one is not
__global__ void runtime_pointer_select(const int *sel, const float *in, float *out) {
    __shared__ float plain[32 * 32];
    __shared__ float padded[32 * 33];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (int i = t; i < 32 * 32; i += 128) {
        plain[i] = in[i];
        padded[(i / 32) * 33 + i % 32] = in[i];
    }
    __syncthreads();
    const float *tile = sel[warp] ? padded : plain;
    int ld = sel[warp] ? 33 : 32;
    float acc = 0.f;
    for (int c = warp; c < 32; c += 4) acc += tile[lane * ld + c];
    out[t] = acc;
}
