// block: 256
// input: p = cycles_256.npy
// input: in = floats_1024.npy
// a permutation of 256 with cycles of 128, 64, 32, ... and fixed points in shared memory: each
// thread walks its cycle (trip count = the cycle's length, from the data) summing values at the
// visited positions, p[p[i]] squares, then the inverse by scatter and a gather through it
__global__ void cycle_walk(const int *p, const float *in, int *out, float *fout) {
    __shared__ int sp[256], inv[256];
    __shared__ float v[256];
    int t = threadIdx.x;
    sp[t] = p[t];
    v[t] = in[t];
    __syncthreads();
    int len = 0, j = t, mn = t;
    float acc = 0.f;
    do {
        acc += v[j];
        j = sp[j];
        mn = j < mn ? j : mn;
        ++len;
    } while (j != t);
    inv[sp[t]] = t;
    __syncthreads();
    out[t] = len;
    out[256 + t] = mn;
    out[512 + t] = sp[sp[t]];
    fout[t] = acc;
    fout[256 + t] = v[inv[t]];
}
