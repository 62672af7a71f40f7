// block: 256
// input: in = floats_1024.npy
// the bit-reversal permutation that starts an in-place radix-2 FFT of 512 complex values (float2),
// done as a scatter into shared memory, then the first butterfly stage on neighbouring pairs
__global__ void fft_bit_reversal(const float2 *in, float2 *out) {
    __shared__ float2 s[512];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 256) s[__brev(i) >> 23] = in[i];
    __syncthreads();
    float2 a = s[2 * t], b = s[2 * t + 1];
    out[2 * t] = make_float2(a.x + b.x, a.y + b.y);
    out[2 * t + 1] = make_float2(a.x - b.x, a.y - b.y);
}
