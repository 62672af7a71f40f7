// block: 128
// input: data = zipf_bytes_4096.npy
// the CUDA samples' histogram64: a private 64-bin histogram of unsigned char counters per thread
// (s_Hist[bin * 128 + threadPos], threadPos shuffled so a warp's byte writes spread over banks),
// 4 bytes read as one word, then the 128 sub-histograms summed by 64 threads, one bin each, as
// words with a rotating start
__global__ void histogram64(const unsigned *data, unsigned *hist) {
    __shared__ unsigned char s_Hist[64 * 128];
    int t = threadIdx.x;
    int pos = ((t & ~(32 * 4 - 1)) << 0) | ((t & (32 - 1)) << 2) | ((t & (32 * 3)) >> 5);
    for (int i = 0; i < 64 * 128 / 4 / 128; ++i) reinterpret_cast<unsigned *>(s_Hist)[t + i * 128] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 128) {
        unsigned d = data[i];
        s_Hist[pos + ((d >> 2) & 0x3fu) * 128]++;
        s_Hist[pos + ((d >> 10) & 0x3fu) * 128]++;
        s_Hist[pos + ((d >> 18) & 0x3fu) * 128]++;
        s_Hist[pos + ((d >> 26) & 0x3fu) * 128]++;
    }
    __syncthreads();
    if (t < 64) {
        unsigned sum = 0;
        unsigned pos4 = (t & 15u) * 4;
        for (unsigned i = 0; i < 128; i += 4) {
            unsigned w = reinterpret_cast<unsigned *>(s_Hist)[(t * 128 + ((i + pos4) & 127)) / 4];
            sum += (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24);
        }
        hist[t] = sum;
    }
}
