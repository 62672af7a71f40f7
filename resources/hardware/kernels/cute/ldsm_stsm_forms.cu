#include <cstdint>
// block: 64
// input: in = in_64x64_f32.npy
// Every ldmatrix and stmatrix form (x1, x2, x4, each plain and .trans) on one warp of two, the rows
// picked through a XOR swizzle so the forms meet different bank patterns; what each lane received,
// and the tiles the stores wrote, go to out (the values check the emulator's fragment layouts).
__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__global__ void ldsm_stsm_forms(const unsigned *in, unsigned *out) {
    __shared__ alignas(128) unsigned short tile[64 * 64];
    __shared__ alignas(128) unsigned short back[6][32 * 8 * 4];
    unsigned t = threadIdx.x, lane = t % 32;
    for (int i = t; i < 64 * 64 / 2; i += blockDim.x)
        reinterpret_cast<unsigned *>(tile)[i] = in[i];
    __syncthreads();
    if (t >= 32) return;
    // lane l gives the address of row l: row (l * 5) % 64, its 16-byte chunk swizzled by the row
    unsigned row = (lane * 5) % 64, chunk = (lane ^ row) % 8;
    unsigned a = smem_addr(&tile[row * 64 + chunk * 8]);
    unsigned r[24];
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[1]), "=r"(r[2]) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[7]) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[8]), "=r"(r[9]) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]) : "r"(a));
    for (int k = 0; k < 14; ++k) out[k * 32 + lane] = r[k];
    // stores: lane l gives row l of the destination: the l-th 64-byte block, 16-byte chunk l%4 ^ (l/8)%4
    unsigned d = (lane % 4) ^ (lane / 8 % 4);
    unsigned s[6];
    for (int k = 0; k < 6; ++k) s[k] = smem_addr(&back[k][(lane * 4 + d) * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(s[0]), "r"(r[3]));
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(s[1]), "r"(r[4]), "r"(r[5]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(s[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]));
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" :: "r"(s[3]), "r"(r[10]));
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(s[4]), "r"(r[11]), "r"(r[12]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(s[5]), "r"(r[10]), "r"(r[11]), "r"(r[12]), "r"(r[13]));
    __syncwarp();
    for (int i = lane; i < 6 * 32 * 8 * 4 / 2; i += 32)
        out[14 * 32 + i] = reinterpret_cast<unsigned *>(back)[i];
}
