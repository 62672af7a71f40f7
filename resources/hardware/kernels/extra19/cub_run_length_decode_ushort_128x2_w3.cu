// block: 128
// input: lens = runlen_256.npy
// BlockRunLengthDecode<unsigned short, 128, 2, 3> over 256 runs (lengths 1..16 from the data)
// with offsets: decoded in windows of 384 items, a loop whose trip count is the data's total
#include <cub/cub.cuh>
#include <cub/block/block_run_length_decode.cuh>
__global__ void rld_ushort_128x2(const int *lens, unsigned short *out, int *offs, int *total) {
    using RLD = cub::BlockRunLengthDecode<unsigned short, 128, 2, 3>;
    __shared__ typename RLD::TempStorage tmp;
    int t = threadIdx.x;
    unsigned short val[2];
    int len[2];
    for (int i = 0; i < 2; ++i) { val[i] = (unsigned short)(t * 2 + i) * 257; len[i] = lens[t * 2 + i]; }
    int size;
    RLD rld(tmp, val, len, size);
    for (int from = 0; from < size; from += 384) {
        unsigned short d[3];
        int o[3];
        rld.RunLengthDecode(d, o, from);
        for (int i = 0; i < 3; ++i) {
            int p = from + t * 3 + i;
            if (p < size && p < 4096) { out[p] = d[i]; offs[p] = o[i]; }
        }
    }
    if (t == 0) *total = size;
}
