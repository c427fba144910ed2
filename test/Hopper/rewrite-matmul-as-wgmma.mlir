// transform.hwsched.rewrite_matmul_as_wgmma: a zero-filled linalg.matmul on
// buffers becomes two TMA tensor maps (host) and one gpu.launch: a ring of
// num_stages slots in dynamic shared memory (aligned to 1024 bytes in the
// kernel), one mbarrier per slot, a prologue loading num_stages - 1 K steps,
// a K loop that waits on its slot's mbarrier (phase flipping as the ring
// wraps: the step's round modulo 2), multiplies with nvgpu.warpgroup.mma (B as 64-column chunks:
// transposeB; at most one MMA group left in flight) and refills the
// previous step's slot, then one store of the accumulator into C. With two
// warpgroups they split the rows and meet at a barrier before the refill.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter | FileCheck %s
// RUN: hwsched-opt %s --split-input-file --transform-interpreter 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// REMARK: remark: wgmma + TMA matmul 512x256x512 f16: block 128x128, K step 64 (8 steps), 4 stage(s), 1 warpgroup(s) of 128x128 (128 accumulator registers per thread, ~160 in all), 128 threads; shared memory per stage 16384 B (A) + 16384 B (B), 132096 B dynamic of 232448 B (sm_90); grid 2x4
// CHECK-LABEL: func.func @one_warpgroup(
// CHECK-SAME:    %[[A:[^:]+]]: memref<512x512xf16>, %[[B:[^:]+]]: memref<512x256xf16>, %[[C:[^:]+]]: memref<512x256xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       %[[CA:.+]] = memref.cast %[[A]] : memref<512x512xf16> to memref<*xf16>
// CHECK:       %[[MA:.+]] = nvgpu.tma.create.descriptor %[[CA]] box[%c128, %c64]
// CHECK-SAME:    tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       %[[CB:.+]] = memref.cast %[[B]]
// CHECK:       %[[MB:.+]] = nvgpu.tma.create.descriptor %[[CB]]
// CHECK-SAME:    tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:       %[[BYTES:.+]] = arith.constant 132096 : i32
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c4{{.*}}, {{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) dynamic_shared_memory_size %[[BYTES]]
// CHECK:         gpu.dynamic_shared_memory
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         %[[BAR:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[BAR]]
// CHECK:         gpu.barrier
// CHECK:         nvgpu.tma.prefetch.descriptor %[[MA]]
// CHECK:         nvgpu.tma.prefetch.descriptor %[[MB]]
// CHECK:         scf.for
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%{{.+}}], %c32768
// CHECK-COUNT-3:   nvgpu.tma.async.load
// CHECK:         nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>)
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[BAR]]
// CHECK:           nvgpu.warpgroup.generate.descriptor
// CHECK:           nvgpu.warpgroup.generate.descriptor
// CHECK:           nvgpu.warpgroup.mma {{.*}} {transposeB}
// CHECK-NOT:       gpu.barrier
// CHECK:           nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-3:   nvgpu.tma.async.load
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:         %[[CT:.+]] = memref.subview %[[C]]
// CHECK:         nvgpu.warpgroup.mma.store {{.*}}, %[[CT]]
// CHECK-NOT:   linalg.matmul ins
// CHECK:       return
func.func @one_warpgroup(%a: memref<512x512xf16>, %b: memref<512x256xf16>, %c: memref<512x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<512x256xf32>)
  linalg.matmul ins(%a, %b : memref<512x512xf16>, memref<512x256xf16>) outs(%c : memref<512x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm
        { target = "nvidia-h100", block_m = 128, block_n = 128, num_stages = 4,
          warpgroups = 1, raster_group = 1, producer_warp = 0, explain }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Two warpgroups split a 128x256 bf16 block: 64 rows each (an A subview at
// 64 x the warpgroup index), the whole B tile (four 64-column chunks), a
// block barrier before the refill; the tile sizes from params.
// REMARK: remark: wgmma + TMA matmul 256x512x1024 bf16: block 128x256, K step 64 (16 steps), 3 stage(s), 2 warpgroup(s) of 64x256 (128 accumulator registers per thread, ~160 in all), 256 threads; shared memory per stage 16384 B (A) + 32768 B (B), 148480 B dynamic of 232448 B (sm_90); grid 2x2
// CHECK-LABEL: func.func @two_warpgroups(
// CHECK:       nvgpu.tma.create.descriptor {{.*}} box[%c128, %c64] : memref<*xbf16>
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256
// CHECK:         scf.for
// CHECK-COUNT-5:   nvgpu.tma.async.load
// CHECK:         scf.for {{.*}} -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>)
// CHECK:           memref.subview {{.*}} [64, 64] [1, 1] : memref<128x64xbf16, #gpu.address_space<workgroup>> to memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.warpgroup.mma {{.*}} {transposeB} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xbf16, #gpu.address_space<workgroup>>>
// CHECK:           gpu.barrier
// CHECK:           nvgpu.mbarrier.arrive.expect_tx {{.*}}, %c49152
// CHECK-COUNT-5:   nvgpu.tma.async.load
// CHECK:         nvgpu.warpgroup.mma.store
func.func @two_warpgroups(%a: memref<256x1024xbf16>, %b: memref<1024x512xbf16>, %c: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x512xf32>)
  linalg.matmul ins(%a, %b : memref<256x1024xbf16>, memref<1024x512xbf16>) outs(%c : memref<256x512xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %bn = transform.param.constant 256 : i64 -> !transform.param<i64>
    %w = transform.param.constant 2 : i64 -> !transform.param<i64>
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm params(block_n = %bn, warpgroups = %w)
        { target = "nvidia-h100", block_m = 128, num_stages = 3, raster_group = 1,
          producer_warp = 0, explain }
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

// A producer warp (the last warp, after the warpgroup): two mbarrier rings
// (full: one arrival, the expect_tx; empty: one arrival per warpgroup), the
// consumers in one branch (wait full, MMA, release the previous step's slot
// on empty), the producer in the other (its first thread waits for a slot's
// release from the second round on, then loads); no prologue and no block
// barrier in the loop.
// CHECK-LABEL: func.func @producer_warp(
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c160
// CHECK:         %[[FULL:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:         %[[EMPTY:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:         nvgpu.mbarrier.init %[[FULL]][%{{.+}}], %c1
// CHECK:         nvgpu.mbarrier.init %[[EMPTY]][%{{.+}}], %c1
// CHECK:         gpu.barrier
// CHECK-NOT:     nvgpu.tma.async.load
// CHECK:         scf.if %{{.+}} {
// CHECK:           scf.for
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:             nvgpu.warpgroup.mma
// CHECK-NOT:         gpu.barrier
// CHECK:             scf.if
// CHECK-NEXT:          nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK:           nvgpu.warpgroup.mma.store
// CHECK:         } else {
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               scf.if
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK:               nvgpu.mbarrier.arrive.expect_tx %[[FULL]]
// CHECK-COUNT-3:       nvgpu.tma.async.load
func.func @producer_warp(%a: memref<256x512xf16>, %b: memref<512x256xf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x512xf16>, memref<512x256xf16>) outs(%c : memref<256x256xf32>)
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.hwsched.rewrite_matmul_as_wgmma %mm
        { target = "nvidia-h100", block_m = 128, block_n = 128, num_stages = 3,
          warpgroups = 1, raster_group = 1, producer_warp = 1 }
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
