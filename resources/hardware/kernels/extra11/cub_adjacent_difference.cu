// block: 128
// input: in = ints_1024.npy
#include <cub/cub.cuh>
struct Minus {
    __device__ int operator()(int a, int b) const { return a - b; }
};
// differences of neighbours across thread boundaries: SubtractLeft (each thread's last item goes
// through shared memory to the next thread)
__global__ void adjacent_difference(const int *in, int *out) {
    using AdjDiff = cub::BlockAdjacentDifference<int, 128>;
    __shared__ typename AdjDiff::TempStorage temp;
    int items[4], diffs[4];
    cub::LoadDirectBlocked(threadIdx.x, in, items);
    AdjDiff(temp).SubtractLeft(items, diffs, Minus());
    cub::StoreDirectBlocked(threadIdx.x, out, diffs);
}
