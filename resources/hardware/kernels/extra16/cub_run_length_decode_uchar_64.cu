// block: 64
// input: lengths = bytes_2048.npy
// BlockRunLengthDecode<unsigned char, 64, 3, 5> (its own header; byte items, 3 runs and 5 decoded
// items a thread): 192 runs of 0..5 (zero-length runs included), decoded in windows of 320 with
// relative offsets
#include <cub/block/block_run_length_decode.cuh>
__global__ void rld_uchar(const unsigned char *lengths, unsigned char *out, unsigned short *offsets_out) {
    using RLD = cub::BlockRunLengthDecode<unsigned char, 64, 3, 5>;
    __shared__ typename RLD::TempStorage temp;
    unsigned char run_values[3];
    unsigned short run_lengths[3];
    for (int i = 0; i < 3; ++i) {
        int j = threadIdx.x * 3 + i;
        run_values[i] = (unsigned char)(j * 5 + 1);
        run_lengths[i] = lengths[j] % 6;
    }
    unsigned short total = 0;
    RLD rld(temp, run_values, run_lengths, total);
    for (unsigned int window = 0; window < total; window += 64 * 5) {
        unsigned char items[5];
        unsigned short rel[5];
        rld.RunLengthDecode(items, rel, window);
        for (int i = 0; i < 5; ++i) {
            unsigned int j = window + threadIdx.x * 5 + i;
            if (j < total) { out[j] = items[i]; offsets_out[j] = rel[i]; }
        }
    }
}
