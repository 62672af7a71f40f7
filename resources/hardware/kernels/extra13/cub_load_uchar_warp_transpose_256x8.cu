// block: 256
// input: in = bytes_2048.npy
// BlockLoad<unsigned char, 256, 8, BLOCK_LOAD_WARP_TRANSPOSE>: byte items transposed through
// shared memory (8 bytes a thread, 1-byte shared stores and loads), a per-thread byte maximum,
// then BlockStore<unsigned char, 256, 8, BLOCK_STORE_WARP_TRANSPOSE> of the items minus it
#include <cub/cub.cuh>
__global__ void load_uchar_warp_transpose(const unsigned char *in, unsigned char *out, int *mx) {
    using Load = cub::BlockLoad<unsigned char, 256, 8, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<unsigned char, 256, 8, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } temp;
    unsigned char x[8];
    Load(temp.load).Load(in, x);
    unsigned char m = 0;
    for (int i = 0; i < 8; ++i) m = x[i] > m ? x[i] : m;
    mx[threadIdx.x] = m;
    for (int i = 0; i < 8; ++i) x[i] = (unsigned char)(m - x[i]);
    __syncthreads();
    Store(temp.store).Store(out, x);
}
