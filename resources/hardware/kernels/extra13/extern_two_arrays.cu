// block: 128
// input: in = floats_1024.npy
// dynamic shared memory (the launch gives 48 KiB) holding two arrays of different types: a
// float tile dyn[0..4095] and an int table carved from the same extern array at a 16 KiB
// offset (a second pointer, reinterpret_cast), used as a 64 x 64 float tile with an XOR swizzle
// and an int counter table read at stride 33. No static __shared__ array: with 48 KiB of dynamic
// shared memory any static one would exceed the default 48 KiB limit and the launch would fail
__global__ void extern_two_arrays(const float *in, float *out, int *cnt_out) {
    extern __shared__ float dyn[];
    float *tile = dyn;                                      // 64 x 64 floats, 16 KiB
    int *cnt = reinterpret_cast<int *>(dyn + 4096);         // 128 x 33 ints after it
    int t = threadIdx.x;
    for (int i = t; i < 4096; i += 128) {
        int r = i >> 6, c = i & 63;
        tile[r * 64 + (c ^ (r & 31))] = in[i & 1023] + (float)r;
    }
    for (int k = 0; k < 33; ++k) cnt[t * 33 + k] = 0;
    __syncthreads();
    for (int j = 0; j < 32; ++j) {
        int r = j * 2 + (t >> 6), c = t & 63;
        float v = tile[c * 64 + (r ^ (c & 31))];  // column read through the swizzle
        out[j * 128 + t] = v;
        cnt[t * 33 + ((int)fabsf(v) & 31)] += 1;
    }
    __syncthreads();
    int s = 0;
    for (int k = 0; k < 32; ++k) s += cnt[((t + k) & 127) * 33 + k];
    cnt_out[t] = s;
}
