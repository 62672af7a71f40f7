// Each lane reads s[lane * 32]: lanes land 128 bytes apart, all in bank 0 (32-way conflict).
// bankexplorer import-cuda 04_stride32_float.cu
__global__ void stride32(float* out)
{
    __shared__ float s[1024];
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = s[lane * 32];
}

void launch(float* out)
{
    stride32<<<1, 32>>>(out);
}
