// block: 128
// input: in = floats_1024.npy
// an array of structs in shared memory used through fields and accessors: the fields are written one
// by one, read back one or three at a time (stride 4 words between threads)
struct P {
    float x, y, z, w;
    __device__ float norm2() const { return x * x + y * y + z * z; }
};
__global__ void struct_fields(const float *in, float *out) {
    __shared__ P ps[128];
    int t = threadIdx.x;
    ps[t].x = in[t];
    ps[t].y = in[t + 128];
    ps[t].z = in[t + 256];
    ps[t].w = in[t + 384];
    __syncthreads();
    int n = (t + 1) & 127;
    float dx = ps[n].x - ps[t].x;
    float m = ps[(t * 5) & 127].w;
    out[t] = dx * dx + ps[n].norm2() + m;
}
