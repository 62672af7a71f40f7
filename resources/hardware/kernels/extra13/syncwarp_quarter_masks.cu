// block: 128
// input: in = ints_1024.npy
// quarter warps working apart: each 8-lane group exchanges values through shared memory
// ordered by __syncwarp with its own mask (0xff << 8q); groups of a warp take different
// branches (q even: a rotate by 3 inside the group, q odd: a reversal), then a full-warp
// __syncwarp and a read across groups
__global__ void syncwarp_quarters(const int *in, int *out) {
    __shared__ int s[4][32];
    __shared__ int u[4][33];
    int t = threadIdx.x, w = t >> 5, lane = t & 31, q = lane >> 3, l = lane & 7;
    unsigned mask = 0xffu << (8 * q);
    s[w][lane] = in[t];
    __syncwarp(mask);
    int v;
    if (q & 1) v = s[w][q * 8 + (7 - l)];
    else v = s[w][q * 8 + ((l + 3) & 7)];
    __syncwarp(mask);
    s[w][lane] = v * 2 + q;
    __syncwarp(mask);
    v += s[w][q * 8 + (l ^ 1)];
    u[w][l * 4 + q] = v;
    __syncwarp();
    out[t] = u[w][lane] + u[w][(lane * 5) & 31];
}
