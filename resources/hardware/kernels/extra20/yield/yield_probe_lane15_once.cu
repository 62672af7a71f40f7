// block: 32
// input: trips = trips_lane15_once.npy
// YIELD probe (one warp): 4 rounds, unrolled, each a volatile shared-memory walk whose trip
// count per lane comes from `trips` (its loop has a YIELD); every lane makes at least one pass
// _once: the pattern in round 1 only, _each: in every round (README: the YIELD probe)
__global__ void yp_lane15_once(const int *trips, int *out) {
    __shared__ int v[4 * 32 * 16];
    int t = threadIdx.x;
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < 16; ++i) v[(r * 32 + t) * 16 + i] = i < trips[r * 32 + t] ? 1 : 0;
    __syncwarp();
    volatile int *vv = v;
    int acc = 0;
    for (int r = 0; r < 4; ++r) {
        int base = (r * 32 + t) * 16, k = 0;
        while (vv[base + k] != 0) ++k;
        acc += k * (r + 1);
        out[r * 32 + t] = k;
    }
    out[128 + t] = acc;
}
