// block: 128
// input: vals = runs_1024.npy
#include <cub/cub.cuh>
// segmented inclusive sum as a scan of a struct with a custom operator: a segment starts where the
// value changes; BlockScan stores the 8-byte pairs in its shared storage
struct Seg {
    int sum;
    int head;
};
struct SegSum {
    __device__ Seg operator()(const Seg &a, const Seg &b) const {
        Seg r;
        r.sum = b.head ? b.sum : a.sum + b.sum;
        r.head = a.head | b.head;
        return r;
    }
};
__global__ void scan_segmented_struct(const int *vals, int *out) {
    using Scan = cub::BlockScan<Seg, 128, cub::BLOCK_SCAN_RAKING>;
    __shared__ typename Scan::TempStorage temp;
    Seg s[4];
    for (int i = 0; i < 4; ++i) {
        int j = threadIdx.x * 4 + i;
        s[i].sum = vals[j];
        s[i].head = (j == 0) || (vals[j] != vals[j - 1]);
    }
    Scan(temp).InclusiveScan(s, s, SegSum());
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = s[i].sum;
}
