// extra19's lds128_partial_quads_probe cases side by side (README "Hardware counter"): each case launched alone,
// 8 predicated LDS.128 of the same addresses, profiled twice: the hardware counter and the source page.
#include <cstdio>
#include <cuda_runtime.h>
static const int TAB[] = {-1,0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,4,4,4,-1,5,5,5,-1,6,6,6,-1,7,7,7,
0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,6,6,6,6,7,7,7,7,
-1,0,-1,-1,-1,1,-1,-1,-1,2,-1,-1,-1,3,-1,-1,-1,4,-1,-1,-1,5,-1,-1,-1,6,-1,-1,-1,7,-1,-1,
-1,0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,4,4,4,-1,5,5,5,-1,6,6,6,-1,7,7,7,
-1,-1,0,0,-1,-1,1,1,-1,-1,2,2,-1,-1,3,3,-1,-1,4,4,-1,-1,5,5,-1,-1,6,6,-1,-1,7,7,
0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,4,4,4,-1,5,5,5,-1,6,6,6,-1,7,7,7,-1,
-1,8,8,8,-1,9,9,9,-1,10,10,10,-1,11,11,11,-1,12,12,12,-1,13,13,13,-1,14,14,14,-1,15,15,15,
-1,7,7,7,-1,6,6,6,-1,5,5,5,-1,4,4,4,-1,3,3,3,-1,2,2,2,-1,1,1,1,-1,0,0,0,
-1,0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,12,12,12,-1,13,13,13,-1,14,14,14,-1,15,15,15,
-1,-1,-1,0,-1,-1,-1,1,-1,-1,-1,2,-1,-1,-1,3,-1,-1,-1,4,-1,-1,-1,5,-1,-1,-1,6,-1,-1,-1,7,
-1,0,0,-1,-1,1,1,-1,-1,2,2,-1,-1,3,3,-1,-1,4,4,-1,-1,5,5,-1,-1,6,6,-1,-1,7,7,-1,
-1,0,0,0,-1,-1,-1,-1,-1,2,2,2,-1,-1,-1,-1,-1,4,4,4,-1,-1,-1,-1,-1,6,6,6,-1,-1,-1,-1,
-1,0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,4,4,4,-1,5,5,5,-1,-1,-1,-1,-1,-1,-1,-1,
-1,0,0,0,-1,1,1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,
0,0,0,0,-1,1,1,1,-1,2,2,2,-1,3,3,3,-1,4,4,4,-1,5,5,5,-1,6,6,6,-1,7,7,7};
__global__ void probe_baseline(const int* tab, unsigned long long* out) { out[threadIdx.x] = tab[threadIdx.x]; }
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
    for (int c = 0; c < 16; ++c) { hw128<<<1, 32>>>(d + 32 * c, o); cudaDeviceSynchronize(); }
    printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
