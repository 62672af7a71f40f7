// block: 256
// 32 rows of 8 float4 chunks (32 floats per row); chunk index XOR-swizzled by row
__global__ void swizzle_f4(const float4 *in, float4 *out) {
    __shared__ float4 tile[32][8];
    int t = threadIdx.x;
    int r = t / 8, c = t % 8;
    tile[r][c ^ (r & 7)] = in[t];
    __syncthreads();
    // each thread reads a column of chunks: chunk c of rows 4*(t%8)..+3 (transposed access)
    int rr = t % 32, cc = t / 32;
    float4 v = tile[rr][cc ^ (rr & 7)];
    out[t] = v;
}
