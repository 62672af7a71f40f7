// block: 256
// input: tree = tree_4xN.npy
// input: x = bytes_4096.npy
// decision-tree inference: a 127-node unbalanced tree as int4 nodes (feature, threshold, left,
// right) in shared memory, 1024 samples of 4 byte features; each thread walks from the root
// until a leaf (feature < 0), depth from the data; a vote histogram of classes by shared atomics
__global__ void tree_infer(const int4 *tree, const uchar4 *x, int *out) {
    __shared__ int4 nodes[127];
    __shared__ int votes[16];
    int t = threadIdx.x;
    if (t < 127) nodes[t] = tree[t];
    if (t < 16) votes[t] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        uchar4 f = x[i];
        int n = 0, depth = 0;
        int4 nd = nodes[0];
        while (nd.x >= 0) {
            int fv = nd.x == 0 ? f.x : nd.x == 1 ? f.y : nd.x == 2 ? f.z : f.w;
            n = fv < nd.y ? nd.z : nd.w;
            nd = nodes[n];
            ++depth;
        }
        out[i] = nd.y;
        out[1024 + i] = depth;
        atomicAdd(&votes[nd.y], 1);
    }
    __syncthreads();
    if (t < 16) out[2048 + t] = votes[t];
}
