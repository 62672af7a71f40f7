// block: 128
// input: in = ints_1024.npy
// BlockLoad/BlockStore guarded on partial tiles: BLOCK_LOAD_STRIPED with valid_items 300 and an
// out-of-bounds default, BLOCK_STORE_STRIPED guarded at 333; BLOCK_LOAD_DIRECT (blocked) of
// shorts with valid 201 and a default, BLOCK_STORE_DIRECT guarded at 150; a float STRIPED load
// at valid 0
#include <cub/cub.cuh>
__global__ void load_store_guarded(const int *in, int *out, short *sout, float *fout) {
    using LS = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_STRIPED>;
    using SS = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_STRIPED>;
    using LD = cub::BlockLoad<short, 128, 3, cub::BLOCK_LOAD_DIRECT>;
    using SD = cub::BlockStore<short, 128, 3, cub::BLOCK_STORE_DIRECT>;
    using LF = cub::BlockLoad<float, 128, 2, cub::BLOCK_LOAD_STRIPED>;
    int t = threadIdx.x;
    int x[4];
    LS().Load(in + 5, x, 300, -7);
    for (int i = 0; i < 4; ++i) x[i] += t;
    SS().Store(out, x, 333);
    short s[3];
    LD().Load((const short *)in + 11, s, 201, (short)-3);
    for (int i = 0; i < 3; ++i) s[i] = (short)(s[i] ^ i);
    SD().Store(sout, s, 150);
    float f[2];
    LF().Load((const float *)in, f, 0, 2.5f);
    fout[t * 2] = f[0]; fout[t * 2 + 1] = f[1];
    for (int i = 0; i < 4; ++i) out[600 + t * 4 + i] = x[i];
}
