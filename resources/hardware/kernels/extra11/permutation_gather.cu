// block: 256
// input: perm = perm_256.npy
// input: in = floats_1024.npy
// gather and scatter through a permutation read from global memory: s[perm[t]]
__global__ void permutation_gather(const int *perm, const float *in, float *gathered, float *scattered) {
    __shared__ float s[256];
    __shared__ float d[256];
    int t = threadIdx.x;
    int p = perm[t];
    s[t] = in[t] + 1.f;
    __syncthreads();
    gathered[t] = s[p];
    d[p] = s[t];
    __syncthreads();
    scattered[t] = d[t];
}
