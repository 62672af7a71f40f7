// block: 128
#define EPS2 0.01f
__device__ float3 bodyBodyInteraction(float4 bi, float4 bj, float3 ai) {
    float3 r;
    r.x = bj.x - bi.x;
    r.y = bj.y - bi.y;
    r.z = bj.z - bi.z;
    float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + EPS2;
    float distSixth = distSqr * distSqr * distSqr;
    float invDistCube = 1.0f / sqrtf(distSixth);
    float s = bj.w * invDistCube;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}
__global__ void calculate_forces(const float4 *globalX, float4 *globalA, int N) {
    __shared__ float4 shPosition[128];
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    float4 myPosition = globalX[gtid];
    float3 acc = {0.0f, 0.0f, 0.0f};
    for (int i = 0, tile = 0; i < N; i += blockDim.x, tile++) {
        int idx = tile * blockDim.x + threadIdx.x;
        shPosition[threadIdx.x] = globalX[idx];
        __syncthreads();
        for (int j = 0; j < blockDim.x; j++)
            acc = bodyBodyInteraction(myPosition, shPosition[j], acc);
        __syncthreads();
    }
    globalA[gtid] = make_float4(acc.x, acc.y, acc.z, 0.0f);
}
