// block: 16, 16
#define BS 16
#define W 64
__global__ void stencil9(const float *in, float *out) {
    __shared__ float s[BS + 2][BS + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = tx + 1, gy = ty + 1;
    s[ty + 1][tx + 1] = in[gy * W + gx];
    if (tx == 0) s[ty + 1][0] = in[gy * W + gx - 1];
    if (tx == BS - 1) s[ty + 1][BS + 1] = in[gy * W + gx + 1];
    if (ty == 0) s[0][tx + 1] = in[(gy - 1) * W + gx];
    if (ty == BS - 1) s[BS + 1][tx + 1] = in[(gy + 1) * W + gx];
    if (tx == 0 && ty == 0) s[0][0] = in[(gy - 1) * W + gx - 1];
    if (tx == BS - 1 && ty == 0) s[0][BS + 1] = in[(gy - 1) * W + gx + 1];
    if (tx == 0 && ty == BS - 1) s[BS + 1][0] = in[(gy + 1) * W + gx - 1];
    if (tx == BS - 1 && ty == BS - 1) s[BS + 1][BS + 1] = in[(gy + 1) * W + gx + 1];
    __syncthreads();
    float v = 0.f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            v += s[ty + dy][tx + dx];
    out[gy * W + gx] = v - 9.f * s[ty + 1][tx + 1];
}
