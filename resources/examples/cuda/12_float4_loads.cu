// Each lane loads 16 bytes (LDS.128) from float sh[8][128]: a warp's 512 bytes take 4 wavefronts
// (one per quarter-warp), the minimum: no conflict.
__global__ void float4_loads(float4* out)
{
    __shared__ float sh[8][128];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    float4 v = reinterpret_cast<float4*>(&sh[warp][lane * 4])[0];
    out[threadIdx.x] = v;
}

void launch(float4* out)
{
    float4_loads<<<1, 256>>>(out);
}
