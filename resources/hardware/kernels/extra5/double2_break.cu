// block: 64
// double2 (complex) pairs read at stride 2 with a loop that leaves early on a constant condition
__global__ void d2_break(const double2 *in, double *out) {
    __shared__ double2 s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 64] = in[t + 64];
    __syncthreads();
    double acc = 0.0;
    for (int k = 0; k < 16; ++k) {
        if (k == 6) break;
        double2 v = s[(t * 2 + k) % 128];
        acc += v.x * v.y + v.x;
    }
    out[t] = acc;
}
