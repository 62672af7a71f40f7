// block: 128
// input: in = ints_1024.npy
// half warps work apart: the lower 16 lanes scan with __shfl_up_sync(0x0000ffff, .., 16), the
// upper 16 store to shared memory and read a neighbour's word after __syncwarp(0xffff0000); then
// both halves meet at a full __syncwarp and the warp scans its 32 values with __shfl_up_sync
__global__ void shfl_up_partial(const int *in, int *out) {
    __shared__ int s[4][32];
    __shared__ int warp_tot[4];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int v = in[t];
    if (lane < 16) {
        for (int o = 1; o < 16; o <<= 1) {
            int y = __shfl_up_sync(0x0000ffffu, v, o, 16);
            if (lane >= o) v += y;
        }
        s[w][lane] = v;
        __syncwarp(0x0000ffffu);
        v += s[w][15 - lane];
    } else {
        s[w][lane] = v * 3;
        __syncwarp(0xffff0000u);
        v = s[w][16 + ((lane * 7) & 15)] - v;
    }
    __syncwarp();
    for (int o = 1; o < 32; o <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += y;
    }
    if (lane == 31) warp_tot[w] = v;
    __syncthreads();
    for (int k = 0; k < w; ++k) v += warp_tot[k];
    out[t] = v;
}
