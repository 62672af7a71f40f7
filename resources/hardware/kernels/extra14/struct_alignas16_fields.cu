// block: 128
// input: f = floats_1024.npy
// input: in = ints_1024.npy
// shared arrays of alignas(16) structs (a float3 + int record and a record of a double, a short,
// a signed char and an int, 16 bytes each): stores of whole structs (vector stores), field reads
// at strides of 4 words, a field update through a reference, an array-of-structs to SoA pass
struct alignas(16) P { float x, y, z; int id; };
struct alignas(16) Q { double w; short s; signed char c; int k; };
__global__ void struct_alignas16_fields(const float *f, const int *in, float *out) {
    __shared__ P p[128];
    __shared__ Q q[128];
    __shared__ float soa[3][128];
    int t = threadIdx.x;
    P v; v.x = f[t * 3]; v.y = f[t * 3 + 1]; v.z = f[t * 3 + 2]; v.id = in[t];
    p[t] = v;
    Q w; w.w = (double)f[384 + t]; w.s = (short)(in[128 + t] - 500); w.c = (signed char)in[256 + t]; w.k = t * 7;
    q[(t * 5) & 127] = w;
    __syncthreads();
    P &r = p[p[t].id & 127];
    float d = r.x * r.x + r.y * r.y + r.z * r.z;
    __syncthreads();
    p[t].z += 1.0f;
    soa[0][t] = p[(t + 1) & 127].x; soa[1][t] = p[t].y; soa[2][t] = p[t].z;
    __syncthreads();
    const Q &u = q[t];
    out[t] = d;
    out[128 + t] = (float)u.w + (float)u.s + (float)u.c + (float)u.k;
    out[256 + t] = soa[0][127 - t] - soa[2][t] + soa[1][(t * 4) & 127];
    out[384 + t] = (float)p[(t * 8) & 127].id;
}
