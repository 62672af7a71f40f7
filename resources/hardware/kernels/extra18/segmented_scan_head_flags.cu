// block: 256
// input: in = ints_1024.npy
// input: heads = heads_1024.npy
// a segmented inclusive scan of 1024 ints with head flags, written by hand: 4 items a thread
// (blocked, serial), then a Hillis-Steele scan of (flag, value) pairs over the 256 thread totals
// in double-buffered shared arrays, then the carry into each thread's items
__global__ void segmented_scan(const int *in, const int *heads, int *out) {
    __shared__ int val[2][256];
    __shared__ int flg[2][256];
    int t = threadIdx.x;
    int v[4], f[4];
    int run = 0, anyf = 0;
    for (int i = 0; i < 4; ++i) {
        v[i] = in[t * 4 + i]; f[i] = heads[t * 4 + i];
        run = f[i] ? v[i] : run + v[i];
        anyf |= f[i];
        v[i] = run;
    }
    int p = 0;
    val[0][t] = run; flg[0][t] = anyf;
    __syncthreads();
    for (int d = 1; d < 256; d <<= 1) {
        int a = val[p][t], fa = flg[p][t];
        if (t >= d && !fa) { a += val[p][t - d]; fa = flg[p][t - d]; }
        val[p ^ 1][t] = a; flg[p ^ 1][t] = fa;
        p ^= 1;
        __syncthreads();
    }
    int carry = t > 0 ? val[p][t - 1] : 0;
    for (int i = 0; i < 4; ++i) {
        if (f[i]) carry = 0;
        out[t * 4 + i] = v[i] + carry;  // the carry reaches the items before the first head
    }
    out[1024 + t] = val[p][t];
    out[1280 + t] = flg[p][t];
}
