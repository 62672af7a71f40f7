// block: 256
// input: next = next_256.npy
// input: vals = ints_1024.npy
// each thread follows a linked list in shared memory from its own node: the trip count comes from
// the data (a list ends at -1, after 1 to 24 nodes), and the walk leaves early with `break` at the
// first value above 900
__global__ void linked_list_walk(const int *next, const int *vals, int *steps_out, int *sum_out) {
    __shared__ int nxt[256];
    __shared__ int val[256];
    int t = threadIdx.x;
    nxt[t] = next[t];
    val[t] = vals[t];
    __syncthreads();
    int node = t, steps = 0, sum = 0;
    while (node >= 0) {
        int v = val[node];
        if (v > 900) break;
        sum += v;
        ++steps;
        node = nxt[node];
    }
    steps_out[t] = steps;
    sum_out[t] = node < 0 ? sum : -sum;
}
