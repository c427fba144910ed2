// transform.smem.eliminate_redundant_copies on memory-space-changing copies:
// the target's `onchip.direct_read_spaces` decides whether a consumer can
// read the source space directly at no loss. x86-avx512 says so for every
// pair (all spaces are the same DRAM), nvidia-a100 for none (a global ->
// workgroup copy is a staging copy that exists for speed); an inline
// override changes the decision either way. Removed copies leave the readers
// reading `memref.memory_space_cast` of the source. The target of each
// function is chosen by a unit attribute (Inputs/eliminate-by-target.mlir).
// Every chunk runs on the CPU before and after (utils/exec-check-split.py,
// in integration_test/Copies/memory-spaces.mlir).
//
// RUN: hwsched-opt %s --split-input-file \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/eliminate-by-target.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

// CPU: the copy into workgroup memory is not needed; the generic reads the
// argument through a memory_space_cast and the workgroup buffer goes.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @stage_cpu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<8xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<8xf32>
// CHECK: %[[CAST:.+]] = memref.memory_space_cast %[[A]] : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : memref<8xf32, #gpu.address_space<workgroup>>) outs(%[[SB]] :
// CHECK: memref.copy %[[SB]], %[[OUT]]
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 1 of 2 copies (1 forward, 0 backward), erased 1 allocations; target 'x86-avx512' has no on-chip memory space}}
func.func @stage_cpu(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_cpu} {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg0 through memref.memory_space_cast to #gpu.address_space<workgroup>; %alloc erased; 32 bytes not moved}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sa : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sb : memref<8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): target %arg1 is not an allocation inside the scope; its contents may be read elsewhere; backward blocked (memory-space change): the copy changes memory space from #gpu.address_space<workgroup> to the default memory space; only the forward rewrite crosses memory spaces}}
  memref.copy %sb, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sb : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @stage_cpu(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  return
}

// -----

// GPU: the same copy is a staging copy and stays.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @stage_gpu(
// CHECK-NOT: memref.memory_space_cast
// CHECK: %[[SA:.+]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: memref.copy %{{.+}}, %[[SA]] : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: linalg.generic {{.*}} ins(%[[SA]] :
// CHECK: memref.copy
// CHECK: return
// expected-remark @below {{removed 0 of 2 copies (0 forward, 0 backward), erased 0 allocations; on-chip (#gpu.address_space<workgroup>) allocations on 'nvidia-a100': 64 -> 64 bytes (0 saved)}}
func.func @stage_gpu(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_gpu} {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from the default memory space to #gpu.address_space<workgroup>: a staging copy, kept because the target does not declare that the consumer reads the source space at no loss (no matching pair in onchip.direct_read_spaces)}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sa : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sb : memref<8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from #gpu.address_space<workgroup> to the default memory space: a staging copy}}
  memref.copy %sb, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sb : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @stage_gpu(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  return
}

// -----

// GPU with an inline override declaring default -> workgroup lossless: the
// copy goes, and with it 32 bytes of workgroup memory. The pair has a
// direction: the write-back (workgroup -> default) is still a staging copy.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @stage_gpu_direct(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<8xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<8xf32>
// CHECK: %[[CAST:.+]] = memref.memory_space_cast %[[A]] : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.+]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : memref<8xf32, #gpu.address_space<workgroup>>) outs(%[[SB]] :
// CHECK: memref.copy %[[SB]], %[[OUT]]
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 1 of 2 copies (1 forward, 0 backward), erased 1 allocations; on-chip (#gpu.address_space<workgroup>) allocations on 'nvidia-a100': 64 -> 32 bytes (32 saved)}}
func.func @stage_gpu_direct(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_gpu_direct} {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg0 through memref.memory_space_cast to #gpu.address_space<workgroup>; %alloc erased}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sa : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sb : memref<8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from #gpu.address_space<workgroup> to the default memory space: a staging copy}}
  memref.copy %sb, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sb : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @stage_gpu_direct(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  return
}

// -----

// CPU with its pairs overridden away: the copy stays.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @stage_cpu_no_pairs(
// CHECK-NOT: memref.memory_space_cast
// CHECK: %[[SA:.+]] = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: memref.copy %{{.+}}, %[[SA]] : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: linalg.generic {{.*}} ins(%[[SA]] :
// CHECK: memref.copy
// CHECK: return
// expected-remark @below {{removed 0 of 2 copies (0 forward, 0 backward), erased 0 allocations; target 'x86-avx512' has no on-chip memory space}}
func.func @stage_cpu_no_pairs(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_cpu_no_pairs} {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from the default memory space to #gpu.address_space<workgroup>: a staging copy, kept because the target does not declare}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sa : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sb : memref<8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from #gpu.address_space<workgroup> to the default memory space: a staging copy}}
  memref.copy %sb, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sb : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @stage_cpu_no_pairs(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  return
}

// -----

// CPU, integer memory space 1 -> default, and a view of the target that is
// only read: the view is rebuilt on the cast of the source. A write to the
// source after the last read does not block.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @view_cpu(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<8xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<8xf32>
// CHECK: %[[S:.+]] = memref.alloc() : memref<8xf32, 1>
// CHECK: %[[CAST:.+]] = memref.memory_space_cast %[[S]] : memref<8xf32, 1> to memref<8xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[HALF:.+]] = memref.subview %[[CAST]][4] [4] [1]
// CHECK: linalg.generic {{.*}} ins(%[[HALF]] : memref<4xf32, strided<[1], offset: 4>>)
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 1 of 1 copies (1 forward, 0 backward), erased 1 allocations}}
func.func @view_cpu(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_cpu} {
  %s = memref.alloc() : memref<8xf32, 1>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%s : memref<8xf32, 1>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{removed memref.copy (forward): 0 read(s) of %alloc_0 now read %alloc through memref.memory_space_cast to the default memory space, 1 view(s) rebuilt on it; %alloc_0 erased; 32 bytes not moved}}
  memref.copy %s, %t : memref<8xf32, 1> to memref<8xf32>
  %half = memref.subview %t[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %oh = memref.subview %out[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%half : memref<4xf32, strided<[1], offset: 4>>) outs(%oh : memref<4xf32, strided<[1]>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32, 1>)
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %s : memref<8xf32, 1>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  %zero = arith.constant -1.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : memref<8xf32>)
  call @view_cpu(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// CPU: crossing spaces is allowed, but the usual legality still holds: the
// source is written between the copy and the read, so the copy stays.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @write_between_cpu(
// CHECK: memref.copy %{{.+}}, %{{.+}} : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.memory_space_cast
// CHECK: return
// expected-remark @below {{removed 0 of 2 copies}}
func.func @write_between_cpu(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) attributes {on_cpu} {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{kept copy: forward blocked (intervening write): 'linalg.fill' writes the source %arg0; backward blocked (memory-space change)}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<8xf32>)
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer)}}
  memref.copy %sa, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @write_between_cpu(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
