// block: 256
// input: in = bytes_2048.npy
// privatised histogram: every warp keeps 4 copies of a 32-bin histogram (copy = lane & 3, so
// lanes with equal bins in different copies do not serialise), each copy padded to 33 words
// (hist[warp][copy][33]: copies start in different banks); skewed bytes >> 3 pick the bins;
// integer shared atomics, then copies and warps merged by a column sum
__global__ void hist_warp_copies(const unsigned char *in, int *out) {
    __shared__ int hist[8][4][33];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    for (int i = t; i < 8 * 4 * 33; i += 256) (&hist[0][0][0])[i] = 0;
    __syncthreads();
    int *mine = hist[w][lane & 3];
    for (int i = t; i < 2048; i += 256) atomicAdd(&mine[in[i] >> 3], 1);
    __syncthreads();
    if (t < 32) {
        int s = 0;
        for (int j = 0; j < 32; ++j) s += hist[j >> 2][j & 3][t];
        out[t] = s;
    }
}
