// block: 128
// input: in = ints_1024.npy
// input: fin = floats_1024.npy
// BlockLoad<double, 128, 3, BLOCK_LOAD_STRIPED> guarded (valid 301, default -1) from doubles;
// BlockLoad<int, 128, 4, BLOCK_LOAD_VECTORIZE> and BlockStore<int, 128, 4, BLOCK_STORE_VECTORIZE>
// full and BLOCK_STORE_STRIPED guarded (valid 450)
#include <cub/cub.cuh>
__global__ void load_store_vec(const int *in, const float *fin, double *dbuf, int *out) {
    using LD = cub::BlockLoad<double, 128, 3, cub::BLOCK_LOAD_STRIPED>;
    using LI = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_VECTORIZE>;
    using SI = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_VECTORIZE>;
    using SS = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_STRIPED>;
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 128) dbuf[i] = fin[i] * 0.5;
    __syncthreads();
    double d[3];
    LD().Load(dbuf, d, 301, -1.0);
    for (int i = 0; i < 3; ++i) dbuf[1024 + t * 3 + i] = d[i] + t;
    int v[4];
    LI().Load(in, v);
    for (int i = 0; i < 4; ++i) v[i] = v[i] * 2 + i;
    SI().Store(out, v);
    SS().Store(out + 512, v, 450);
}
