// block: 256
// input: text = text_4096.npy
// a Boyer-Moore-Horspool search for "gattac" in 4096 bytes: the text and a 256-entry shift table
// in shared memory (the table built from the pattern by one warp), each thread searches a 16-byte
// window (plus the pattern's overlap) skipping by shift[text[...]] (addresses from the data)
__global__ void horspool(const unsigned char *text, int *out) {
    __shared__ __align__(16) unsigned char tx[4096 + 8];
    __shared__ int shift[256];
    __shared__ unsigned char pat[8];
    __shared__ int found;
    int t = threadIdx.x;
    const int m = 6;
    for (int i = t; i < 1024; i += 256) ((uchar4 *)tx)[i] = ((const uchar4 *)text)[i];
    if (t < 8) tx[4096 + t] = 0;
    if (t < m) pat[t] = "gattac"[t];
    shift[t] = m;
    if (t == 0) found = 0;
    __syncthreads();
    if (t < m - 1) atomicMin(&shift[pat[t]], m - 1 - t);
    __syncthreads();
    int begin = t * 16, end = min(begin + 16, 4096 - m + 1);
    int hits = 0, skips = 0, first = -1;
    for (int s = begin; s < end; s += shift[tx[s + m - 1]]) {
        ++skips;
        int j = m - 1;
        while (j >= 0 && tx[s + j] == pat[j]) --j;
        if (j < 0) { ++hits; if (first < 0) first = s; }
    }
    atomicAdd(&found, hits);
    __syncthreads();
    out[t] = hits;
    out[256 + t] = skips;
    out[512 + t] = first;
    if (t == 0) out[768] = found;
}
