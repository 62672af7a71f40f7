// <cub/cub.cuh> for NVRTC: the device-side part of CUB's umbrella header.
//
// CUB's own umbrella stops NVRTC with an #error ("not supported when compiling with NVRTC"): besides
// the block-, warp- and thread-level primitives a kernel uses, it includes the device-wide algorithms
// (cub::DeviceReduce, DeviceRadixSort, ...) and the caching allocator, which are host code that
// launches kernels and cannot compile without a host compiler. Defining
// CCCL_DISABLE_NVRTC_COMPATIBILITY_CHECK only moves the failure into those headers.
//
// BankExplorer compiles device code only (host functions in a pasted file are blanked before the
// compile), so this header, first on the include path, includes everything the real umbrella
// offers to device code: the same block, warp, thread, grid and iterator headers and utilities,
// minus cub/device/* and cub/util_allocator.cuh. A kernel that compiles with nvcc and
// #include <cub/cub.cuh> compiles here to the same code.

#pragma once

#include <cub/config.cuh>

// Block
#include <cub/block/block_adjacent_difference.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/block/block_radix_rank.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

// Grid
#include <cub/grid/grid_even_share.cuh>
#include <cub/grid/grid_mapping.cuh>
#include <cub/grid/grid_queue.cuh>

// Thread
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_operators.cuh>
#include <cub/thread/thread_reduce.cuh>
#include <cub/thread/thread_scan.cuh>
#include <cub/thread/thread_store.cuh>

// Warp
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/warp/warp_store.cuh>

// Iterator
#include <cub/iterator/arg_index_input_iterator.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/iterator/cache_modified_output_iterator.cuh>
#include <cub/iterator/tex_obj_input_iterator.cuh>

// Util
#include <cub/util_debug.cuh>
#include <cub/util_device.cuh>
#include <cub/util_ptx.cuh>
#include <cub/util_temporary_storage.cuh>
#include <cub/util_type.cuh>
