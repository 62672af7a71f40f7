// block: 64
__global__ void __launch_bounds__(64) stride2(const float *in, float *out, int n) {
    __shared__ float s[128];
    s[threadIdx.x * 2] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2 + n) % 128];
}
extern "C" __global__ void cfun(float *out, long long x) { __shared__ float t[32]; t[threadIdx.x] = x; __syncwarp(); out[threadIdx.x] = t[31 - threadIdx.x]; }
int main() { return 0; }
