// block: 256
// input: pts = points_4096.npy
// input: cent = centroids_64.npy
// a k-means assignment step: 16 centroids of 4 floats in shared memory (float4, all threads
// read the same one: broadcast), 1024 points a thread each 4, the nearest by squared distance
// (ties to the lower index), integer counts and fixed-point coordinate sums by shared atomicAdd
__global__ void kmeans_assign(const float4 *pts, const float4 *cent, int *assign, int *stats) {
    __shared__ float4 c[16];
    __shared__ int cnt[16];
    __shared__ int sum[16][4];
    int t = threadIdx.x;
    if (t < 16) { c[t] = cent[t]; cnt[t] = 0; }
    if (t < 64) sum[t >> 2][t & 3] = 0;
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        float4 p = pts[i];
        int best = 0;
        float bd = 3.4e38f;
        for (int k = 0; k < 16; ++k) {
            float4 q = c[k];
            float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z, dw = p.w - q.w;
            float d = dx * dx + dy * dy + dz * dz + dw * dw;
            if (d < bd) { bd = d; best = k; }
        }
        assign[i] = best;
        atomicAdd(&cnt[best], 1);
        atomicAdd(&sum[best][0], (int)p.x); atomicAdd(&sum[best][1], (int)p.y);
        atomicAdd(&sum[best][2], (int)p.z); atomicAdd(&sum[best][3], (int)p.w);
    }
    __syncthreads();
    if (t < 16) stats[t] = cnt[t];
    if (t < 64) stats[16 + t] = sum[t >> 2][t & 3];
}
