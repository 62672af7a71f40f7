// block: 8, 32
__global__ void trf4(const float4 *in, float *out) {
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    float4 v = in[ty * 8 + tx];
    tile[ty][tx * 4 + 0] = v.x;
    tile[ty][tx * 4 + 1] = v.y;
    tile[ty][tx * 4 + 2] = v.z;
    tile[ty][tx * 4 + 3] = v.w;
    __syncthreads();
    int lin = ty * 8 + tx;
    int r = lin % 32, c = lin / 32;
    float acc = 0.f;
    for (int k = 0; k < 4; ++k) acc += tile[r][c * 4 + k];
    out[lin] = acc;
}
