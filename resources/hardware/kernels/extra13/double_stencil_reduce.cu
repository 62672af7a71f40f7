// block: 128
// input: in = floats_1024.npy
// double-precision shared arrays: a 5-point 1-D stencil over 512 doubles with a halo of 2 on
// each side (8-byte loads at offsets -2..2), then a tree reduction in a [2][128] double array
// with a stride that halves (64-bit accesses at growing distances)
__global__ void double_stencil(const float *in, double *out) {
    __shared__ double s[516];
    __shared__ double red[2][128];
    int t = threadIdx.x;
    for (int i = t; i < 516; i += 128) {
        int g = i - 2;
        s[i] = (g >= 0 && g < 512) ? (double)in[g] : 0.0;
    }
    __syncthreads();
    double acc = 0.0;
    for (int j = 0; j < 4; ++j) {
        int i = j * 128 + t + 2;
        double v = 0.1 * s[i - 2] + 0.2 * s[i - 1] + 0.4 * s[i] + 0.2 * s[i + 1] + 0.1 * s[i + 2];
        out[j * 128 + t] = v;
        acc += v * v;
    }
    red[0][t] = acc;
    red[1][t] = s[2 + 4 * t];
    __syncthreads();
    for (int d = 64; d > 0; d >>= 1) {
        if (t < d) {
            red[0][t] += red[0][t + d];
            red[1][t] = fmax(red[1][t], red[1][t + d]);
        }
        __syncthreads();
    }
    if (t == 0) {
        out[512] = red[0][0];
        out[513] = red[1][0];
    }
}
