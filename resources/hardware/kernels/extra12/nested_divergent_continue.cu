// block: 128
// input: in = floats_1024.npy
// nested loops whose trip counts and skips differ by thread: the outer loop skips every third i of
// the thread with `continue`, the inner loop starts and steps by thread and skips some j with
// `continue`, and odd i leave before the store at the bottom of the outer loop
__global__ void nested_continue(const float *in, float *out) {
    __shared__ float tile[32][33];
    __shared__ float part[128][9];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) tile[i / 32][i % 32] = in[i];
    __syncthreads();
    float a = 0.f;
    int slot = 0;
    for (int i = 0; i < 16; ++i) {
        if ((i + t) % 3 == 0) continue;
        for (int j = t & 3; j < 32; j += 4 + (t & 3)) {
            if (((i ^ j) & 7) == (t & 7)) continue;
            a += tile[j][(i * 2 + t) & 31];
        }
        if (i & 1) continue;
        part[t][slot++] = a;
    }
    __syncthreads();
    float r = 0.f;
    for (int k = 0; k < 8; ++k) r += part[(t + k * 16) & 127][k];
    out[t] = r + a;
}
