// block: 32, 32
// input: in = keys_1024.npy
// a 1024-thread block transposes 64 x 64 int2 elements in four 32 x 32 tiles: through an
// [32][33] int2 tile (8-byte rows padded by one element), then an unpadded [32][32] tile read
// by columns, then a [32][32] tile with the column swizzled by x ^ y
__global__ void transpose_int2(const int2 *in, int2 *out) {
    __shared__ int2 pad[32][33];
    __shared__ int2 raw[32][32];
    int x = threadIdx.x, y = threadIdx.y;
    for (int tile = 0; tile < 4; ++tile) {
        int bx = (tile & 1) * 32, by = (tile >> 1) * 32;
        int2 v = in[((by + y) * 64 + bx + x) & 511];
        v.x += tile; v.y ^= y;
        pad[y][x] = v;
        raw[y][x] = v;
        __syncthreads();
        out[(bx + y) * 64 + by + x] = pad[x][y];
        int2 c = raw[x][y];
        out[4096 + (bx + y) * 64 + by + x] = make_int2(c.y, c.x);
        __syncthreads();
        raw[y][x ^ y] = v;
        __syncthreads();
        int2 d = raw[x][y ^ x];
        out[2048 + ((bx + y) * 64 + by + x) / 2] = d;
        __syncthreads();
    }
}
