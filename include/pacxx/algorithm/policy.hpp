// Launch policies of the GPU algorithms (CUB's split: policy here, the kernels in the
// algorithm headers). Tuned by the benchmarks, not by the algorithms.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "pacxx/runtime.hpp"
#include "pacxx/thread.hpp"
#include "pacxx/tune.hpp"

namespace pacxx {
namespace policy {

// Element-wise algorithms (for_each, transform, fill, copy): each thread handles
// `items` elements a block-width apart (coalesced, and several loads in flight), blocks
// stride over tiles of block * items elements.
struct elementwise {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 4;   // items a thread (a tile: block * items)
  // Most blocks; they stride over the rest.
  static constexpr std::size_t max_blocks = std::size_t(1) << 20;
};

// gpu::for_each / gpu::transform over a shaped range (an md view, indices, a stencil;
// pacxx/algorithm/detail/shaped.hpp): blocks of block_x x block_y threads, each thread
// `rows` elements block_y rows apart in a column, all loaded before the first store (as
// elementwise's items). A warp covers 32 consecutive x: coalesced rows. Grids stride in
// y and z beyond CUDA's 65535 blocks there.
struct shaped {
  static constexpr std::size_t x_items = 1;  // elements of a row a thread takes (x)
  static constexpr std::size_t block_x = 32; // threads a block along x (a warp: 32 consecutive x)
  static constexpr std::size_t block_y = 8;  // threads a block along y
  // Elements a thread takes in its column, block_y rows apart.
  static constexpr std::size_t rows = 4;
  static constexpr std::size_t max_blocks_x = std::size_t(1) << 20; // most blocks along x
  // Most blocks along y and z (CUDA's limit; grids stride beyond).
  static constexpr std::size_t max_blocks_yz = 65535;
};
// The same over a stencil: one row a thread. With four, the neighbourhoods' addresses and
// both paths (interior, border) took 142 registers in the 2D 5-point stencil (198 in
// 3D): one block a multiprocessor, 360 GB/s where the naive CUDA kernel moves 1940
// (H100, 8192^2, 2026-11-27).
// Each thread also takes x_items elements of its row (block_x * grid apart): the per-row
// set-up of the border path (clamped row offsets, 64-bit multiplies), hoisted out of the
// loop over x, was most of the 203 instructions a point that ncu counted with one
// element a thread (the naive CUDA kernel: 67).
// Tried and dropped (H200, 2026-11-28, shapes.cpp, fluids.cpp, canny.cpp): a thread marching
// through a chunk of 8-64 elements of its column (y in 2D, z in 3D), the column's 2 R + 1
// elements in registers, 2-8 column loads ahead: the 3D 7-point stencil went from 649 to
// 591 us at 512^3 but from 20.3 to 23.7 at 128^3, the 2D one stayed at 216 us at 8192^2
// and was slower at 4096^2 (63 -> 67), stable fluids went from 0.96 to 1.56 ms at 1024^2
// and Canny from 12.6 to 15.8 ms at 2048^2. The 2D 5-point stencil here is L2-bound (ncu:
// 2.06 bytes of L2 a byte of DRAM, L2 at 76% of its peak); the march halved its L2 bytes
// but left it latency-bound.
//
// gpu::transform over a 2D or 3D stencil takes `group` consecutive elements of the
// slowest axis (rows in 2D, planes in 3D) a thread, and where all of them are interior it
// computes all their values before it stores any: the loads of neighbours the group's
// elements share (n(0, 1) of a row is n(0, 0) of the next) are then one load, and a thread
// has group rows of loads in flight, not one. Groups that touch the border take the
// per-element path. Not on PoCL (where a warp is one work-item) unless group_everywhere:
// there a group's loads only add code to compile; the tests set it to run the path on
// the CPU. gpu::for_each keeps the per-element path (x_items, rows): its function may
// write anything, there are no values to compute before the stores.
// A throwaway CUDA kernel first (benchmarks/results/2026-12-07-h100-stencil-segmented/ab,
// H100; cudaMemcpy of the same bytes 181 us at 8192^2, 361 at 512^3): the 2D 5-point
// stencil, clamped, at 8192^2 one element a thread 263-271 us (blocks of 32 x 8, 128 x 2,
// 256 x 1), 4 rows a thread 199-203, 8 rows 191-208, 2 rows 213, 4 rows block_y apart
// (`rows`, no loads shared) 214; the 3D 7-point one at 512^3 one element 674 us, 2 / 4 /
// 8 planes 505 / 455 / 453.
// Then pacxx's (shapes.cpp with policies, same folder; H100, 2026-12-07, one repetition
// but the first row's three; us at 2048^2 / 4096^2 / 8192^2 and 128^3 / 256^3 / 512^3;
// the naive CUDA kernel 22.7 / 75.3 / 274 and 19.0 / 92.8 / 679, the copy 15.8 / 54.6 /
// 187 and 11.5 / 54.4 / 366; without groups on 2026-11-27: 20.4 / 70.9 / 244 and 18.5 /
// 101.6 / 680):
//   group  block   x items   2D                  3D
//   4      32 x 8  8         20.7 / 77.6 / 245   18.1 / 92.6 / 513
//   4      32 x 8  1         19.8 / 65.7 / 224   18.1 / 74.2 / 485
//   2      32 x 8  8         17.0 / 69.3 / 237   16.8 / 87.6 / 510
//   8      32 x 8  8         29.7 / 89.1 / 261   22.8 / 116  / 586
//   4      64 x 4  4         19.8 / 69.2 / 230   17.4 / 81.1 / 495
//   8      128 x 1 2         20.3 / 68.2 / 226   19.1 / 92.8 / 570
// With 8 x items a block covers 256 columns and 32 rows: stable fluids' 1026^2 grid was
// 165 blocks (645 without groups), and its step took 1.80 ms against 1.05 without groups
// (fluids.cpp; H100, this run and 2026-11-27's), Canny at 4096^2 177 against 160 ms. So
// groups take group_x_items = 1 (1089 blocks there). Canny and fluids are not yet
// measured with it (the session's device time ran out). In these runs a group's
// neighbourhoods each had their own address, so the loads they share were not merged
// (20 loads a 2D group, 28 in 3D); they are now (14 and 22, detail/shaped.hpp:
// stencil_group). Merged, on the H100 (2026-12-07, benchmarks/results/
// 2026-12-07-h100-stencil-groups; naive CUDA 24.7 / 77.4 / 277 and 21.1 / 94.8 / 678,
// copy 17.8 / 57.0 / 189 and 13.6 / 56.5 / 367; all x items 1):
//   group  block    2D                  3D
//   4      32 x 8   21.0 / 63.0 / 212   19.7 / 74.0 / 475   (this policy)
//   2      32 x 8   20.6 / 63.4 / 216   19.1 / 94.7 / 631
//   8      32 x 8   20.0 / 62.3 / 204   20.1 / 75.8 / 494
//   4      64 x 4   19.7 / 62.4 / 208   19.1 / 76.4 / 485
//   8      64 x 2   20.1 / 60.8 / 202   19.3 / 77.4 / 491
//   4      128 x 2  18.8 / 60.8 / 208   18.9 / 82.8 / 505   (2D: shaped_stencil_2d)
//   8      128 x 1  18.9 / 60.9 / 200   19.8 / 88.7 / 507
// The same run: Canny 15.4 / 176 ms at 2048^2 / 4096^2 (the naive kernels 20.9 / 131),
// stable fluids 1.05 / 3.58 ms at 1024^2 / 2048^2 (1.02 / 3.27), both with 4 x 32 x 8.
// 2D stencils take 4 rows in blocks of 128 x 2 (shaped_stencil_2d): 1.27-1.33x the naive
// kernel and 0.91-0.95 of the copy rate at every size above. 8 x 128 x 1 was as fast,
// but gives a grid half the threads, and Canny's and fluids' 1024^2 - 2048^2 grids are
// small; neither program has been measured with the new blocks yet.
struct shaped_stencil : shaped {
  // Elements a thread takes in its column, block_y rows apart.
  static constexpr std::size_t rows = 1;
  static constexpr std::size_t x_items = 8;       // elements of its row a thread takes
  static constexpr std::size_t group = 4;         // consecutive rows (2D) or planes (3D) a thread
  static constexpr std::size_t group_x_items = 1; // x_items where a thread takes groups
  static constexpr bool group_everywhere = false; // groups also where a warp is one work-item
};
// gpu::transform over a 2D stencil: groups of 4 rows, blocks of 128 x 2 (the table above).
struct shaped_stencil_2d : shaped_stencil {
  static constexpr std::size_t block_x = 128; // threads a block along x
  static constexpr std::size_t block_y = 2;   // threads a block along y
};

// gpu::reduce: one pass over the (fused) input into one partial per block, then the
// partials are folded on the host. Blocks stride over tiles of block * items elements;
// a thread loads its `items` elements of a tile before it folds them. `block` must be a
// power of two. Kernel times under ncu (H100, base clocks, 2026-11-25; float sum,
// count_if and min_element alike): 2^28 in 370 us with 4 items and 1024 blocks, 368 with
// 8 / 1024, 359 with 16 / 528, 356 with 8 / 660, 354 with 8 / 396, 352 with 8 / 528
// (CUB's two kernels: 350); at 2^20 - 2^24 8 / 528 was as fast as any other.
struct reduce {
  static constexpr std::size_t block = 256;      // threads a block
  static constexpr std::size_t items = 8;        // items a thread (a tile: block * items)
  static constexpr std::size_t max_blocks = 528; // most blocks; they stride over the rest
};

// The index-carrying reductions (min_element, max_element, minmax_element): reduce's 8
// items a thread in blocks twice as large, at half as many blocks, so half as many
// (value, index) partials come back to be folded on the host, with the same threads on
// the device at large sizes (264 x 512 = 528 x 256). min_element of floats on the H100 (2026-11-26,
// benchmarks/results/2026-11-26-h100-small-reductions, end to end, two processes,
// 2^20 / 2^21 / 2^22 / 2^23, us): 256 x 8 at 528 blocks 12.0-12.2 / 12.7 / 13.8-14.3 /
// 16.3-16.4, 512 x 8 at 264 11.4-11.6 / 12.1-12.2 / 13.4-13.6 / 15.5-15.6, 1024 x 8 at
// 132 11.6 / 11.9-12.1 / 13.3-13.4 / 15.1-15.4 (its kernel 4.45 us at 2^20 against
// 4.10); at 2^28 all three 360-361. 16 items a thread were 3 % slower at 2^28.
//
// index32_max: min_element and max_element carry 32-bit indices up to this many
// elements, 64-bit ones above. Kernel times of min_element over floats under ncu (H100,
// 2026-11-26, same results folder, 2^20 / 2^22 / 2^23 / 2^28, us): 64-bit 4.14 / 6.11 /
// 8.24 / 351.8, 32-bit 4.03 / 5.74 / 8.16 / 356.1; end to end, two processes each, equal
// at 2^24 (33.2-34.9 against 33.5-34.0) and slower at 2^28 (364.6-367.2 against
// 360.3-360.4; the kernels' loops are the same but for a mask, and why it is slower
// there is not known).
struct arg_reduce {
  static constexpr std::size_t block = 512;      // threads a block
  static constexpr std::size_t items = 8;        // items a thread (a tile: block * items)
  static constexpr std::size_t max_blocks = 264; // most blocks; they stride over the rest
  // Elements up to which indices are 32-bit.
  static constexpr std::size_t index32_max = std::size_t(1) << 24;
};

// First-match searches (find, find_if, any_of, all_of, none_of, equal;
// pacxx/agent/find.hpp): blocks stride over tiles of block * items elements in
// increasing order and stop at the first tile past a match that any block has
// published. The loop has no barriers, only a ballot and a shuffle per tile, so a tile
// of several items per thread amortises them. any_of with no match, kernel times under
// ncu (H100, base clocks, 2026-11-25), 2^24 / 2^28: 8 items and 1024 blocks 28.6 / 387
// us, 8 / 528 27.6 / 378, 8 / 396 28.8 / 383, 8 / 660 28.1 / 377, 16 / 528 28.1 / 381,
// 16 / 264 26.8 / 369 (CUB's two kernels: 362 at 2^28), and 16 / 264 the fastest at
// 2^20 - 2^23 too. Again once the tile loop kept positions rather than indices (end to
// end, two runs each, 2^20 / 2^22 / 2^28, us; the same ab.md as below): 16 / 264
// 13.4-13.8 / 15.0-15.6 / 375, 8 / 528 14.2-14.8 / 16.4-17.2 / 375-376, 16 / 528
// 12.6-13.9 / 15.2-15.9 / 380-381. Once the first poll moved into the first tile
// (ncu, 2026-11-26, 2^20 / 2^22 / 2^23 / 2^28, us; the sum 3.70 / 5.55 / 7.82 / 351.9;
// benchmarks/results/2026-11-26-h100-small-reductions, ab.md §8): 256 x 16 at 264 blocks
// 4.06 / 6.10 / 8.83 / 364.1, 256 x 32 at 264 3.86 / 5.97 / 8.24 / 360.0, 256 x 32 at
// 132 3.86 / 5.98 / 8.96 / 412.8, 512 x 16 at 264 4.08 / 6.10 / 8.48 / 365.7, 256 x 24
// at 264 6.70 / 8.40 / 9.81 / 374.3. With 32 items (30 registers, no spills) a warp
// pays the ballot and shuffle once per 32 loads.
//
// poll_every: a warp reads the published match every this many tiles. Every warp of
// the grid reads the same word; any_of with no match, end to end (benchmarks/reductions,
// H100, 2026-11-25, two runs each, 2^24 / 2^26 / 2^28): every tile 39.2-39.3 /
// 108.4-109.1 / 383.6-384.8 us, every 4th 37.7-38.3 / 105.4-105.6 / 377.1-377.8 (the
// sum in the same processes: 34.0-34.8 / 99.5-99.9 / 362.2-364.5;
// benchmarks/results/2026-11-25-h100-find/ab.md). The price: after a match, up to 3
// more tiles per warp, at most 3 * 264 * 8192 elements, about 10 us.
struct find {
  static constexpr std::size_t block = 256;      // threads a block
  static constexpr std::size_t items = 32;       // items a thread (a tile: block * items)
  static constexpr std::size_t max_blocks = 264; // most blocks; they stride over the rest
  static constexpr unsigned poll_every = 4; // tiles between a warp's reads of the published match
};

// Items per thread for values of type T under a policy sized for `Bytes`-byte values
// with `Nominal` items: scaled by size so that a tile's shared memory stays about the
// same, at least 1 and at most Nominal.
template <class T, std::size_t Nominal, std::size_t Bytes> struct scaled_items {
  static constexpr std::size_t scaled = Nominal * Bytes / sizeof(T); // before the clamp
  // The items: scaled, at least 1 and at most Nominal.
  static constexpr std::size_t value = scaled < 1 ? 1 : (scaled > Nominal ? Nominal : scaled);
};

// Single-pass scans (pacxx/agent/scan.hpp): one block per tile of block * items
// elements, loaded blocked through shared memory. CUB's sm_90 tuning for 4-byte sums is
// 128 threads x 24 items; `items` shrinks with larger values so that the tile's shared
// memory stays near 12 KiB.
//
// lookback_delay_ns: the look-back's wait before its first poll in grids of 500 tiles
// or more (pacxx/block/lookback.hpp; CUB's sm_90 float scan waits 1140 ns, then polls
// every 688 ns). Measured with a timing program per value on the H100 (2026-11-25,
// float inclusive scan, median of 9-25 calls, us at 2^24 / 2^26 / 2^28): none 85 / 275 /
// 1037, 700 ns 80 / 254 / 958, 1140 ns 77 / 247 / 927, 1600 ns 75 / 245 / 924, 2400 ns
// 77 / 237 / 888 but 29-32 us at 2^22 against 25-27. CUB's fixed 688 ns between polls
// instead of 64 ns doubling (both after 1140 ns): 914 against 926 us at 2^28, 76 / 76 at
// 2^24, slower at 2^20 (21 against 19-20 us).
//
// ordered_windows: the deterministic scans (gpu::deterministic; Ordered = true) read
// this many windows of a warp's width of predecessors per poll of their look-back
// (pacxx::ordered_lookback_prefix), so that one round trip usually reaches an
// inclusive prefix, and fold them one at a time. Not measured yet.
struct scan {
  static constexpr std::size_t block = 128; // threads a block
  static constexpr std::size_t items = 24;  // items a thread (a tile: block * items)
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = 1600;
  static constexpr unsigned ordered_windows = 4; // windows a deterministic look-back reads per poll
};
// The scan policy for values of type T: scan's, its items scaled so that the tile's shared
// memory stays near 12 KiB; Ordered: the deterministic scan (gpu::deterministic).
template <class T, bool Ordered = false> struct scan_for {
  static constexpr std::size_t block = scan::block; // threads a block
  // Items a thread, scaled by the value's size.
  static constexpr std::size_t items = scaled_items<T, scan::items, 4>::value;
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = scan::lookback_delay_ns;
  static constexpr bool ordered = Ordered; // whether the scan is the deterministic one
  // Windows a deterministic look-back reads per poll.
  static constexpr unsigned ordered_windows = scan::ordered_windows;
};

// gpu::reduce_by_key: the scan-by-key pass with a tile of its own (scan_by_key keeps
// scan_for's). Kernel times under ncu (H100, base clocks, 2026-11-25; int keys in runs
// of 1-15, float values, so 8-byte run folds) at 2^20 / 2^24 / 2^28: scan_for's 128
// threads x 12 items 16.6 / 118.8 / 1683 us, 128 x 8 14.4 / 119.4 / 1766, 128 x 10
// 16.4 / 125.6 / 1851, 256 x 12 15.3 / 117.0 / 1668, 256 x 8 14.0 / 114.6 / 1673.
// `items` shrinks with larger folds as scan_for's does, and with larger keys: the keys
// pass through an exchange of their own (a second tile of shared memory) once each.
struct reduce_by_key {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 8;   // items a thread (a tile: block * items)
};
// The reduce_by_key policy for folds of type R and keys of type K: items scaled by the
// larger of the two.
template <class R, class K = R> struct reduce_by_key_for {
  static constexpr std::size_t block = reduce_by_key::block; // threads a block
  // Items scaled by the fold's size.
  static constexpr std::size_t by_fold = scaled_items<R, reduce_by_key::items, 8>::value;
  // Items scaled by the key's size.
  static constexpr std::size_t by_key = scaled_items<K, reduce_by_key::items, 8>::value;
  // Items a thread (a tile: block * items).
  static constexpr std::size_t items = by_fold < by_key ? by_fold : by_key;
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = scan::lookback_delay_ns;
};

// Single-pass compaction (pacxx/agent/select.hpp, CUB's AgentSelectIf): one block per
// tile of block * items elements; where the selection tests values alone (copy_if,
// stable_partition, remove_if over a source that is not filtered) a warp loads its
// consecutive elements and turns them into each thread's `items` consecutive ones in
// shared memory (CUB's sm_90 float choice, BLOCK_LOAD_WARP_TRANSPOSE); otherwise each
// thread loads its own directly. The selected ones are staged through shared memory so
// that the stores are coalesced. items and the look-back's
// first wait measured on the H100 (2026-11-25, copy_if keeping three fifths of 2^24 /
// 2^26 / 2^28 floats, us): 256 threads x 9 items, no wait 99 / 312 / 1184; 9 items,
// 1140 ns 83 / 257 / 928; 11 items, 1600 ns 76 / 232 / 856; 13 items, 1600 ns 81 / 231 /
// 850; 17 items, 1140 ns 80 / 244 / 872; 512 threads x 9, 1140 ns 83 / 237 / 864. Then
// CUB's sm_90 float tile, 384 x 17 (kernel times under ncu, base clocks, half of the
// floats kept, 2^24 / 2^26 / 2^28): 256 x 11 55 / 211 / 836 us, 384 x 11 54 / 202 /
// 802, 384 x 13 58 / 214 / 851, 384 x 17 53 / 201 / 786 (1150 ns first wait: the same),
// 128 x 23 104 / 412 / 1639 (CUB: 49 / 183 / 727). Those loaded directly; 384 x 17
// with the warp's loads transposed: 52 / 195 / 765.
struct select {
  static constexpr std::size_t block = 384; // threads a block
  static constexpr std::size_t items = 17;  // items a thread (a tile: block * items)
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = 1600;
};
// Elements above 8 bytes take 256-thread tiles, so that the stage of a tile of larger
// structures stays within a block's static shared memory as long as it did.
template <class T> struct select_for {
  static constexpr std::size_t block = sizeof(T) <= 8 ? select::block : 256; // threads a block
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = select::lookback_delay_ns;
  // select::items scaled by the element size.
  static constexpr std::size_t scaled = select::items * 4 / sizeof(T);
  // Items a thread.
  static constexpr std::size_t items =
      scaled <= 1 ? 1 : (scaled > select::items ? select::items : scaled) | 1;
};

// gpu::partition_copy and stable_partition_copy: the compaction with both parts staged
// (agent/select.hpp, Partition), in tiles of 384 x 11 for 4-byte elements instead of
// select's 17 items a thread. partition_copy of 2^24 / 2^26 / 2^28 floats, about half
// selected (H100, 2026-12-07, thrust_parity.cpp with policies, benchmarks/results/
// 2026-12-07-h100-stencil-groups/ab): 384 x 17 (select's) 105 / 347 / 1314 us, 256 x 17
// 102 / 334 / 1262, 128 x 17 102 / 339 / 1290, 512 x 17 143 / 503 / 1941, 256 x 23 115 /
// 383 / 1451, 384 x 25 126 / 435 / 1682, 384 x 11 88.7 / 290 / 1100 (CUB's
// DevicePartition::If 91.2 / 276 / 1014).
template <class T> struct partition_for : select_for<T> {
  // Items a thread: 11 for 4-byte elements, scaled by size (odd, as select_for's).
  static constexpr std::size_t items = scaled_items<T, 11, 4>::value | 1;
};

// Set operations (pacxx/agent/set_operations.hpp): one block per tile of block * items
// merged input elements (plus one, where a tile's end cut takes the b half of a pair),
// the tile in shared memory, which then stages the outputs. set_ops: 256 threads as the
// merge, 15 items for 4-byte elements (Thrust's sm_52 tuning; its sm_60+ one is 512 x
// 19), the first policy, still the default of set_ops_for; the operations themselves take
// set_ops_selective or set_ops_merging (below, measured). Items shrink for larger
// elements so that the tile stays near its 4-byte size; at least 2 (set_op_tile's bound
// on a thread's steps needs it). The look-back waits as select's. min_blocks: the pass's
// launch bound. Unbounded, ptxas (sm_90) gave the 256 x 15 pass 46-88 registers (int
// intersection 52, int union 69, u64 union 88: 2 blocks of 256 a multiprocessor);
// bounded to 4 blocks every one of the test's passes fits 64 registers with no spills.
struct set_ops {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 15;  // items a thread, for 4-byte elements
  static constexpr unsigned min_blocks = 4; // blocks a multiprocessor (the pass's bound)
};
// The operations whose result is at most a's elements (intersection, difference) take
// longer tiles, with a looser launch bound; those that merge both inputs into their result
// (union, symmetric difference) wider blocks, unbounded. Int sets of 2^24 / 2^26 / 2^28
// elements in all (H100, 2026-12-07, thrust_parity.cpp with policies, benchmarks/results/
// 2026-12-07-h100-stencil-groups/ab), us, block x items x min_blocks:
//                     256x15x4 (before)  256x23x2           384x15x0           512x19x0
//   set_intersection  108 / 339 / 1298   96.5 / 290 / 1080  104 / 321 / 1204   105 / 323 / 1195
//   set_union         125 / 402 / 1529   129 / 406 / 1522   123 / 388 / 1448   180 / 620 / 2372
// (also tried: 256x15x0, 512x15x2, 256x11x4, 128x15x8, none better; Thrust's
// set_intersection 116 / 310 / 981, set_union 137 / 366 / 1274). set_difference and
// set_symmetric_difference were not timed with these: they take the policy of the
// operation whose output they resemble.
// The policy of set_intersection and set_difference.
struct set_ops_selective {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 23;  // items a thread, for 4-byte elements
  static constexpr unsigned min_blocks = 2; // blocks a multiprocessor (the pass's bound)
};
// The policy of set_union and set_symmetric_difference.
struct set_ops_merging {
  static constexpr std::size_t block = 384; // threads a block
  static constexpr std::size_t items = 15;  // items a thread, for 4-byte elements
  static constexpr unsigned min_blocks = 0; // no launch bound
};
// The set operations' policy for elements of type T: Base's (set_ops_selective or
// set_ops_merging; set_ops for other callers) with items scaled by size.
template <class T, class Base = set_ops> struct set_ops_for {
  static constexpr std::size_t block = Base::block; // threads a block
  // Base::items scaled by the element size.
  static constexpr std::size_t scaled = scaled_items<T, Base::items, 4>::value;
  // Items a thread (at least 2).
  static constexpr std::size_t items = scaled < 2 ? 2 : scaled;
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = select::lookback_delay_ns;
  // Blocks a multiprocessor (the pass's launch bound).
  static constexpr unsigned min_blocks = Base::min_blocks;
};

// gpu::histogram_even: blocks stride over tiles of block * items samples (a thread's
// `items` loads in flight before it bins them); up to `shared_bins` bins each block
// counts in shared memory (4 bytes a bin) and adds its counts to the result once.
// Kernel times under ncu (H100, base clocks, 2026-11-25; the benchmark's uniform random
// floats, 256 bins) at 2^21 / 2^24 / 2^28: 8 items and 1024 blocks 15.4 / 33.3 / 379
// us, 16 / 528 10.6 / 31.5 / 387, 12 / 792 12.1 / 32.4 / 373, 16 / 792 10.6 / 31.7 /
// 379, 8 / 2048 15.5 / 40.2 / 375, 24 / 528 12.7 / 69.8 / 1017 (CUB's sweep kernel
// 9.8 / 28.6 / 358; both sides also run a 2.5 us kernel that zeroes the result). Fewer blocks pay
// below 2^25, where each block's flush of its bins into the result (bins global atomics a block) is
// a large part of the work.
// shared_min_blocks, shared_tiles_per_block: with shared-memory counts, a grid of more than
// shared_min_blocks blocks is cut so that each block counts at least shared_tiles_per_block
// tiles (never below shared_min_blocks, never above max_blocks). Every block's flush adds
// to the same `bins` counters, and atomics on one address are serialised in L2: at 2^21
// (512 tiles, a block each) 54 % of the kernel's stall samples were its warps waiting at
// exit for those atomics to drain (`drain`; CUB's sweep kernel, 342 blocks: none). Measured
// on the H100 (2026-11-27, ncu, unlocked clocks, 256 bins, skewed / uniform; benchmarks/
// results/2026-11-27-h100-histogram): 512 blocks 9.97 / 8.96 us, 264 blocks 8.02 / 7.78,
// 384 x 16 at 342 blocks 8.16 / 7.49, CUB 7.94 / 7.28. At 2^24 and above 264 blocks were
// 18-29 % slower than 528 (35.2 against 30.0 us at 2^24, 477 against 374 at 2^28), so
// large inputs keep max_blocks.
// shared_cut_min_bins: the grid is cut only for this many bins or more, where a one-tile
// block's flush is at least 1/64 of its samples. Same folder (call5), 2^21, 512 against 264:
// 16 bins 6.05 / 5.95 against 6.32 / 6.50 us (the flush is negligible, and the cut only
// halves the blocks); 4096 bins 10.83 / 23.09 against 11.62 / 15.42. The threshold between
// 16 and 256 is the geometric middle of the two measured ratios (1/256 and 1/16), not a
// measurement.
struct histogram {
  static constexpr std::size_t block = 256;             // threads a block
  static constexpr std::size_t items = 16;              // items a thread (a tile: block * items)
  static constexpr std::size_t max_blocks = 528;        // most blocks; they stride over the rest
  static constexpr std::size_t shared_bins = 4096;      // most bins counted in shared memory
  static constexpr std::size_t shared_min_blocks = 264; // the fewest blocks a cut grid keeps
  // Tiles a block counts at least where the grid is cut.
  static constexpr std::size_t shared_tiles_per_block = 2;
  static constexpr std::size_t shared_cut_min_bins = 64; // bins from which the grid is cut
};

// The onesweep radix sort (pacxx/agent/radix_sort.hpp). histogram: blocks stride over
// tiles of block * items keys, counting the digits of every pass in shared memory.
// radix_sort: one block per tile of block * items keys per digit pass; items scale down
// with the staged bytes per item (the larger of key and value: CUB's register-bound
// scaling), so that the stage stays within 32 KiB of shared memory.
// radix_histogram measured under ncu on the H100 (2026-11-26, the histogram launch of a
// u32 key sort, two machines, 2^24 / 2^26 / 2^28, us; benchmarks/results/
// 2026-11-26-h100-sort-tiles): 256 x 8 at 512 blocks 40.4-40.5 / 133.1-133.2 /
// 505.9-507.4, 512 x 8 at 528 36.4-37.7 / 125.2-125.3 / 476.5-477.2, 512 x 8 at 1056
// 38.7 / 125.0 / 471.1, 512 x 8 at 792 39.9 / 124.4 / 471.6, 256 x 8 at 1056 43.8 /
// 125.8 / 474.7, 1024 x 8 at 396 39.4 / 126.1 / 475.9, 512 x 12 at 528 38.2 / 128.5 /
// 479.9, 128 x 16 at 1584 (CUB's shape) 61.9 / 173.0 / 605.9; CUB's own kernel 44.4-44.8
// / 123.4-123.7 / 457.1-457.6. The kernel also clears the first pass's look-back words.
struct radix_histogram {
  static constexpr std::size_t block = 512;      // threads a block
  static constexpr std::size_t items = 8;        // items a thread (a tile: block * items)
  static constexpr std::size_t max_blocks = 528; // most blocks; they stride over the rest
};
// min_blocks: the blocks a multiprocessor should hold (pacxx::launch_bounds; 0: no
// bound). Measured on the H100 (2026-11-24, 2^24 / 2^28 random keys): 32-bit keys
// alone ran at 127 registers (2 blocks a multiprocessor) in 566 / 8238 us; bounded to
// 3 blocks (80 registers, about 100 bytes of spills) 506 / 7319 us; 16 items at 3
// blocks 526 / 7710, 12 items at 4 blocks 566 / 8252, 512 threads x 10 items 566 /
// 8348. With 32-bit values the bound did not pay (785 / 11776 us unbounded, 771 /
// 12214 at 3 blocks), and 64-bit keys use 72 registers unbounded.
// Measured again on 2026-11-25, after the pass stages its keys before the look-back and
// scatters with 32-bit offsets (2^24 / 2^28, CUB 620 / 8760 us for pairs, 480 / 6420
// for keys; ptxas, sm_90): pairs at 256 x 16 took 96 registers (2 blocks of 256 a
// multiprocessor), 775 / 11558 us; bounded to 3 blocks (80 registers, no spills) 718 /
// 11308; 384 x 16 bounded to 2 blocks (80 registers, no spills: 768 threads, as at 3
// x 256, but fewer and larger tiles) 643 / 9569; 384 x 18 at 2 blocks (48 bytes of
// spills) 660 / 10186. Keys alone stay at 256 x 20, 3 blocks (489 / 6928); 256 x 16
// at 3 blocks 513 / 7536, 384 x 16 at 2 blocks 515 / 7176.
// Again after the rank counted the digits before ranking them (CUB's early counts,
// pacxx/block/block_radix_rank.hpp): keys at 256 x 20 take 75 registers unbounded and
// 80 without spills at 3 blocks (before: 126, and 96 bytes of spills at 3 blocks). In
// two processes of each (u32 keys, 2^26 / 2^28, us): 256 x 20 at 3 blocks 1657-1658 /
// 6462-6468 (Thrust 6315-6441 at 2^28), 384 x 19 at 3 blocks (56 registers, 92 bytes of
// spills; Thrust's shape) 1573-1575 / 6293-6432 (Thrust 6189-6281)
// (benchmarks/results/2026-11-25-h100-early-counts/ab.md). 4-byte keys alone take 384
// x 19 since; over every size, u32 keys against CUB in the same process went from
// 1.11 / 1.19 / 1.05 / 1.00 / 0.99 / 0.99x at 2^20 / 2^22 / 2^24 / 2^26 / 2^27 / 2^28
// to 1.04 / 1.19 / 1.09 / 1.05 / 0.96 / 1.03x, f32 keys from 0.84x to 0.93x at 2^28
// (benchmarks/results/2026-11-25-h100-sort384/). But the 92 bytes of spills cost DRAM
// writes: ncu (2026-11-26, u32 at 2^26 / 2^27 / 2^28) showed each pass writing 1.6x its
// keys to DRAM, where CUB's wrote 1.04x, and u32 at 2^27 ran 7 % slower a key than at
// 2^26 or 2^28. 384 x 16 at 3 blocks spills 12 bytes (ptxas, sm_90); in two processes
// of each (u32, 2^26 / 2^27 / 2^28, us): 384 x 19 at 3 blocks 1573-1575 / 3376-3379 /
// 6163-6164, 384 x 16 at 3 blocks 1474-1475 / 2938-2939 / 5720-5721, 384 x 19 at 2
// blocks (80 registers, no spills) 1642-1643 / 3236 / 6399, 256 x 20 at 3 blocks 1665-
// 1672 / 3286-3287 / 6501; Thrust 1667-1690 / 3231-3291 / 6321-6337, CUB 1653-1654 /
// 3234-3259 / 6413-6417; f32 keys 0.5-1 % faster with 16 items than with 19
// (benchmarks/results/2026-11-26-h100-radix16/ab.md). 4-byte keys alone take 384 x 16
// since. The 64-bit look-back words of n >= 2^30 fit 16 items too (radix_pass_shared
// below).
struct radix_sort {
  static constexpr std::size_t keys_block = 256; // threads a block, keys alone
  static constexpr std::size_t keys_items = 20;  // items a thread, keys alone
  // 4-byte keys alone: Thrust's block (CUB's sm_90 onesweep policy with 64-bit offsets),
  // 16 items rather than its 19: fewer registers spilled.
  static constexpr std::size_t keys32_block = 384; // threads a block, 4-byte keys alone
  static constexpr std::size_t keys32_items = 16;  // items a thread, 4-byte keys alone
  static constexpr unsigned keys32_min_blocks = 3; // launch bound, 4-byte keys alone
  static constexpr std::size_t pairs_block = 256;  // threads a block, keys with values
  static constexpr std::size_t pairs_items = 16;   // items a thread, keys with values
  // 4-byte keys with 4-byte values (the measured pairs; other sizes keep 256 threads
  // and no bound, as before the measurement). Measured again on 2026-11-26 (u32 pairs,
  // one process per shape, 2^26 / 2^27 / 2^28, us; ptxas sm_90 registers, spills):
  // 384 x 16 at 2 blocks (80, none) 2383-2393 / 4773-4779 / 9579-9595, 384 x 17 at 2
  // (80, none) 2357 / 4741 / 9524, 384 x 18 at 2 (80, 4 bytes) 2346 / 4737 / 9507,
  // 384 x 19 at 2 (80, 4 bytes) 2354 / 4744 / 9513, CUB 2248 / 4714 / 9077; in a second
  // call 384 x 14 at 3 (56, none) 2841-2861 / 5699-5723 / 11403-11405, 256 x 16 at 4
  // (64, none) 3166-3167 / 6389-6391 / 12731-12741, 256 x 20 at 3 (80, none) 2862-2863 /
  // 5754-5768 / 11500-11513, 512 x 12 at 2 (64, none) 2462-2465 / 4906-4926 / 9845-9868
  // against 384 x 16 at 2 2382-2387 / 4771-4778 / 9584-9591
  // (benchmarks/results/2026-11-26-h100-pairs17/ab.md). 17: the fastest without spills.
  // Threads a block, 4-byte keys with 4-byte values.
  static constexpr std::size_t pairs32_block = 384;
  static constexpr std::size_t pairs32_items = 17; // items a thread, 4-byte keys with 4-byte values
  static constexpr unsigned pairs32_min_blocks = 2; // launch bound, 4-byte keys with 4-byte values
  // Larger values are not moved through the passes: the keys are sorted with their
  // indices, and the values gathered once after (pacxx/algorithm/radix_sort.hpp), so
  // that the stage of a pass stays within shared memory whatever the value's size.
  static constexpr std::size_t max_value_bytes = 64;
};
// The static shared memory of an onesweep pass (pacxx/agent/radix_sort.hpp), in bytes:
// the stage (a tile of the larger of key and value, at least 4 bytes: the rank's digit
// posts on OpenCL), the rank's counters (256 for each warp of 32), the block scan of the
// digit offsets (16 bytes a thread) and the digit offsets (one look-back word each).
// ptxas, sm_90: 48656 bytes for 384 x 19 with 32-bit words, 49680 with 64-bit words.
constexpr std::size_t radix_pass_shared(std::size_t block, std::size_t items,
                                        std::size_t item_bytes, std::size_t word_bytes) {
  return block * items * item_bytes + block / 32 * 256 * 4 + block * 16 + 256 * word_bytes;
}
// What a kernel may declare statically (CUDA: 48 KiB), less room for the few words the
// pass declares besides.
constexpr std::size_t radix_pass_shared_limit = 48 * 1024 - 256;

// WordBytes: the look-back word (4 bytes below 2^30 keys, 8 above).
template <std::size_t KeyBytes, std::size_t ValueBytes, std::size_t WordBytes = 4>
struct radix_sort_for {
  static_assert(ValueBytes <= radix_sort::max_value_bytes,
                "radix_sort_for: larger values are sorted by index (radix_sort.hpp)");
  static constexpr bool keys32 = KeyBytes == 4 && ValueBytes == 0; // 4-byte keys alone
  // 4-byte keys with 4-byte values.
  static constexpr bool pairs32 = KeyBytes == 4 && ValueBytes == 4;
  // Threads a block.
  static constexpr std::size_t block =
      keys32 ? radix_sort::keys32_block
             : (ValueBytes == 0 ? radix_sort::keys_block
                                : (pairs32 ? radix_sort::pairs32_block : radix_sort::pairs_block));
  // The larger of key and value, bytes.
  static constexpr std::size_t bytes = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  // Bytes a staged item takes (at least 4).
  static constexpr std::size_t slot = bytes > 4 ? bytes : 4;
  // The policy's items before scaling.
  static constexpr std::size_t nominal =
      keys32 ? radix_sort::keys32_items
             : (ValueBytes == 0 ? radix_sort::keys_items
                                : (pairs32 ? radix_sort::pairs32_items : radix_sort::pairs_items));
  // At most the nominal items (keys below 4 bytes: more would spill registers), a stage
  // of at most 32 KiB, and the pass within the shared memory a kernel may declare.
  static constexpr std::size_t scaled =
      nominal * 4 / bytes > nominal ? nominal : nominal * 4 / bytes;
  // Most items for a stage of 32 KiB.
  static constexpr std::size_t most = 32 * 1024 / (block * slot);
  // Most items within the static shared-memory limit.
  static constexpr std::size_t fit =
      (radix_pass_shared_limit - radix_pass_shared(block, 0, slot, WordBytes)) / (block * slot);
  static constexpr std::size_t bounded = scaled > most ? most : scaled; // scaled, at most `most`
  // Items a thread (a tile: block * items).
  static constexpr std::size_t items = bounded < 1 ? 1 : (bounded > fit ? fit : bounded);
  static_assert(radix_pass_shared(block, items, slot, WordBytes) <= radix_pass_shared_limit,
                "radix_sort_for: the pass's shared memory is over the static limit");
  // Launch bound: blocks a multiprocessor should hold (0: none).
  static constexpr unsigned min_blocks =
      keys32 ? radix_sort::keys32_min_blocks : (pairs32 ? radix_sort::pairs32_min_blocks : 0);
};

// Merge path merges (pacxx/agent/merge.hpp): one block per tile of block * items
// outputs, the tile's inputs in shared memory; items scale down with the value's size
// so that the tile stays near 16 KiB. Measured on the H100 (2026-11-25, merge of two
// halves of 2^24 / 2^28 u32, us, after the branch-free serial merge): 256 x 8 86 / 1017,
// 256 x 11 86 / 1013, 256 x 15 90 / 1034, 512 x 11 90 / 1034.
struct merge {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 8;   // items a thread (a tile: block * items)
};
// The merge policy for values of type T: merge's, its items scaled by the value's size.
template <class T> struct merge_for {
  static constexpr std::size_t block = merge::block; // threads a block
  // Items a thread, scaled by the value's size.
  static constexpr std::size_t items = scaled_items<T, merge::items, 8>::value;
};

// The merge sort (pacxx/agent/merge_sort.hpp): tiles of sort_block * items elements
// sorted in a block, then merged pass by pass with merge tiles of block * items
// outputs. A larger sorted tile leaves fewer global passes (each moves the whole array
// twice); the block sort's extra round in shared memory costs less than a pass.
// Measured on the H100 (2026-11-25, benchmarks/sort, 12-byte items with a comparator,
// 2^24 / 2^26 / 2^28, us): sort_block 256 2823 / 11771 / 52863, 512 2788 / 11668 /
// 52512 (Thrust's stable_sort in the same process 2877 / 11807 / 53162).
//
// merge_min_blocks: the merge kernels that should fit a multiprocessor (launch bounds)
// where the items a thread holds are at most merge_bound_words 32-bit words. The
// merge of 12-byte items (5 a thread) took 54 registers, so 4 blocks of 256 fitted a
// multiprocessor (ncu on the H100, 2026-11-26, 2^24: 48 % of the warps active, DRAM
// 81 %, 146 us a pass against CUB's DeviceMergeSort at 32 registers, 96 % and 138 us).
// Bounded to 6 blocks it takes 40 registers and spills nothing (ptxas, sm_90), and the
// comparator sort of 12-byte items went from 52.5 to 50.3 ms at 2^28 (11.67 to 11.16
// at 2^26; benchmarks/results/2026-11-26-h100-merge-bounds). Bounded to 8 blocks (32
// registers, with the block sort at 3) it spilled 36 bytes and took 67.8 ms. Where the
// items are 16 words (8-byte keys at 8 items, 16-byte structs at 4) the bound to 6
// blocks spills 24-28 bytes, and 64-bit keys with a comparator were 2-3 % slower at
// 2^24-2^26; 8- and 16-byte elements take fewer items instead (items_8_bytes,
// items_16_bytes).
//
// items_8_bytes: 8-byte elements (64-bit keys, pairs of 32-bit fields) take 6 items,
// 12 words, so the merge kernel is bounded too (39 registers, no spills). 64-bit keys
// with a comparator, 2^24 / 2^26 / 2^28, ms (H100, 2026-11-26, one process each, Thrust
// 1.97 / 8.04 / 34.6 and CUB 1.83 / 7.66 / 33.6 in another): 8 items 2.07 / 8.51 / 36.9,
// 8 bounded to 5 blocks (48 registers) 2.04 / 8.35 / 36.1, 7 (bounded to 6, 40
// registers, odd: no padding) 1.98 / 8.24 / 36.1, 6 1.85 / 7.60 / 33.5. Fewer items for
// 12-byte items lose more than they gain: 4 items (a smaller tile, one more pass at
// most sizes) took 2.88 / 12.07 / 55.2 against 5 items' 2.68 / 11.15 / 50.3
// (benchmarks/results/2026-11-26-h100-min-element-u64-sort/ab).
//
// items_16_bytes: 16-byte structs take 3 items (12 words, so the merge kernel is bounded
// too: 36 registers). With the tiles' 128-bit shared accesses (agent/merge.hpp,
// item_tile) 3 items are free of bank conflicts where 4 are 4-way (ncu at 2^24: block
// sort 1.33 -> 1.06 ms, merge pass 242 -> 226 us); sort_points, 2^24 / 2^26 / 2^28, ms
// (H100, 2026-11-26, benchmarks/results/2026-11-26-h100-wide-shared): 4 items 4.84 /
// 20.53 / 91.9, 3 items 4.64 / 19.79 / 89.4 (CUB 4.95 / 21.25 / 94.5, Thrust 5.13 /
// 21.69 / 96.0, same machine).
//
// The block sort (512 threads) is not bounded: at 3 blocks it spilled 16-68
// bytes for every type tried (12-byte items: 49.5 ms at 2^28, 1.5 % better than
// unbounded; the other types were not measured).
struct merge_sort {
  static constexpr std::size_t block = 256;        // threads a block
  static constexpr std::size_t sort_block = 512;   // threads of the block sort
  static constexpr std::size_t items = 8;          // items a thread (a tile: block * items)
  static constexpr std::size_t items_8_bytes = 6;  // items a thread, 8-byte elements
  static constexpr std::size_t items_16_bytes = 3; // items a thread, 16-byte elements
  static constexpr unsigned merge_min_blocks = 6;  // launch bound of the merge kernels
  // Most 32-bit words a thread holds for that bound.
  static constexpr std::size_t merge_bound_words = 15;
};
// The merge sort policy for elements of type T: merge_sort's, with the items for T's size
// and the merge kernels' launch bound where it applies.
template <class T> struct merge_sort_for {
  static constexpr std::size_t block = merge_sort::block; // threads a block
  // Items a thread for T's size.
  static constexpr std::size_t items = sizeof(T) == 8 ? merge_sort::items_8_bytes
                                       : sizeof(T) == 16
                                           ? merge_sort::items_16_bytes
                                           : scaled_items<T, merge_sort::items, 8>::value;
  // Launch bound: blocks a multiprocessor should hold (0: none).
  static constexpr unsigned min_blocks =
      items * ((sizeof(T) + 3) / 4) <= merge_sort::merge_bound_words ? merge_sort::merge_min_blocks
                                                                     : 0;
  // The block sort's policy: the same items, sort_block threads (no launch bound).
  struct block_sort {
    static constexpr std::size_t block = merge_sort::sort_block; // threads a block
    // Items a thread (a tile: block * items).
    static constexpr std::size_t items = merge_sort_for::items;
  };
};

// gpu::reduce_rows / reduce_columns / reduce_axis (pacxx/algorithm/reduce_axis.hpp).
// Along the contiguous axis as segmented_reduce (a warp per output below
// block_min_length, a block of `block` above); across it, blocks of block_x outputs x
// block_y threads along the folded axis, the folded axis split into chunks of at least
// min_chunk elements until there are min_blocks blocks (8 per multiprocessor of an H100).
// Across, on the H200 (2026-11-28, shapes.cpp colsum, 2048^2 / 4096^2 / 8192^2 floats):
// 32 x 8 took 19.0 / 36.4 / 90.9 us, 64 x 4 21.5 / 38.9 / 97.1, 128 x 2 21 / 35.4 / 102,
// 256 x 1 22.0 / 43.0 / 81.0 (the copy of twice the bytes: 14.6 / 42.5 / 136). Wide blocks
// pay only at the largest size: from wide_min_outputs outputs the fold takes
// reduce_axis_wide's blocks.
struct reduce_axis {
  static constexpr std::size_t block = 256; // threads a block
  // Lengths from which a block, not a warp, folds an output.
  static constexpr std::size_t block_min_length = 2048;
  static constexpr std::size_t block_x = 32; // threads a block along x (a warp: 32 consecutive x)
  static constexpr std::size_t block_y = 8;  // threads a block along y
  // Launch bound: blocks a multiprocessor should hold (0: none).
  static constexpr std::size_t min_blocks = 1056;
  static constexpr std::size_t min_chunk = 64;     // fewest elements of a chunk of the folded axis
  static constexpr std::size_t max_chunks = 65535; // most chunks of the folded axis
  // Outputs (across) from which the blocks are reduce_axis_wide's.
  static constexpr std::size_t wide_min_outputs = 8192;
};
// reduce_axis with blocks of 256 x 1 threads: a warp's neighbours in the block
// read the next 128 bytes of the same row, not the same columns of the next rows.
template <class P> struct reduce_axis_wide : P {
  static constexpr std::size_t block_x = 256; // threads a block along x
  static constexpr std::size_t block_y = 1;   // threads a block along y
};

// gpu::transpose: tiles of tile x tile elements through shared memory, blocks of tile x
// block_y threads (each thread tile / block_y elements), as the CUDA samples' transpose.
// On the H200 (2026-11-28, shapes.cpp, 2048^2 / 4096^2 / 8192^2 floats): block_y 4 took
// 15.0 / 47.2 / 160 us, 8 15.8 / 50.5 / 171, 16 18 / 58 / 200; tiles of 64 with block_y 8
// 15.5 / 49.3 / 163, with 16 19 / 68 / 235 (the copy: 14.6 / 42.5 / 136).
struct transpose {
  static constexpr std::size_t tile = 32;   // tile side, elements
  static constexpr std::size_t block_y = 4; // threads a block along y
  // Most blocks along y and z (CUDA's limit; grids stride beyond).
  static constexpr std::size_t max_blocks_yz = 65535;
};

// gpu::segmented_inclusive_scan / segmented_exclusive_scan (pacxx/algorithm/
// segmented_scan.hpp): the single-pass scan's tile for the values' type T itself (128
// threads x 24 items for 4-byte values), not for the (value, head) pairs that go through
// the look-back: the values alone pass through the tile's exchange, the heads are bytes
// of shared memory. Not yet measured for the segmented scan; scan_for's numbers.
template <class T, bool Ordered = false> struct segmented_scan : scan_for<T, Ordered> {};

// gpu::segmented_reduce (pacxx/algorithm/segmented_reduce.hpp): a warp per segment (its
// lanes striding over it) below `split_min_mean` elements per segment on average; from
// there blocks of `block` threads take tiles of whole rounds (block x split_items
// elements, all loaded before they are folded), about split_tiles of them, and a segment
// is split over the tiles it covers. The warp path on the H200, 2^26 floats, against
// CUB's DeviceSegmentedReduce (2026-11-27): segments of 100 1247 GB/s (CUB 326), 1000
// 2419 (1664) (benchmarks/results/2026-11-27-h200-segmented).
// The tiles' shape, measured on the H100 (2026-12-07, segmented.cpp with policy variants,
// us at 2^20 / 2^22 / 2^24 / 2^26 floats; CUB 16.2 / 17.4 / 38.6 / 102 for segments of
// 100000, 23.3 / 27.7 / 60.2 / 124 mixed):
//   tiles   items  launch bound  segments of 100000       mixed
//   4096    8      8 blocks      19.4 / 26.4 / 43.1 / 123  30.0 / 31.0 / 59.6 / 132
//   4096    8      none          18.4 / 25.3 / 44.7 / 110  26.1 / 30.8 / 59.8 / 125
//   2112    8      none          17.9 / 25.1 / 42.7 / 109  25.8 / 30.4 / 57.7 / 128
//   1056    8      8 blocks      17.9 / 20.3 / 42.9 / 114  25.7 / 27.0 / 60.3 / 140
//   1056    8      none          17.7 / 20.2 / 43.4 / 116  25.7 / 26.8 / 59.1 / 148
//   1056    16     none          16.8 / 20.7 / 42.0 / 111  24.2 / 28.9 / 61.1 / 147
//   8192    8      none          17.8 / 26.5 / 55.0 / 111  26.3 / 30.3 / 72.6 / 128
//   528     16     none          20.3 / 20.4 / 42.1 / 109  24.3 / 34.5 / 62.3 / 141
// The launch bound cost registers (spills) and gained nothing. Many tiles suit mixed
// lengths at 2^26 (a tile of short segments takes longer than one of a long one); few
// suit small inputs, where a tile of one round is mostly its start (the search for its
// segment): 1056 tiles at 2^22 are tiles of 2 rounds. So about 2112 tiles, each at least
// split_min_rounds rounds.
struct segmented_reduce {
  static constexpr std::size_t block = 256; // threads a block
  // gpu::scatter_reduce's fold of sorted runs: a block, not a warp, a run from this mean
  // run length (pacxx/algorithm/scatter_reduce.hpp).
  static constexpr std::size_t block_min_mean = 2048;
  // Mean segment length from which blocks fold tiles (below: a warp a segment). Where
  // the old block-a-segment path started. Tiles are slower on short segments (several
  // pieces a tile, a block_reduce each): every segment forced onto tiles took 232 against
  // 121 us at segments of 1000 and 1393 against 201 at 100 (H100, 2^26 floats,
  // benchmarks/results/2026-11-28-h100-segmented-select, segsum*_pacxxtiles).
  static constexpr std::size_t split_min_mean = 2048;
  static constexpr std::size_t split_items = 8;      // loads in flight a thread (a round)
  static constexpr std::size_t split_tiles = 2112;   // about this many tiles (blocks) a call
  static constexpr std::size_t split_min_rounds = 2; // rounds a tile at least
  // Launch bound of the tiles' kernel: blocks a multiprocessor should hold (0: none).
  static constexpr std::size_t split_min_blocks = 0;
  // The second pass after tiles: a warp a segment up to this many segments (about one
  // wave of blocks of 8 warps on an H100), the lanes folding the segment's parts (the
  // tiles it touches); above, a thread a segment.
  static constexpr std::size_t finish_by_warp_max = 8192;
  // With a thread a segment, a segment of more parts than this is folded by its warp.
  static constexpr std::size_t finish_alone = 32;
};

// gpu::gemm / gpu::gemm_batched (pacxx/algorithm/gemm.hpp), CUTLASS's SIMT structure:
// a block of 256 threads computes a block_m x block_n tile of C, walking k in steps of
// block_k through double-buffered shared-memory tiles of A and B (pacxx/block/tile.hpp);
// each thread holds a thread_m x thread_n micro-tile of C in registers, read from shared
// memory in groups of 4 consecutive rows and columns (vector loads), the groups
// block_m / (thread_m / 4) apart. A warp's 32 threads cover 4 x 8 of the 16 x 16 thread
// grid, so its shared-memory reads of A and B are 64 and 128 consecutive bytes.
// `large` where C is at least one large tile in both extents and the problem has at
// least large_min_tiles of them (about one per multiprocessor of an H100: fewer leave
// multiprocessors idle), `small` otherwise. min_blocks (min_blocks_8_bytes for doubles):
// the launch bound (blocks a multiprocessor should hold; 0: none). With 2, ptxas fits
// the large float kernel in 128 registers (149 without, one block of 8 warps a
// multiprocessor). Doubles take large_8_bytes: on the H100 their DMMA kernel (mma_f64)
// at 128 x 128 holds one block of 228 registers a thread a multiprocessor and ran at
// 22.3 TFLOP/s at 4096^3, 128 x 64 x 16 at 27.0, the fastest of the tuning space there
// and at 2048 (2026-11-28, PACXX_TUNE=explore). The tuning space (tuning::gemm) holds
// the other shapes.
struct gemm {
  // The tile for large problems.
  struct large {
    // The block's tile of C (block_m x block_n) and its step along k.
    // @{
    static constexpr std::size_t block_m = 128, block_n = 128, block_k = 8;
    // @}
    // The micro-tile of C a thread holds (thread_m x thread_n).
    // @{
    static constexpr std::size_t thread_m = 8, thread_n = 8;
    // @}
    // Launch bounds for float and for double (0: none).
    // @{
    static constexpr unsigned min_blocks = 2, min_blocks_8_bytes = 0;
    // @}
  };
  // The tile for large problems of 8-byte elements (doubles).
  struct large_8_bytes {
    // The block's tile of C (block_m x block_n) and its step along k.
    // @{
    static constexpr std::size_t block_m = 128, block_n = 64, block_k = 16;
    // @}
    // The micro-tile of C a thread holds (thread_m x thread_n).
    // @{
    static constexpr std::size_t thread_m = 8, thread_n = 8;
    // @}
    // Launch bounds for float and for double (0: none).
    // @{
    static constexpr unsigned min_blocks = 0, min_blocks_8_bytes = 0;
    // @}
  };
  // The tile for small problems.
  struct small {
    // The block's tile of C (block_m x block_n) and its step along k.
    // @{
    static constexpr std::size_t block_m = 64, block_n = 64, block_k = 8;
    // @}
    // The micro-tile of C a thread holds (thread_m x thread_n).
    // @{
    static constexpr std::size_t thread_m = 4, thread_n = 4;
    // @}
    // Launch bounds for float and for double (0: none).
    // @{
    static constexpr unsigned min_blocks = 0, min_blocks_8_bytes = 2;
    // @}
  };
  // Large tiles a problem needs for the large tile.
  static constexpr std::size_t large_min_tiles = 132;
};

// gpu::gemv: `block` threads a block. A row-major A takes a warp per row (its lanes
// striding along the row, coalesced; a work-item per row where a warp is one), each
// lane with `items` loads in flight; a column-major (transposed) A a thread per row
// (consecutive rows are consecutive addresses there). Not measured yet.
struct gemv {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 4;   // items a thread (a tile: block * items)
};

// gpu::pairwise_reduce: blocks of `block` threads, a thread per outer element, inner
// staged in tiles of `block` elements (the CUDA SDK N-body's 256); the fold over a full
// tile unrolled `unroll` times. Not yet measured on a GPU (benchmarks/nbody.cpp).
struct pairwise_reduce {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr unsigned unroll = 8;     // unrolling of the fold over a full tile
};

// gpu::top_k's radix select (pacxx/algorithm/selection.hpp, radix_select): the second
// digit's pass compacts the keys that share the first digit into a scratch of
// n / divisor keys, which the later passes read instead of the whole input; more
// candidates than that (e.g. uniform floats in [0, 1) put 1/8 of them in the top digit
// of the largest, doubles there up to 3/4) fall back to reading the input whole.
// Not yet measured on the GPU.
// The select's histogram kernel (select_histogram) holds a tile's 16 keys and bins in
// registers; its grid is policy::histogram::max_blocks (528: 4 blocks on each of the
// H100's 132 multiprocessors), so its launch bounds ask for 4 blocks a multiprocessor
// (at most 64 registers; without bounds the copying and compacting kinds took 70-110).
struct select_candidates {
  static constexpr std::size_t divisor = 4; // scratch: n / divisor keys
  static constexpr unsigned min_blocks = 4; // blocks a multiprocessor (launch bounds)
  // The same for 8-byte keys: 4 spilled 56-184 bytes (80-118 registers without spills).
  static constexpr unsigned min_blocks_wide = 2;
};

// gpu::nth_element's move of each element to its part (partition_around in
// pacxx/algorithm/selection.hpp): tiles of block * items, the items of a thread a
// block-width apart.
// The kernel that moved all three parts with 16 items a thread (56 registers) took 517 us
// for 2^26 floats on the H200 (ncu, base clocks: 49% occupancy, 1 TB/s of DRAM, L1 19%,
// L2 30%: latency-bound). Now 8 items a thread and launch bounds for 8 blocks of 256 on
// a multiprocessor (at most 32 registers: full occupancy). Not yet measured on the GPU.
struct partition_around {
  static constexpr std::size_t block = 256; // threads a block
  static constexpr std::size_t items = 8;   // items a thread
  static constexpr unsigned min_blocks = 8; // blocks a multiprocessor (launch bounds)
  // The same for 8-byte keys (48 registers without bounds; 32 spilled 50-124 bytes).
  static constexpr unsigned min_blocks_wide = 5;
};

// gpu::segmented_sort / segmented_sort_by_key: segments of at most small_tile elements
// are sorted by a block of small_block threads each in shared memory (a bitonic sort of
// (key, position) pairs, so stable), those up to medium_tile by medium_block threads,
// those up to large_tile by large_block threads (tiles are powers of two, block x items);
// longer ones (and those of tiles too large for the shared memory) by the long path (see
// segmented_sort.hpp). The long path's tiles (256 x 16) took 1827 us for 2^26 keys in
// segments of 100000, CUB 2945 (H200, benchmarks/results/2026-11-28-h200-segsort-topk);
// the block tiles are not yet measured against others.
struct segmented_sort {
  // Segments of at most warp_items * 32 elements (warp_items on OpenCL, whose warps are
  // one work-item), or twice that where a key and its value take at most
  // warp_items_max_bytes, are sorted in registers by groups of a warp's lanes, blocks of
  // warp_block threads (sort_segments_by_warp).
  static constexpr std::size_t warp_items = 8;            // items a lane
  static constexpr std::size_t warp_items_max_bytes = 16; // key and value, for 2 * warp_items
  static constexpr std::size_t warp_block = 256;          // threads a block
  static constexpr std::size_t small_block = 32;          // threads a block for the small tile
  static constexpr std::size_t small_tile = 128;          // longest segment of the small tile
  static constexpr std::size_t medium_block = 128;        // threads a block for the medium tile
  static constexpr std::size_t medium_tile = 512;         // longest segment of the medium tile
  static constexpr std::size_t large_block = 256;         // threads a block for the large tile
  static constexpr std::size_t large_tile = 2048;         // longest segment of the large tile
  // CUDA's static shared memory of a block: tiles of keys, positions and values that
  // would take more are not used.
  static constexpr std::size_t max_shared_bytes = 48 * 1024;
  // Segments longer than the largest block tile (radix keys with std::less /
  // std::greater): a radix sort whose passes scatter within each segment, tiles of
  // long_block threads x long_items items (fewer items where the staged tile of keys or
  // values would take more than long_stage_bytes of shared memory).
  static constexpr std::size_t long_block = 256;             // threads a block
  static constexpr std::size_t long_items = 16;              // items a thread at most
  static constexpr std::size_t long_stage_bytes = 32 * 1024; // most staged bytes of a tile
};

// Run-time tuning (pacxx/tune.hpp, docs/tuning.md): the spaces that PACXX_TUNE=explore
// searches. Each space's first candidate is the built-in policy above (what PACXX_TUNE=0
// and an empty store use); the others vary the threads a block, the items a thread and
// the grid, since the best of them differs by device: the H100's choices above give a
// CPU (PoCL) hundreds of small work-groups. Every candidate computes the same results;
// only the order of a floating-point fold may differ (integers: bitwise identical).
namespace tuning {

/// gpu::reduce's candidates: block threads, items a thread, at most max_blocks blocks.
template <std::size_t Block, std::size_t Items, std::size_t MaxBlocks> struct reduce_point {
  // The candidate's threads a block, items a thread and most blocks.
  // @{
  static constexpr std::size_t block = Block, items = Items, max_blocks = MaxBlocks;
  // @}
  // The candidate's parameters for the tuning store ("block=256 items=8").
  static std::string describe() {
    return tune::describe_values("block items max_blocks", {Block, Items, MaxBlocks});
  }
};
/// The space of gpu::reduce (and transform_reduce, inner_product, count_if). The last
/// is CPU-shaped: few wide work-groups, each thread a long contiguous run where a warp is
/// one lane (agent/reduce.hpp). PoCL, 2 cores, ints, 2026-12-07 (us, 2^20 / 2^22 / 2^24,
/// fastest of 7): the built-in 1381 / 2321 / 3758, 256 x 16 x 32 395 / 379 / 2166,
/// 64 x 32 x 64 263 / 427 / 2093, 128 x 64 x 4 147 / 223 / 1751, 1024 x 16 x 16 (the
/// slowest on PoCL before, 2026-11-27) replaced by it. With striped tiles on the one-lane
/// path (as on the GPU) the built-in took 1062 / 2228 / 11560 and 128 x 64 x 4 668 / 3604
/// / 21985: PoCL runs a work-group's work-items one after the other, so each cache line
/// was read once a work-item.
using reduce = tune::space<policy::reduce, reduce_point<256, 16, 32>, reduce_point<64, 32, 64>,
                           reduce_point<128, 64, 4>>;

/// The scans' candidates: as scan_for<T, Ordered>, with other threads and items.
template <class T, bool Ordered, std::size_t Block, std::size_t Items> struct scan_point {
  static constexpr std::size_t block = Block; // threads a block
  // Items a thread, scaled by the value's size.
  static constexpr std::size_t items = scaled_items<T, Items, 4>::value;
  // The look-back's wait before its first poll, ns.
  static constexpr unsigned lookback_delay_ns = scan::lookback_delay_ns;
  static constexpr bool ordered = Ordered; // whether the scan is the deterministic one
  // Windows a deterministic look-back reads per poll.
  static constexpr unsigned ordered_windows = scan::ordered_windows;
  // The candidate's parameters for the tuning store ("block=256 items=8").
  static std::string describe() { return tune::describe_values("block items", {Block, items}); }
};
/// The scans' CPU-shaped candidate: `runs` blocks of Block threads, each block a
/// contiguous run of the input, each thread a contiguous run of its block's, scanned in
/// three steps (pacxx/agent/scan_runs.hpp) instead of the single pass.
template <std::size_t Block, std::size_t Runs> struct scan_runs_point {
  static constexpr std::size_t block = Block; // threads a block
  static constexpr std::size_t runs = Runs;   // blocks (contiguous runs of the input)
  // Explored only where a warp is one lane (tune.hpp): on a GPU, Runs x Block threads
  // would each walk 1 / (Runs x Block) of the input one load at a time.
  static constexpr bool one_lane_only = true;
  // The candidate's parameters for the tuning store ("runs=16 block=64").
  static std::string describe() { return tune::describe_values("runs block", {Runs, Block}); }
};
/// The space of gpu::inclusive_scan and exclusive_scan. The deterministic scans leave
/// the runs out: their out[i] must not depend on the input's length, and the runs'
/// bounds do.
template <class T, bool Ordered>
using scan_space = typename std::conditional<
    Ordered,
    tune::space<scan_for<T, Ordered>, scan_point<T, Ordered, 256, 16>,
                scan_point<T, Ordered, 64, 32>, scan_point<T, Ordered, 512, 8>>,
    tune::space<scan_for<T, Ordered>, scan_point<T, Ordered, 256, 16>,
                scan_point<T, Ordered, 64, 32>, scan_point<T, Ordered, 512, 8>,
                scan_runs_point<128, 8>, scan_runs_point<64, 64>>>::type;

/// The onesweep passes' candidates: as radix_sort_for, with other threads and items
/// (scaled and bounded by shared memory as there) and no launch bound. Block: at least
/// 256 threads (the rank gives each digit a thread).
template <std::size_t KeyBytes, std::size_t ValueBytes, std::size_t WordBytes, std::size_t Block,
          std::size_t Items>
struct radix_point {
  static constexpr std::size_t block = Block; // threads a block
  // The larger of key and value, bytes.
  static constexpr std::size_t bytes = KeyBytes > ValueBytes ? KeyBytes : ValueBytes;
  // Bytes a staged item takes (at least 4).
  static constexpr std::size_t slot = bytes > 4 ? bytes : 4;
  // Items scaled down by the item bytes.
  static constexpr std::size_t scaled = Items * 4 / bytes > Items ? Items : Items * 4 / bytes;
  // Most items for a stage of 32 KiB.
  static constexpr std::size_t most = 32 * 1024 / (block * slot);
  // Most items within the static shared-memory limit.
  static constexpr std::size_t fit =
      (radix_pass_shared_limit - radix_pass_shared(block, 0, slot, WordBytes)) / (block * slot);
  static constexpr std::size_t bounded = scaled > most ? most : scaled; // scaled, at most `most`
  // Items a thread (a tile: block * items).
  static constexpr std::size_t items = bounded < 1 ? 1 : (bounded > fit ? fit : bounded);
  static_assert(radix_pass_shared(block, items, slot, WordBytes) <= radix_pass_shared_limit,
                "radix_point: the pass's shared memory is over the static limit");
  // Launch bound: blocks a multiprocessor should hold (0: none).
  static constexpr unsigned min_blocks = 0;
  // The candidate's parameters for the tuning store ("block=256 items=8").
  static std::string describe() { return tune::describe_values("block items", {Block, items}); }
};
/// The radix sorts' CPU-shaped candidate: Runs one-thread blocks, each a contiguous run
/// of the keys, counting and scattering its keys in order (pacxx/agent/radix_runs.hpp)
/// instead of the onesweep passes.
template <std::size_t Runs> struct radix_runs_point {
  static constexpr std::size_t runs = Runs; // blocks of one thread, one run each
  // Explored only where a warp is one lane (tune.hpp): on a GPU Runs threads would sort
  // the whole input.
  static constexpr bool one_lane_only = true;
  // The candidate's parameters for the tuning store ("runs=16").
  static std::string describe() { return tune::describe_values("runs", {Runs}); }
};
/// The space of the radix sorts' digit passes.
template <std::size_t KeyBytes, std::size_t ValueBytes, std::size_t WordBytes>
using radix_space = tune::space<radix_sort_for<KeyBytes, ValueBytes, WordBytes>,
                                radix_point<KeyBytes, ValueBytes, WordBytes, 256, 8>,
                                radix_point<KeyBytes, ValueBytes, WordBytes, 256, 24>,
                                radix_point<KeyBytes, ValueBytes, WordBytes, 512, 8>,
                                radix_runs_point<16>, radix_runs_point<64>>;

/// gpu::histogram_even's candidates: histogram's, with other threads, items and grid.
template <std::size_t Block, std::size_t Items, std::size_t MaxBlocks>
struct histogram_point : policy::histogram {
  // The candidate's threads a block, items a thread and most blocks.
  // @{
  static constexpr std::size_t block = Block, items = Items, max_blocks = MaxBlocks;
  // @}
  // The fewest blocks a cut grid keeps.
  static constexpr std::size_t shared_min_blocks = MaxBlocks / 2;
  // The candidate's parameters for the tuning store ("block=256 items=8").
  static std::string describe() {
    return tune::describe_values("block items max_blocks", {Block, Items, MaxBlocks});
  }
};
/// The space of gpu::histogram_even.
using histogram = tune::space<policy::histogram, histogram_point<256, 8, 64>,
                              histogram_point<128, 16, 128>, histogram_point<512, 16, 264>>;

/// gpu::gemm's candidates: one tile for every shape (block_m x block_n x block_k,
/// thread_m x thread_n results a thread), instead of gemm's large and small.
template <std::size_t BM, std::size_t BN, std::size_t BK, std::size_t TM, std::size_t TN>
struct gemm_point {
  // The candidate's tile.
  struct large {
    // The block's tile of C (block_m x block_n) and its step along k.
    // @{
    static constexpr std::size_t block_m = BM, block_n = BN, block_k = BK;
    // @}
    // The micro-tile of C a thread holds (thread_m x thread_n).
    // @{
    static constexpr std::size_t thread_m = TM, thread_n = TN;
    // @}
    // Launch bounds for float and for double (0: none).
    // @{
    static constexpr unsigned min_blocks = 0, min_blocks_8_bytes = 0;
    // @}
  };
  using large_8_bytes = large; // the same tile for every element type
  using small = large;         // and for small problems
  // Large tiles a problem needs for the large tile.
  static constexpr std::size_t large_min_tiles = 0;
  // The candidate's parameters for the tuning store ("block=256 items=8").
  static std::string describe() {
    return tune::describe_values("block_m block_n block_k thread_m thread_n", {BM, BN, BK, TM, TN});
  }
};
/// The space of gpu::gemm and gemm_batched.
/// The 128-wide candidates with deeper k steps are for the tensor-core paths too, which
/// take a policy's block_k where it is deeper than their own (8 for FP64). block_k 32 at
/// 128 x 128 would take 66-70 KiB of shared tiles, past the 48 KiB a static allocation may
/// have on CUDA.
using gemm = tune::space<policy::gemm, gemm_point<64, 64, 8, 4, 4>, gemm_point<32, 32, 8, 4, 4>,
                         gemm_point<64, 64, 16, 8, 8>, gemm_point<128, 128, 16, 8, 8>,
                         gemm_point<128, 64, 16, 8, 8>, gemm_point<64, 64, 16, 4, 4>>;

/// gpu::gemv's candidates: threads a block (a multiple of 32: a warp per row of a
/// row-major A) and items a thread in flight.
template <std::size_t Block, std::size_t Items> struct gemv_point {
  static_assert(Block % 32 == 0, "gemv_point: a block of whole warps");
  // The candidate's threads a block and items a thread.
  // @{
  static constexpr std::size_t block = Block, items = Items;
  // @}
  // The candidate's parameters for the tuning store ("block=256 items=4").
  static std::string describe() { return tune::describe_values("block items", {Block, Items}); }
};
/// The space of gpu::gemv. Where a warp is one work-item, a row-major A's warp per row is
/// a work-item per row and only block / 32 of a work-group's work-items have a row: the
/// 32-thread candidate gives each work-group one.
using gemv = tune::space<policy::gemv, gemv_point<128, 8>, gemv_point<512, 2>, gemv_point<32, 8>>;

/// gpu::sort's merge sort candidates (comparator sorts): merge tiles of Block threads,
/// block-sorted tiles of SortBlock (a multiple of Block), merge_sort_for<T>'s items times
/// ItemsScale / 2, no launch bound.
template <class T, std::size_t Block, std::size_t SortBlock, std::size_t ItemsScale>
struct merge_sort_point {
  static_assert(SortBlock % Block == 0, "merge_sort_point: a sorted tile of whole merge tiles");
  static constexpr std::size_t block = Block; // threads a merge block
  // merge_sort_for<T>'s items times ItemsScale / 2.
  static constexpr std::size_t scaled = merge_sort_for<T>::items * ItemsScale / 2;
  // Items a thread (a merge tile: block * items), at least one.
  static constexpr std::size_t items = scaled < 1 ? 1 : scaled;
  static constexpr unsigned min_blocks = 0; // launch bound of the merge kernels (none)
  // The block sort's policy: the same items, SortBlock threads.
  struct block_sort {
    static constexpr std::size_t block = SortBlock; // threads a block
    // Items a thread (a tile: block * items).
    static constexpr std::size_t items = merge_sort_point::items;
  };
  // The candidate's parameters for the tuning store ("block=256 sort_block=512 items=8").
  static std::string describe() {
    return tune::describe_values("block sort_block items", {Block, SortBlock, items});
  }
};
/// The space of the comparator sorts' merge sort.
template <class T>
using merge_sort_space =
    tune::space<merge_sort_for<T>, merge_sort_point<T, 128, 256, 2>,
                merge_sort_point<T, 256, 256, 4>, merge_sort_point<T, 64, 256, 4>>;

} // namespace tuning

} // namespace policy

namespace detail {

// ceil(n / d) without the wrap-around of (n + d - 1) / d: views such as iota or
// repeat_n may be sized near SIZE_MAX, where that gave a grid of almost no blocks.
inline std::size_t ceil_div(std::size_t n, std::size_t d) { return n / d + (n % d != 0); }

inline launch_config grid_for(std::size_t n, std::size_t block, std::size_t max_blocks) {
  std::size_t blocks = ceil_div(n, block);
  if (blocks > max_blocks)
    blocks = max_blocks;
  return {{blocks}, {block}};
}

// body(i) for every i in [0, n) in the elementwise pattern above (device code).
template <class P, class Body> inline void for_each_index(std::size_t n, Body &&body) {
  const std::size_t b = Block::get().size.x, tile = b * P::items, l = Thread::get().local.x;
  const std::size_t step = Grid::get().size.x * tile;
  for (std::size_t base = Block::get().index.x * tile; base < n; base += step) {
    if (base + tile <= n) { // a full tile: no bounds checks
      for (std::size_t k = 0; k < P::items; ++k)
        body(base + k * b + l);
    } else {
      for (std::size_t k = 0; k < P::items; ++k)
        if (base + k * b + l < n)
          body(base + k * b + l);
    }
  }
}

template <class Store, std::size_t... K, class... V>
inline void store_tile(Store &store, std::size_t first, std::size_t b, std::index_sequence<K...>,
                       V &&...v) {
  int in_order[] = {0, (store(first + K * b, std::forward<V>(v)), 0)...};
  (void)in_order;
}
template <class Load, class Store, std::size_t... K>
inline void load_store_tile(Load &load, Store &store, std::size_t first, std::size_t b,
                            std::index_sequence<K...> ks) {
  // Every load(i) is an argument, so all of them happen before the first store.
  store_tile(store, first, b, ks, load(first + K * b)...);
}

// store(i, load(i)) for every i in [0, n), in the elementwise pattern above (device code).
// A thread issues all loads of its tile before its first store: the compiler may not move
// a load above a store that could alias it, and with one load in flight per thread the
// memory stays idle (H100, vadd 2^28: 2.75 TB/s interleaved, 3.04 TB/s loads first).
// load must return a value, not a reference.
template <class P, class Load, class Store>
inline void load_store_index(std::size_t n, Load &&load, Store &&store) {
  const std::size_t b = Block::get().size.x, tile = b * P::items, l = Thread::get().local.x;
  const std::size_t step = Grid::get().size.x * tile;
  for (std::size_t base = Block::get().index.x * tile; base < n; base += step) {
    if (base + tile <= n) {
      load_store_tile(load, store, base + l, b, std::make_index_sequence<P::items>{});
    } else {
      for (std::size_t k = 0; k < P::items; ++k)
        if (base + k * b + l < n)
          store(base + k * b + l, load(base + k * b + l));
    }
  }
}

template <class P> launch_config elementwise_grid(std::size_t n) {
  return grid_for(ceil_div(n, P::items), P::block, P::max_blocks);
}

// Per-thread scratch memory on the current device, reused between calls (reduce
// partials); grows when needed.
void *scratch(std::size_t bytes);
// The same in pinned host memory that kernels write directly (CUDA maps pinned memory
// into the device's unified address space), for results the host reads once the
// kernel is done: no device-to-host copy after the kernel (pacxx/algorithm/detail/
// readback.hpp). Null where kernels cannot write host memory (OpenCL).
void *host_scratch(std::size_t bytes);
// Per-thread device memory on the current device that starts as all-one bytes: state
// carried from call to call without a fill before each (the fill was a second operation
// on the queue, about 2 us a call on the H100). Its first two words are the searches'
// (pacxx/algorithm/detail/find_first.hpp: one holds the last search's match, the other
// all ones); other users take the bytes after them and leave those all ones. At most a
// few hundred bytes are expected; grows when needed.
void *ones_scratch(std::size_t bytes);
// Waits for the current queue's work, so that what its kernels wrote to host_scratch
// memory is there, and counts `bytes` read back to the host.
void wait_host_scratch(std::size_t bytes);

} // namespace detail
} // namespace pacxx
