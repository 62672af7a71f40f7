// block: 96
// input: f = normal_4096.npy
// input: b = bytes_4096.npy
// BLOCK_LOAD_TRANSPOSE of float2 (96 x 3, 8-byte items through shared memory) and
// BLOCK_STORE_TRANSPOSE back; char items: BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED and
// BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED (96 x 8), partial store of 701
#include <cub/cub.cuh>
__global__ void load_float2_store_char(const float2 *f, const char *b, float2 *fo, char *bo) {
    using LF = cub::BlockLoad<float2, 96, 3, cub::BLOCK_LOAD_TRANSPOSE>;
    using SF = cub::BlockStore<float2, 96, 3, cub::BLOCK_STORE_TRANSPOSE>;
    using LC = cub::BlockLoad<char, 96, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>;
    using SC = cub::BlockStore<char, 96, 8, cub::BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED>;
    __shared__ union { typename LF::TempStorage lf; typename SF::TempStorage sf;
                       typename LC::TempStorage lc; typename SC::TempStorage sc; } tmp;
    int t = threadIdx.x;
    float2 v[3];
    LF(tmp.lf).Load(f, v);
    for (int i = 0; i < 3; ++i) v[i] = make_float2(v[i].y * 2.f, v[i].x + (float)t);
    __syncthreads();
    SF(tmp.sf).Store(fo, v);
    __syncthreads();
    char c[8];
    LC(tmp.lc).Load(b, c);
    for (int i = 0; i < 8; ++i) c[i] = (char)(c[i] ^ (t + i));
    __syncthreads();
    SC(tmp.sc).Store(bo, c);
    __syncthreads();
    SC(tmp.sc).Store(bo + 1024, c, 701);
}
