// Copy elimination before allocation merging leaves fewer on-chip buffers to
// pack: the workgroup-to-workgroup copy goes away with its buffer, the
// global-to-workgroup staging copy stays, so merging packs 2 buffers instead
// of 3 (the two left overlap, so the peak is their sum). The result computes
// the same values on the CPU (integration_test/Copies/with-merge-allocations.mlir).
//
// RUN: hwsched-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/copies-then-merge.mlir \
// RUN:   --transform-interpreter=entry-point=merge_only -o /dev/null 2>&1 | FileCheck %s --check-prefix=MERGE
// RUN: hwsched-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/copies-then-merge.mlir \
// RUN:   --transform-interpreter=entry-point=eliminate_then_merge 2>&1 | FileCheck %s --check-prefix=BOTH

// MERGE: remark: merged 3 of 3 on-chip allocations: sum 3072 B, peak 2048 B
// BOTH: remark: merged 2 of 2 on-chip allocations: sum 2048 B, peak 2048 B
// BOTH-LABEL: func.func @kernel
// BOTH: memref.alloc() {alignment = 16 : i64} : memref<2048xi8, #gpu.address_space<workgroup>>
// BOTH-NOT: memref.alloc
// BOTH: memref.copy %{{.*}} : memref<256xf32> to memref<256xf32, #gpu.address_space<workgroup>>
// BOTH-NOT: memref.copy
// BOTH: return

#id = affine_map<(d0) -> (d0)>
func.func @kernel(%in: memref<256xf32> {llvm.noalias}, %out: memref<256xf32> {llvm.noalias}) {
  %a = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  // Staging into shared memory: kept.
  memref.copy %in, %a : memref<256xf32> to memref<256xf32, #gpu.address_space<workgroup>>
  // A copy within shared memory that moves data for nothing.
  memref.copy %a, %b : memref<256xf32, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<256xf32, #gpu.address_space<workgroup>>)
      outs(%c : memref<256xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<256xf32, #gpu.address_space<workgroup>>) outs(%out : memref<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %a : memref<256xf32, #gpu.address_space<workgroup>>
  memref.dealloc %b : memref<256xf32, #gpu.address_space<workgroup>>
  memref.dealloc %c : memref<256xf32, #gpu.address_space<workgroup>>
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %in = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<256xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%in : memref<256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %i32 = arith.index_cast %i : index to i32
    %f = arith.sitofp %i32 : i32 to f32
    %s = arith.constant 0.125 : f32
    %v = arith.mulf %f, %s : f32
    linalg.yield %v : f32
  }
  call @kernel(%in, %out) : (memref<256xf32>, memref<256xf32>) -> ()
  %u = memref.cast %out : memref<256xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<256xf32>
  memref.dealloc %out : memref<256xf32>
  return
}
