// transform.smem.eliminate_redundant_copies: forward and backward copy
// elimination, each blocking condition, chains, loops and staging copies.
// Every chunk with a @main is also run on the CPU before and after the
// transform (utils/exec-check-split.py, in
// integration_test/Copies/eliminate-redundant-copies.mlir); chunks marked
// `exec-check: expect-changed` must be changed by it.
//
// RUN: hwsched-opt %s --split-input-file \
// RUN:   --transform-preload-library=transform-library-paths=%S/Inputs/eliminate-library.mlir \
// RUN:   --transform-interpreter --verify-diagnostics | FileCheck %s

// Forward: the generic reads %s instead of the copy %t; %t goes away.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<8xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[S]] : memref<8xf32>)
// CHECK-NOT: memref.dealloc
// CHECK: return
// expected-remark @below {{removed 1 of 1 copies (1 forward, 0 backward), erased 1 allocations; on-chip (#gpu.address_space<workgroup>) allocations on 'nvidia-a100': 0 -> 0 bytes (0 saved)}}
func.func @forward(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg0; %alloc erased; 32 bytes not moved}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @iota(%m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  return
}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  call @iota(%a) : (memref<8xf32>) -> ()
  call @forward(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// A chain through three buffers, one copy of each kind: every copy goes.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<8xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: copy
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<8xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
// expected-remark @below {{removed 3 of 3 copies (3 forward, 0 backward), erased 3 allocations}}
func.func @chain(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %b = memref.alloc() : memref<8xf32>
  %c = memref.alloc() : memref<8xf32>
  %d = memref.alloc() : memref<8xf32>
  // expected-remark @below {{removed memref.copy (forward)}}
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  // expected-remark @below {{removed linalg.copy (forward)}}
  linalg.copy ins(%b : memref<8xf32>) outs(%c : memref<8xf32>)
  // expected-remark @below {{removed linalg.generic (forward)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32>) outs(%d : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%d : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %c : memref<8xf32>
  memref.dealloc %d : memref<8xf32>
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
  call @chain(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Backward: the producer writes the subview of the output directly; the
// subview moves above it.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @backward(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<8xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<16xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[V:.+]] = memref.subview %[[OUT]][4] [8] [1]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : memref<8xf32>) outs(%[[V]] :
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 1 of 1 copies (0 forward, 1 backward), erased 1 allocations}}
func.func @backward(%a: memref<8xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %s = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  %v = memref.subview %out[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  // expected-remark @below {{removed memref.copy (backward): 1 access(es) of %alloc now go to %subview; %alloc erased; 32 bytes not moved}}
  memref.copy %s, %v : memref<8xf32> to memref<8xf32, strided<[1], offset: 4>>
  memref.dealloc %s : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %zero = arith.constant -1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%o : memref<16xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @backward(%a, %o) : (memref<8xf32>, memref<16xf32>) -> ()
  %u = memref.cast %o : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Blocking conditions, each with its reason; the program still runs the same.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @write_source(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @write_source(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (intervening write): 'linalg.fill' writes the source %arg0; backward blocked (escaping or aliased buffer): source %arg0 is not an allocation inside the scope}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// CHECK-LABEL: func.func @write_target(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @write_target(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c3 = arith.constant 3 : index
  %v = arith.constant 100.0 : f32
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (intervening write): 'memref.store' writes the target %alloc}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  memref.store %v, %t[%c3] : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// Without noalias, the write to %out may change %s.
// CHECK-LABEL: func.func @may_alias(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @may_alias(%s: memref<8xf32>, %out: memref<8xf32>) {
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (alias not ruled out): 'linalg.generic' writes %arg1, which may alias the source %arg0}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// A view of the target that is only read is rebuilt on the source.
// CHECK-LABEL: func.func @view_of_target_read(
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<8xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[V:.+]] = memref.subview %[[S]][2] [4] [1]
// CHECK-NEXT: linalg.copy ins(%[[V]] :
// expected-remark @below {{removed 1 of 2 copies (1 forward, 0 backward)}}
func.func @view_of_target_read(%s: memref<8xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{removed memref.copy (forward): 0 read(s) of %alloc now read %arg0, 1 view(s) rebuilt on it; %alloc erased}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  %v = memref.subview %t[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): target %arg1 is not an allocation inside the scope; its contents may be read elsewhere; backward blocked (escaping or aliased buffer): source %subview is not an allocation inside the scope}}
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: 2>>) outs(%out : memref<4xf32>)
  memref.dealloc %t : memref<8xf32>
  return
}
// A view of the target that is written: rebuilding it on the source would
// write the source.
// CHECK-LABEL: func.func @view_of_target_written(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 2 copies}}
func.func @view_of_target_written(%s: memref<8xf32> {llvm.noalias}, %out: memref<4xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %v0 = arith.constant 100.0 : f32
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): the view %subview of target %alloc is used by 'memref.store', which does not only read it}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  %v = memref.subview %t[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.store %v0, %v[%c0] : memref<4xf32, strided<[1], offset: 2>>
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): target %arg1 is not an allocation inside the scope}}
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: 2>>) outs(%out : memref<4xf32>)
  memref.dealloc %t : memref<8xf32>
  return
}
// The source is read after the copy: backward would lose it.
// CHECK-LABEL: func.func @source_used_after(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @source_used_after(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %out2: memref<8xf32> {llvm.noalias}) {
  %s = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): target %arg1 is not an allocation inside the scope; its contents may be read elsewhere; backward blocked (source used after the copy): source %alloc is used after the copy by 'linalg.generic'}}
  memref.copy %s, %out : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%s : memref<8xf32>) outs(%out2 : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %s : memref<8xf32>
  return
}
// The target is read between the producer and the copy.
// CHECK-LABEL: func.func @target_read_before(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 2 copies}}
func.func @target_read_before(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %out2: memref<8xf32> {llvm.noalias}) {
  %s = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: forward blocked (escaping or aliased buffer): target %arg2 is not an allocation inside the scope}}
  linalg.copy ins(%out : memref<8xf32>) outs(%out2 : memref<8xf32>)
  // expected-remark @below {{backward blocked (intervening read): 'linalg.copy' reads the target %arg1}}
  memref.copy %s, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @print(%m: memref<8xf32>) {
  %u = memref.cast %m : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @iota(%m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  return
}
func.func @main() {
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  %o2 = memref.alloc() : memref<8xf32>
  %o4 = memref.alloc() : memref<4xf32>
  call @iota(%a) : (memref<8xf32>) -> ()
  call @write_source(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @iota(%a) : (memref<8xf32>) -> ()
  call @write_target(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @may_alias(%o, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @view_of_target_read(%a, %o4) : (memref<8xf32>, memref<4xf32>) -> ()
  %u4 = memref.cast %o4 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  call @view_of_target_written(%a, %o4) : (memref<8xf32>, memref<4xf32>) -> ()
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  call @print(%a) : (memref<8xf32>) -> ()
  call @source_used_after(%a, %o, %o2) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @print(%o2) : (memref<8xf32>) -> ()
  call @target_read_before(%a, %o, %o2) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @print(%o2) : (memref<8xf32>) -> ()
  return
}

// -----

// Loops and regions: a read before the copy in a loop body sees the previous
// iteration's copy; a read after an scf.if cannot be ordered after a copy in
// one branch.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @loop_carried(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @loop_carried(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
  scf.for %i = %c0 to %c3 step %c1 {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %o : f32
      linalg.yield %y : f32
    }
    // expected-remark @below {{kept copy: forward blocked (loop-carried value): target %alloc is read by 'linalg.generic' before the copy inside a loop: it sees the copy of the previous iteration}}
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// CHECK-LABEL: func.func @other_region(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @other_region(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}, %cond: i1) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
  scf.if %cond {
    // expected-remark @below {{kept copy: forward blocked (use in another region): target %alloc is read by 'linalg.generic' outside the copy's block, which cannot be ordered after the copy}}
    memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// A copy after the loop that writes its source, in the same block: the
// write inside the loop is found through the loop's nested ops.
// CHECK-LABEL: func.func @write_in_loop(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @write_in_loop(%s: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (intervening write): 'scf.for' writes the source %arg0}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %s[%i] : memref<8xf32>
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<8xf32>
  return
}
// Backward: a buffer allocated outside the loop and only partly written in
// it carries values from one iteration to the next.
// CHECK-LABEL: func.func @backward_loop_carried(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @backward_loop_carried(%out: memref<8xf32> {llvm.noalias}) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %first = arith.cmpi eq, %i, %c0 : index
    scf.if %first {
      linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
    }
    memref.store %one, %s[%i] : memref<8xf32>
    // expected-remark @below {{backward blocked (loop-carried value): source %alloc lives across iterations of 'scf.for' and 'scf.if' does not overwrite it fully first}}
    memref.copy %s, %out : memref<8xf32> to memref<8xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%out : memref<8xf32>) outs(%out : memref<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.addf %x, %x : f32
      linalg.yield %y : f32
    }
  }
  memref.dealloc %s : memref<8xf32>
  return
}
// Backward: without noalias, the target may be the producer's input.
// CHECK-LABEL: func.func @backward_target_may_alias(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @backward_target_may_alias(%a: memref<8xf32>, %out: memref<8xf32>) {
  %s = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{backward blocked (alias not ruled out): 'linalg.generic' reads %arg0, which may alias the target %arg1}}
  memref.copy %s, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @print(%m: memref<8xf32>) {
  %u = memref.cast %m : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @iota(%m: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  return
}
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %false = arith.constant false
  %a = memref.alloc() : memref<8xf32>
  %o = memref.alloc() : memref<8xf32>
  call @iota(%a) : (memref<8xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%o : memref<8xf32>)
  call @loop_carried(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @other_region(%a, %o, %true) : (memref<8xf32>, memref<8xf32>, i1) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @other_region(%a, %o, %false) : (memref<8xf32>, memref<8xf32>, i1) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @write_in_loop(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @backward_loop_carried(%o) : (memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  call @iota(%a) : (memref<8xf32>) -> ()
  call @backward_target_may_alias(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  call @print(%o) : (memref<8xf32>) -> ()
  return
}

// -----

// Copies in a loop: the staging copy of a tile is forwarded (the generic
// reads the input's subview), and the result copy is done backward (the
// generic writes the output's subview): the buffers allocated outside the
// loop are overwritten fully at every iteration, so nothing is carried.
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @tiled(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<16xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<16xf32>
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[I:.+]] =
// CHECK-DAG: %[[AV:.+]] = memref.subview %[[A]][%[[I]]] [4] [1]
// CHECK-DAG: %[[OV:.+]] = memref.subview %[[OUT]][%[[I]]] [4] [1]
// CHECK: linalg.generic {{.*}} ins(%[[AV]] : {{.*}}) outs(%[[OV]] :
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 2 of 2 copies (1 forward, 1 backward), erased 2 allocations}}
func.func @tiled(%a: memref<16xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %t = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c16 step %c4 {
    %av = memref.subview %a[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    // expected-remark @below {{removed memref.copy (forward)}}
    memref.copy %av, %t : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%t : memref<4xf32>) outs(%s : memref<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    }
    %ov = memref.subview %out[%i] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    // expected-remark @below {{removed memref.copy (backward)}}
    memref.copy %s, %ov : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  }
  memref.dealloc %t : memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %o = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<16xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @tiled(%a, %o) : (memref<16xf32>, memref<16xf32>) -> ()
  %u = memref.cast %o : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Memory-space changes are staging copies and stay; the copies between
// on-chip buffers go, which leaves fewer shared-memory buffers for
// transform.smem.merge_allocations to pack (2 of 4, 64 of 128 bytes).
// exec-check: expect-changed
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @staging(
// CHECK-COUNT-2: memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK-COUNT-2: memref.copy
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 2 of 4 copies (2 forward, 0 backward), erased 2 allocations; on-chip (#gpu.address_space<workgroup>) allocations on 'nvidia-a100': 128 -> 64 bytes (64 saved)}}
func.func @staging(%a: memref<8xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %sa = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sc = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %sd = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from the default memory space to #gpu.address_space<workgroup>: a staging copy, kept because the target does not declare that the consumer reads the source space at no loss}}
  memref.copy %a, %sa : memref<8xf32> to memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{removed memref.copy (forward)}}
  memref.copy %sa, %sb : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32, #gpu.address_space<workgroup>>
  // expected-remark @below {{removed linalg.copy (forward)}}
  linalg.copy ins(%sb : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sc : memref<8xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%sc : memref<8xf32, #gpu.address_space<workgroup>>) outs(%sd : memref<8xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  // expected-remark @below {{kept copy: memory-space change: the copy changes memory space from #gpu.address_space<workgroup> to the default memory space}}
  memref.copy %sd, %out : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32>
  memref.dealloc %sa : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sb : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sc : memref<8xf32, #gpu.address_space<workgroup>>
  memref.dealloc %sd : memref<8xf32, #gpu.address_space<workgroup>>
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
  call @staging(%a, %o) : (memref<8xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Concatenation as bufferization leaves it: two results computed into
// temporaries and copied into halves of a buffer that is then copied into
// the output. Backward elimination moves the allocation and its subviews
// above the producers (copies 1 and 2), then rebuilds the subviews of that
// buffer on the output (copy 3): every temporary goes.
// exec-check: expect-changed
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<4x8xf32> {llvm.noalias}, %[[OUT:[a-z0-9]+]]: memref<8x8xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[TOP:.+]] = memref.subview %[[OUT]][0, 0] [4, 8] [1, 1]
// CHECK: linalg.generic {{.*}} outs(%[[TOP]] :
// CHECK: %[[BOTTOM:.+]] = memref.subview %[[OUT]][4, 0] [4, 8] [1, 1]
// CHECK: linalg.generic {{.*}} outs(%[[BOTTOM]] :
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 3 of 3 copies (0 forward, 3 backward), erased 3 allocations}}
func.func @concat(%a: memref<4x8xf32> {llvm.noalias}, %out: memref<8x8xf32> {llvm.noalias}) {
  %sum = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x8xf32>) outs(%sum : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  %diff = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x8xf32>) outs(%diff : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }
  %full = memref.alloc() : memref<8x8xf32>
  %top = memref.subview %full[0, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  // expected-remark @below {{removed memref.copy (backward): 1 access(es) of %alloc now go to %subview}}
  memref.copy %sum, %top : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  %bottom = memref.subview %full[4, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  // expected-remark @below {{removed memref.copy (backward)}}
  memref.copy %diff, %bottom : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 32>>
  // expected-remark @below {{removed memref.copy (backward): 0 access(es) of %alloc now go to %arg1, 2 view(s) rebuilt on it; %alloc erased; 256 bytes not moved}}
  memref.copy %full, %out : memref<8x8xf32> to memref<8x8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<4x8xf32>
  %o = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : memref<4x8xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @concat(%a, %o) : (memref<4x8xf32>, memref<8x8xf32>) -> ()
  %u = memref.cast %o : memref<8x8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// A layout change whose consumer is not known to accept any layout stays.
// CHECK-LABEL: func.func @layout(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @layout(%a: memref<16xf32> {llvm.noalias}, %out: memref<8xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %v = memref.subview %a[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{forward blocked (layout change): the copy changes the type from memref<8xf32, strided<[1], offset: 4>> to memref<8xf32> and 'vector.load' needs memref<8xf32>}}
  memref.copy %v, %t : memref<8xf32, strided<[1], offset: 4>> to memref<8xf32>
  %x = vector.load %t[%c0] : memref<8xf32>, vector<8xf32>
  vector.store %x, %out[%c0] : memref<8xf32>, vector<8xf32>
  memref.dealloc %t : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func @main() {
  %a = memref.alloc() : memref<16xf32>
  %o = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : memref<16xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  call @layout(%a, %o) : (memref<16xf32>, memref<8xf32>) -> ()
  %u = memref.cast %o : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// An op with unknown memory effects stops the analysis.
func.func private @consume(memref<8xf32>)
// CHECK-LABEL: func.func @unknown_effects(
// CHECK: memref.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @unknown_effects(%s: memref<8xf32> {llvm.noalias}) {
  %t = memref.alloc() : memref<8xf32>
  // expected-remark @below {{kept copy: forward blocked (unknown memory effects): target %alloc is used by 'func.call', whose memory effects are unknown}}
  memref.copy %s, %t : memref<8xf32> to memref<8xf32>
  func.call @consume(%t) : (memref<8xf32>) -> ()
  return
}

// -----

// Dynamic shapes: memref.copy copies whole buffers whatever their size, so
// forward elimination applies; the linalg forms iterate over their operands'
// shapes, which must be provably equal. Unranked copies are not candidates.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @dynamic_forward(
// CHECK-NOT: memref.copy
// CHECK: return
// expected-remark @below {{removed 1 of 1 copies (1 forward, 0 backward), erased 1 allocations}}
func.func @dynamic_forward(%s: memref<?xf32> {llvm.noalias}, %out: memref<?xf32> {llvm.noalias}, %n: index) {
  %t = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg0; %alloc erased}}
  memref.copy %s, %t : memref<?xf32> to memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<?xf32>
  return
}
// CHECK-LABEL: func.func @dynamic_linalg_copy(
// CHECK: linalg.copy
// expected-remark @below {{removed 0 of 1 copies}}
func.func @dynamic_linalg_copy(%s: memref<?xf32> {llvm.noalias}, %out: memref<?xf32> {llvm.noalias}, %n: index) {
  %t = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{kept copy: shape not provably equal: cannot prove that the copy writes all of %alloc (shapes memref<?xf32> and memref<?xf32>)}}
  linalg.copy ins(%s : memref<?xf32>) outs(%t : memref<?xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }
  memref.dealloc %t : memref<?xf32>
  return
}
// CHECK-LABEL: func.func @unranked(
// CHECK: memref.copy
func.func @unranked(%s: memref<*xf32>, %t: memref<*xf32>) {
  memref.copy %s, %t : memref<*xf32> to memref<*xf32>
  return
}

// -----

// Bytes of index and vector elements are their data-layout storage sizes
// (index is 64 bits by default, vector<3xf32> is padded to 16 bytes), the
// sizes the on-chip allocation analysis and the pipeliner use too
// (hwsched/Analysis/MemRefUtils.h). Before, this analysis knew no size for
// either.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @index_and_vector_bytes(
// CHECK-NOT: memref.copy
// expected-remark @below {{removed 2 of 2 copies (2 forward, 0 backward), erased 2 allocations}}
func.func @index_and_vector_bytes(%s: memref<4xindex> {llvm.noalias}, %out: memref<4xindex> {llvm.noalias},
                                  %v: memref<2xvector<3xf32>> {llvm.noalias}, %vout: memref<2xvector<3xf32>> {llvm.noalias}) {
  %t = memref.alloc() : memref<4xindex>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg0; %alloc erased; 32 bytes not moved}}
  memref.copy %s, %t : memref<4xindex> to memref<4xindex>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<4xindex>) outs(%out : memref<4xindex>) {
  ^bb0(%x: index, %o: index):
    %y = arith.addi %x, %x : index
    linalg.yield %y : index
  }
  %tv = memref.alloc() : memref<2xvector<3xf32>>
  // expected-remark @below {{removed memref.copy (forward): 1 read(s) of %alloc now read %arg2; %alloc erased; 32 bytes not moved}}
  memref.copy %v, %tv : memref<2xvector<3xf32>> to memref<2xvector<3xf32>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%tv : memref<2xvector<3xf32>>) outs(%vout : memref<2xvector<3xf32>>) {
  ^bb0(%x: vector<3xf32>, %o: vector<3xf32>):
    %y = arith.addf %x, %x : vector<3xf32>
    linalg.yield %y : vector<3xf32>
  }
  return
}
