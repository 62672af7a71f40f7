// block: 128
// input: in = ints_1024.npy
// BlockLoad<int, 128, 8, BLOCK_LOAD_VECTORIZE> (int4 loads), BlockStore<int, 128, 8,
// BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>; BlockLoad<short, 128, 4, BLOCK_LOAD_TRANSPOSE> guarded
// with an out-of-bounds default, BlockStore<short, 128, 4, BLOCK_STORE_TRANSPOSE> guarded
#include <cub/cub.cuh>
__global__ void load_vectorize_timesliced(const int *in, int *out, short *sout) {
    using LoadV = cub::BlockLoad<int, 128, 8, cub::BLOCK_LOAD_VECTORIZE>;
    using StoreT = cub::BlockStore<int, 128, 8, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>;
    using LoadS = cub::BlockLoad<short, 128, 4, cub::BLOCK_LOAD_TRANSPOSE>;
    using StoreS = cub::BlockStore<short, 128, 4, cub::BLOCK_STORE_TRANSPOSE>;
    __shared__ union {
        typename LoadV::TempStorage lv;
        typename StoreT::TempStorage st;
        typename LoadS::TempStorage ls;
        typename StoreS::TempStorage ss;
    } temp;
    int x[8];
    LoadV(temp.lv).Load(in, x);
    for (int i = 0; i < 8; ++i) x[i] = x[i] * 2 + i;
    __syncthreads();
    StoreT(temp.st).Store(out, x);
    __syncthreads();
    short s[4];
    LoadS(temp.ls).Load((const short *)in, s, 450, (short)-7);
    for (int i = 0; i < 4; ++i) s[i] = (short)(s[i] + threadIdx.x);
    __syncthreads();
    StoreS(temp.ss).Store(sout, s, 470);
}
