// block: 256
// input: data = zipf_bytes_4096.npy
// a 256-bin histogram of Zipf-like bytes (a few values very frequent) privatised per warp:
// hist[8][256] in shared memory, integer atomicAdd by each warp into its own copy (same-address
// lanes collide on the hot bins), then the 8 copies summed by columns
__global__ void hist_zipf_warp_private(const unsigned char *data, unsigned int *out) {
    __shared__ unsigned int hist[8][256];
    int t = threadIdx.x, w = t / 32;
    for (int i = t; i < 8 * 256; i += 256) (&hist[0][0])[i] = 0;
    __syncthreads();
    for (int i = t; i < 4096; i += 256) atomicAdd(&hist[w][data[i]], 1u);
    __syncthreads();
    unsigned int s = 0;
    for (int k = 0; k < 8; ++k) s += hist[k][t];
    out[t] = s;
    out[256 + t] = hist[t & 7][t];
}
