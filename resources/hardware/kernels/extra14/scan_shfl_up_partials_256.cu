// block: 256
// input: in = ints_1024.npy
// block-wide inclusive prefix sum of 1024 ints (4 per thread, a thread-local serial scan first):
// a warp scan with __shfl_up_sync, the 8 warp totals in shared memory scanned by warp 0 with
// __shfl_up_sync again, and the partials added back; exclusive results written as well
__global__ void scan_shfl_up_partials_256(const int *in, int *out) {
    __shared__ int part[8];
    __shared__ int4 items[256];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    items[t] = reinterpret_cast<const int4 *>(in)[t];
    __syncthreads();
    int4 v = items[t];
    v.y += v.x; v.z += v.y; v.w += v.z;
    int s = v.w;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, s, d);
        if (lane >= d) s += u;
    }
    if (lane == 31) part[w] = s;
    __syncthreads();
    if (w == 0) {
        int p = lane < 8 ? part[lane] : 0;
        for (int d = 1; d < 8; d <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, p, d);
            if (lane >= d) p += u;
        }
        if (lane < 8) part[lane] = p;
    }
    __syncthreads();
    int base = s - v.w + (w > 0 ? part[w - 1] : 0);
    int4 r = make_int4(base + v.x, base + v.y, base + v.z, base + v.w);
    reinterpret_cast<int4 *>(out)[t] = r;
    reinterpret_cast<int4 *>(out)[256 + t] = make_int4(base, r.x, r.y, r.z);
}
