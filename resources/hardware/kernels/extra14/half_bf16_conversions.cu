// block: 128
// input: in = floats_1024.npy
// conversions through 16-bit float types in shared memory: __float2half_rn / _rz / _rd / _ru,
// __half2float, __float2bfloat16 / _rz, __bfloat162float, double -> half (__double2half),
// half -> int (__half2int_rn / _rz), int -> half (__int2half_rn), short arrays of bits
// (__half_as_ushort), overflow to infinity for large values
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void half_bf16_conversions(const float *in, float *out) {
    __shared__ __half h[4][256];
    __shared__ __nv_bfloat16 bf[2][256];
    __shared__ unsigned short bits[256];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 128) {
        float x = in[i] * 3000.0f;
        h[0][i] = __float2half_rn(x);
        h[1][i] = __float2half_rz(x);
        h[2][i] = __float2half_rd(in[i] * 0.001f);
        h[3][i] = __float2half_ru(in[i] * 0.001f);
        bf[0][i] = __float2bfloat16(in[i] * 1e30f);
        bf[1][i] = __float2bfloat16_rz(in[i]);
        bits[i] = __half_as_ushort(__double2half((double)in[i] / 7.0));
    }
    __syncthreads();
    for (int i = t; i < 256; i += 128) {
        int j = 255 - i;
        float *o = out + i * 8;
        o[0] = __half2float(h[0][j]);
        o[1] = __half2float(h[1][j]) - __half2float(h[0][j]);
        o[2] = __half2float(h[2][i]) + __half2float(h[3][i]);
        o[3] = __bfloat162float(bf[0][j]);
        o[4] = __bfloat162float(bf[1][i]);
        o[5] = (float)bits[j];
        o[6] = (float)__half2int_rn(h[0][i]) + (float)__half2int_rz(h[1][i]);
        o[7] = __half2float(__int2half_rn((int)bits[i] - 30000));
    }
}
