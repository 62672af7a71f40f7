// block: 256
// input: in = floats_1024.npy
// atomicAdd on `double` in shared memory: a 32-bin histogram of weights (bin from the value) and a
// per-lane accumulator hit by all eight warps. How many passes each atomic needs depends on the
// order in which the lanes' updates land.
__global__ void double_atomic_add(const float *in, double *bins_out, double *lanes_out) {
    __shared__ double bins[32];
    __shared__ double lanes[32];
    int t = threadIdx.x;
    if (t < 32) { bins[t] = 0.0; lanes[t] = 0.0; }
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        double x = (double)in[i];
        int b = min(max((int)((x + 4.0) * 4.0), 0), 31);
        atomicAdd(&bins[b], x * x);
        atomicAdd(&lanes[t & 31], x);
    }
    __syncthreads();
    if (t < 32) { bins_out[t] = bins[t]; lanes_out[t] = lanes[t]; }
}
