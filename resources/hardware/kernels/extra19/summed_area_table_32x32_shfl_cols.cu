// block: 32, 8
// input: in = ints_1024.npy
// a 32 x 32 summed-area table (integral image): each warp scans rows by __shfl_up_sync, the
// rows go to a [32][33] tile, then each warp scans columns read down the tile (stride 33)
__global__ void summed_area_table(const int *in, int *out) {
    __shared__ int tile[32][33];
    int lane = threadIdx.x, w = threadIdx.y;
    for (int r = w; r < 32; r += 8) {
        int v = in[r * 32 + lane] & 15;
        for (int o = 1; o < 32; o <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, v, o);
            if (lane >= o) v += u;
        }
        tile[r][lane] = v;
    }
    __syncthreads();
    for (int c = w; c < 32; c += 8) {
        int v = tile[lane][c];
        for (int o = 1; o < 32; o <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, v, o);
            if (lane >= o) v += u;
        }
        tile[lane][c] = v;
    }
    __syncthreads();
    for (int r = w; r < 32; r += 8) out[r * 32 + lane] = tile[r][lane];
    // box sums of 5 x 5 windows from the table (corner reads)
    for (int r = w; r < 28; r += 8) {
        if (lane >= 28) continue;
        int s = tile[r + 4][lane + 4] - (r ? tile[r - 1][lane + 4] : 0) - (lane ? tile[r + 4][lane - 1] : 0) +
                (r && lane ? tile[r - 1][lane - 1] : 0);
        out[1024 + r * 32 + lane] = s;
    }
}
