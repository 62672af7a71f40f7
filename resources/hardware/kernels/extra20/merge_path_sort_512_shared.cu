// block: 256
// input: in = keys_1024.npy
// bottom-up merge sort of 512 ints in shared memory, double-buffered: at each width every thread
// makes 2 outputs of its merge, finding its start on the merge path by a binary search over
// both runs (data-dependent trip counts and addresses), stable on ties
__global__ void merge_path_sort(const int *in, int *out) {
    __shared__ int buf[2][512];
    int t = threadIdx.x;
    buf[0][t] = in[t];
    buf[0][t + 256] = in[t + 256] >> 20;  // many ties in the upper half
    __syncthreads();
    int src = 0;
    for (int w = 1; w < 512; w <<= 1) {
        int d = 2 * t, base = d & ~(2 * w - 1), k = d - base;
        const int *A = &buf[src][base], *B = &buf[src][base + w];
        int lo = max(0, k - w), hi = min(k, w);
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (A[mid] <= B[k - 1 - mid]) lo = mid + 1; else hi = mid;
        }
        int i = lo, j = k - lo;
        for (int n = 0; n < 2; ++n) {
            bool takeA = j >= w || (i < w && A[i] <= B[j]);
            buf[src ^ 1][d + n] = takeA ? A[i] : B[j];
            if (takeA) ++i; else ++j;
        }
        src ^= 1;
        __syncthreads();
    }
    out[t] = buf[src][t];
    out[t + 256] = buf[src][t + 256];
}
