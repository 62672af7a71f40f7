// block: 512
// block sum: shuffle within each warp, one partial per warp into a block-scope static shared array,
// first warp reduces the 16 partials, the total is broadcast back through shared memory
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void nested_sum(const float *in, float *out) {
    int t = threadIdx.x;
    float v = in[t] + 1.0f;
    float total;
    {
        static __shared__ float partial[16];
        __shared__ float result;
        int lane = t & 31, warp = t >> 5;
        v = warp_sum(v);
        if (lane == 0) partial[warp] = v;
        __syncthreads();
        if (warp == 0) {
            float p = lane < 16 ? partial[lane] : 0.f;
            p = warp_sum(p);
            if (lane == 0) result = p;
        }
        __syncthreads();
        total = result;
    }
    out[t] = (in[t] + 1.0f) / total;
}
