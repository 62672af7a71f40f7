// block: 128
// input: in = ints_1024.npy
// a search through a 32 x 32 shared table with every jump a loop can have: `continue` past odd
// rows of the thread, `break` out of a row at a zero, `goto found` out of both loops at the key,
// and the fall-through path past the loops for threads that never find it
__global__ void break_continue_goto(const int *in, int *pos_out, int *visited_out) {
    __shared__ int table[32][32];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 128) table[i / 32][i % 32] = in[i] % 50;
    __syncthreads();
    int key = t % 50, visited = 0, pos = -1;
    for (int r = t & 7; r < 32; ++r) {
        if ((r + t) & 1) continue;
        for (int c = 0; c < 32; ++c) {
            int v = table[r][(c + t) & 31];
            ++visited;
            if (v == 0) break;
            if (v == key) { pos = r * 32 + ((c + t) & 31); goto found; }
        }
    }
    visited = -visited;  // not found
found:
    pos_out[t] = pos;
    visited_out[t] = visited;
}
