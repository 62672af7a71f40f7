// block: 128
// input: ops = ops_3072.npy
// a per-thread stack machine: 24 op codes a thread (0, 1: push a constant; 2: add; 3: multiply;
// 4: duplicate; a pop on fewer than two entries pushes instead) run on stacks kept in shared
// memory column-wise, stack[depth][thread] (depth 0..31: lanes at different depths hit the same
// bank in different rows), so the addresses and the depth reached depend on the data
__global__ void stack_machine(const int *ops, int *out) {
    __shared__ int stack[32][128];
    int t = threadIdx.x, sp = 0, maxd = 0;
    for (int i = 0; i < 24; ++i) {
        int op = ops[t * 24 + i];
        if (op >= 2 && op <= 3 && sp >= 2) {
            int b = stack[sp - 1][t], a = stack[sp - 2][t];
            stack[sp - 2][t] = (op == 2) ? a + b : (a * b) % 10007;
            --sp;
        } else if (op == 4 && sp >= 1 && sp < 32) {
            stack[sp][t] = stack[sp - 1][t];
            ++sp;
        } else if (sp < 32) {
            stack[sp][t] = op + i + 1;
            ++sp;
        }
        maxd = sp > maxd ? sp : maxd;
    }
    int s = 0;
    for (int d = 0; d < sp; ++d) s += stack[d][t] * (d + 1);
    out[t] = s;
    out[128 + t] = sp | (maxd << 8);
}
