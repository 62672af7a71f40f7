// block: 128
// input: values = ints_1024.npy
// input: lengths = rl_lengths_256.npy
#include <cub/block/block_run_length_decode.cuh>
// BlockRunLengthDecode: 256 runs (2 a thread, lengths 1..6 from the data), decoded in windows of
// 128 x 4 items until the decoded total is used up (cub/cub.cuh does not include it: its own header)
__global__ void run_length_decode(const int *values, const int *lengths, int *out, int *offsets_out) {
    using RLD = cub::BlockRunLengthDecode<int, 128, 2, 4>;
    __shared__ typename RLD::TempStorage temp;
    int run_values[2];
    unsigned int run_lengths[2];
    for (int i = 0; i < 2; ++i) {
        run_values[i] = values[threadIdx.x * 2 + i];
        run_lengths[i] = lengths[threadIdx.x * 2 + i];
    }
    unsigned int total = 0;
    RLD rld(temp, run_values, run_lengths, total);
    for (unsigned int window = 0; window < total; window += 128 * 4) {
        int items[4];
        unsigned int rel[4];
        rld.RunLengthDecode(items, rel, window);
        for (int i = 0; i < 4; ++i) {
            unsigned int j = window + threadIdx.x * 4 + i;
            if (j < total) { out[j] = items[i]; offsets_out[j] = rel[i]; }
        }
    }
}
