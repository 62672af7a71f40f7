// block: 256
// input: in = floats_1024.npy
// Kogge-Stone inclusive scan of 1024 floats, 4 tiles of 256 in sequence: two shared buffers
// swapped every step (pointer ping-pong), the tile's carry kept by thread 255 in shared memory
__global__ void kogge_stone_float(const float *in, float *out) {
    __shared__ float buf[2][256];
    __shared__ float carry;
    int t = threadIdx.x;
    if (t == 0) carry = 0.f;
    for (int tile = 0; tile < 4; ++tile) {
        int pin = 0;
        buf[0][t] = in[tile * 256 + t];
        __syncthreads();
        for (int off = 1; off < 256; off <<= 1) {
            float v = buf[pin][t];
            if (t >= off) v += buf[pin][t - off];
            buf[pin ^ 1][t] = v;
            pin ^= 1;
            __syncthreads();
        }
        float r = buf[pin][t] + carry;
        out[tile * 256 + t] = r;
        __syncthreads();
        if (t == 255) carry = r;
        __syncthreads();
    }
}
