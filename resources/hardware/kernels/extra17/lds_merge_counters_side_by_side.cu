// The side-by-side program of README.md ("Two counters"): 12 LDS.64 and 8 LDS.128 cases, one
// launch each (8 predicated loads of the same addresses in a row, as the rows of
// h100_shared_wavefronts.jsonl were taken), profiled twice: the hardware counter and the source page.
#include <cstdio>
#include <cuda_runtime.h>
static const int TAB[] = {21,21,16,16,30,30,17,17,18,18,14,14,11,11,9,9,28,28,26,26,13,13,29,29,12,12,31,31,10,10,8,8,
16,8,16,8,11,15,11,15,27,2,27,2,14,18,14,18,13,26,13,26,12,19,12,19,17,28,17,28,29,6,29,6,
0,-1,-1,-1,64,-1,-1,-1,0,-1,-1,-1,64,-1,-1,-1,0,-1,-1,-1,64,-1,-1,-1,0,-1,-1,-1,64,-1,-1,-1,
5,14,2,9,5,14,2,9,16,25,15,22,16,25,15,22,13,18,29,4,13,18,29,4,7,3,26,30,7,3,26,30,
0,0,16,16,2,2,3,3,4,4,5,5,6,6,7,7,8,8,24,24,10,10,11,11,12,12,13,13,14,14,15,15,
0,-1,16,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,17,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,16,-1,32,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,0,-1,16,-1,32,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,17,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
135,-1,-1,234,250,-1,-1,-1,427,-1,-1,402,-1,243,-1,-1,-1,440,7,-1,-1,3,-1,456,-1,-1,-1,261,145,-1,-1,379,
5,-1,-1,-1,-1,-1,-1,-1,21,-1,-1,-1,-1,-1,-1,-1,6,-1,-1,-1,-1,-1,-1,-1,22,-1,-1,-1,-1,-1,-1,-1,
0,-1,16,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13,14,14,15,15,
23,23,2,2,5,5,28,28,12,12,7,7,26,26,21,21,13,13,25,25,29,29,0,0,14,14,22,22,27,27,9,9,
6,13,6,13,31,30,31,30,3,10,3,10,26,14,26,14,17,7,17,7,20,5,20,5,1,25,1,25,2,19,2,19,
4,15,4,15,4,15,4,15,11,31,11,31,11,31,11,31,23,30,23,30,23,30,23,30,16,24,16,24,16,24,16,24,
0,-1,-1,-1,-1,-1,-1,-1,8,-1,1,-1,9,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,8,-1,2,-1,-1,-1,1,-1,9,-1,10,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,8,-1,16,-1,-1,-1,1,-1,9,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,-1,-1,-1,-1,-1,-1,1,-1,9,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,-1,8,-1,-1,-1,-1,-1,1,-1,9,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1};
__global__ void probe_baseline(const int* tab, unsigned long long* out) { out[threadIdx.x] = tab[threadIdx.x]; }
__global__ void hw64(const int* __restrict__ tab, unsigned long long* out) {
    __shared__ __align__(128) double xs[1024];
    const int k = tab[threadIdx.x];
    const unsigned act = k >= 0;
    const unsigned sa = (unsigned)__cvta_generic_to_shared(xs) + 8u * (unsigned)(k >= 0 ? k : 0);
    unsigned long long acc = 0;
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        unsigned r0 = 0, r1 = 0;
        asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.b32 q, %3, 0;\n\t@q ld.volatile.shared.v2.u32 {%0, %1}, [%2];\n\t}"
                     : "+r"(r0), "+r"(r1) : "r"(sa), "r"(act) : "memory");
        acc += (unsigned long long)r0 + r1;
    }
    out[threadIdx.x] = acc;
}
__global__ void hw128(const int* __restrict__ tab, unsigned long long* out) {
    __shared__ __align__(128) double2 xs[512];
    const int k = tab[threadIdx.x];
    const unsigned act = k >= 0;
    const unsigned sa = (unsigned)__cvta_generic_to_shared(xs) + 16u * (unsigned)(k >= 0 ? k : 0);
    unsigned long long acc = 0;
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
        asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.b32 q, %5, 0;\n\t@q ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];\n\t}"
                     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : "r"(sa), "r"(act) : "memory");
        acc += (unsigned long long)r0 + r1 + r2 + r3;
    }
    out[threadIdx.x] = acc;
}
int main() {
    int* d; unsigned long long* o;
    cudaMalloc(&d, sizeof(TAB)); cudaMemcpy(d, TAB, sizeof(TAB), cudaMemcpyHostToDevice);
    cudaMalloc(&o, 4096 * 8);
    int base[32]; for (int i = 0; i < 32; ++i) base[i] = -1;
    int* db; cudaMalloc(&db, sizeof(base)); cudaMemcpy(db, base, sizeof(base), cudaMemcpyHostToDevice);
    probe_baseline<<<1, 32>>>(db, o); cudaDeviceSynchronize();
    for (int c = 0; c < 12; ++c) { hw64<<<1, 32>>>(d + 32 * c, o); cudaDeviceSynchronize(); }
    for (int c = 0; c < 8; ++c) { hw128<<<1, 32>>>(d + 32 * (12 + c), o); cudaDeviceSynchronize(); }
    printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
