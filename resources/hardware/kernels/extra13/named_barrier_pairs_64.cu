// block: 128
// input: in = floats_1024.npy
// warp specialisation in two independent pairs: warps 0 (producer) and 1 (consumer) meet on
// named barrier 1, warps 2 and 3 on barrier 2, each with `bar.sync id, 64;` (64 threads) in
// inline asm; producers fill a 32 x 33 tile per round, consumers read it by columns; 4 rounds,
// a second barrier wait per round keeps the producer from overwriting a tile being read
__device__ __forceinline__ void pair_sync(int id) { asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }
__global__ void named_barrier_pairs(const float *in, float *out) {
    __shared__ float tile[2][32][33];
    int t = threadIdx.x, w = t >> 5, lane = t & 31, pair = w >> 1;
    bool producer = (w & 1) == 0;
    float acc = 0.f;
    for (int round = 0; round < 4; ++round) {
        if (producer)
            for (int r = 0; r < 32; ++r) tile[pair][r][lane] = in[(round * 256 + r * 8 + lane) & 1023] + (float)pair;
        if (pair == 0) asm volatile("bar.sync 1, 64;" ::: "memory");
        else asm volatile("bar.sync 2, 64;" ::: "memory");
        if (!producer)
            for (int r = 0; r < 32; ++r) acc += tile[pair][lane][r] * (float)(r + 1);
        pair_sync(1 + pair);  // the consumer is done with the tile
    }
    if (!producer) out[pair * 32 + lane] = acc;
}
