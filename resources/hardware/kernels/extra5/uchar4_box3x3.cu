// block: 32, 8
// 32x32 RGBA tile with a 1-pixel halo (34x34 uchar4), 3x3 box filter, each thread 4 output rows
__global__ void box3x3(const uchar4 *img, uchar4 *out) {
    __shared__ uchar4 tile[34][34];
    int x = threadIdx.x, y = threadIdx.y;
    int tid = y * 32 + x;
    for (int i = tid; i < 34 * 34; i += 256) {
        int r = i / 34, c = i % 34;
        tile[r][c] = img[r * 34 + c];
    }
    __syncthreads();
    for (int j = 0; j < 32; j += 8) {
        int r = y + j;
        int sx = 0, sy = 0, sz = 0, sw = 0;
#pragma unroll
        for (int dy = 0; dy < 3; ++dy)
#pragma unroll
            for (int dx = 0; dx < 3; ++dx) {
                uchar4 p = tile[r + dy][x + dx];
                sx += p.x; sy += p.y; sz += p.z; sw += p.w;
            }
        out[r * 32 + x] = make_uchar4(sx / 9, sy / 9, sz / 9, sw / 9);
    }
}
