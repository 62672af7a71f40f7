// block: 320
// input: in = ints_1024.npy
// BlockReduce<short, 320, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY> (10 warps): Sum of one item,
// Reduce max, Sum of 3 items, partial Sum over 250 valid threads
#include <cub/cub.cuh>
__global__ void reduce_comm_short_320(const int *in, short *out) {
    using BR = cub::BlockReduce<short, 320, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
    __shared__ typename BR::TempStorage tmp;
    int t = threadIdx.x;
    short x = (short)(in[t] % 200 - 100);
    short s = BR(tmp).Sum(x);
    __syncthreads();
    short m = BR(tmp).Reduce(x, cuda::maximum<>{});
    __syncthreads();
    short items[3] = {(short)(in[t] % 50), (short)(in[t + 320] % 50), (short)(in[t + 640] % 50)};
    short s3 = BR(tmp).Sum(items);
    __syncthreads();
    short p = BR(tmp).Sum((short)(x + 3), 250);
    if (t == 0) { out[0] = s; out[1] = m; out[2] = s3; out[3] = p; }
}
