// block: 256
// input: tab = sorted_1024.npy
// input: q = queries_1024.npy
// interpolation search in a sorted shared table of 1024 ints with skewed gaps: the probe position
// from the key's value (64-bit arithmetic), narrowing until found or the range is empty; the
// number of probes per query from the data
__global__ void interpolation_search(const int *tab, const int *q, int *out) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 256) s[i] = tab[i];
    __syncthreads();
    for (int i = t; i < 1024; i += 256) {
        int key = q[i], lo = 0, hi = 1023, pos = -1, probes = 0;
        while (lo <= hi) {
            int a = s[lo], b = s[hi];
            if (key < a || key > b) break;
            int m = (a == b) ? lo : lo + (int)((long long)(key - a) * (hi - lo) / (b - a));
            ++probes;
            int x = s[m];
            if (x == key) { pos = m; break; }
            if (x < key) lo = m + 1; else hi = m - 1;
        }
        out[i] = pos;
        out[1024 + i] = probes;
    }
}
