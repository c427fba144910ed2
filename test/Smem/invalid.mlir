// Bad input for transform.smem.* ops: a silenceable failure with a clear
// message, and the payload left untouched.
//
// RUN: hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --verify-diagnostics
// RUN: not hwsched-opt %s --split-input-file --transform-interpreter \
// RUN:   --mlir-print-ir-after-failure 2>&1 >/dev/null | FileCheck %s

// A handle to an op without regions.
module attributes {transform.with_named_sequence} {
  func.func @no_regions() {
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a scope with regions, got 'memref.alloc'}}
    %m = transform.smem.merge_allocations %a { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Over capacity: the chain needs at least 1536 B where %a and %b are both
// live, the capacity is 1024 B. The error names the program point (also as
// a note there), the live buffers, the capacity and the excess.
// CHECK-LABEL: func.func @over_capacity
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @over_capacity(%out: memref<256xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
    %c = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %f, %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{program point where the live on-chip buffers exceed the capacity}}
    memref.store %f, %b[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
    %x = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %x, %c[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    %y = memref.load %b[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
    %z = memref.load %c[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %y, %z : f32
    memref.store %s, %out[%c0] : memref<256xf32>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{on-chip allocations of 'func.func' need at least 1536 B at 'memref.store', above onchip.capacity_bytes = 1024 of 'nvidia-a100' by 512 B; live there: #0 memref<256xf32, #gpu.address_space<workgroup>> (1024 B), #1 memref<128xf32, #gpu.address_space<workgroup>> (512 B)}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 1024 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Every scope is checked before any changes: the first function fits, the
// second does not, and neither is rewritten.
// CHECK-LABEL: func.func @fits
// CHECK-NEXT: memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @does_not_fit
// CHECK-NEXT: memref.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @fits() {
    %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    return
  }
  func.func @does_not_fit() {
    // expected-note @below {{program point where the live on-chip buffers exceed the capacity}}
    %a = memref.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{need at least 2048 B at 'memref.alloc', above onchip.capacity_bytes = 1024 of 'nvidia-a100' by 1024 B}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 1024 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Pinned buffers count against the capacity for the whole scope.
module attributes {transform.with_named_sequence} {
  func.func private @use(memref<200xf32, #gpu.address_space<workgroup>>)
  func.func @pinned_over(%out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %p = memref.alloc() : memref<200xf32, #gpu.address_space<workgroup>>
    call @use(%p) : (memref<200xf32, #gpu.address_space<workgroup>>) -> ()
    %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    // expected-note @below {{program point where the live on-chip buffers exceed the capacity}}
    memref.store %f, %a[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{need at least 1056 B at 'memref.store', above onchip.capacity_bytes = 1024 of 'nvidia-a100' by 32 B}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 1024 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An unknown target is reported before anything else.
module attributes {transform.with_named_sequence} {
  func.func @bad_target() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unknown target 'nvidia-a101'}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a101" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A spec override that is not an integer is named with its key.
module attributes {transform.with_named_sequence} {
  func.func @bad_override() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{onchip.capacity_bytes}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = "big" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A static size that does not even fit 64 bits is certainly over capacity.
module attributes {transform.with_named_sequence} {
  func.func @huge() {
    // expected-note @below {{allocation here}}
    %a = memref.alloc() : memref<4611686018427387904x8xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{on-chip allocation of 'func.func' is larger than 2^62 bytes, above onchip.capacity_bytes = 166912 of 'nvidia-a100'}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Nested scopes in one handle would both rewrite the same allocation.
// CHECK-LABEL: func.func @overlapping_scopes
// CHECK: memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
module attributes {transform.with_named_sequence} {
  func.func @overlapping_scopes(%c: i1) {
    scf.if %c {
      // expected-note @below {{allocation here}}
      %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.structured.match ops{["func.func", "scf.if"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{scopes overlap: 'func.func' and 'scf.if', given together, both hold an on-chip allocation; pass disjoint scopes}}
    %m = transform.smem.merge_allocations %s { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The same scope twice in a handle is merged once.
// CHECK-LABEL: func.func @duplicate_scope
// CHECK-COUNT-1: memref.alloc()
// CHECK-NOT: memref.alloc()
module attributes {transform.with_named_sequence} {
  func.func @duplicate_scope() {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %f, %a[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %f, %b[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    // A failing op afterwards makes the IR print (checked above).
    %x = memref.load %a[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %ff = transform.merge_handles %f, %f : !transform.any_op
    %m = transform.smem.merge_allocations %ff { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    %a = transform.structured.match ops{["memref.load"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a scope with regions, got 'memref.load'}}
    %n = transform.smem.merge_allocations %a { target = "nvidia-a100" } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Over capacity with gpu.func workgroup attributions: the same error, and the
// attributions stay untouched.
// CHECK-LABEL: gpu.func @attr_over_capacity
// CHECK-SAME: workgroup(%{{.+}} : memref<256xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: memref.view
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @kernels {
    gpu.func @attr_over_capacity(%out: memref<256xf32>)
        workgroup(%a : memref<256xf32, #gpu.address_space<workgroup>>,
                  %b : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      // expected-note @below {{program point where the live on-chip buffers exceed the capacity}}
      memref.store %f, %b[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %x = memref.load %a[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %y = memref.load %b[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%c0] : memref<256xf32>
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{on-chip allocations of 'gpu.func' need at least 2048 B at 'memref.store', above onchip.capacity_bytes = 1024 of 'nvidia-a100' by 1024 B; live there: #0 memref<256xf32, #gpu.address_space<workgroup>> (1024 B), #1 memref<256xf32, #gpu.address_space<workgroup>> (1024 B)}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 1024 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Within the capacity by the lower bound (9 B live at most) but proved
// infeasible: no placement of these eight buffers needs fewer than 10 B (the
// exhaustive search over canonical packings says so). The payload is left
// unchanged.
// CHECK-LABEL: func.func @proved_infeasible
// CHECK: memref.alloc() {alignment = 1 : i64} : memref<3xi8
// CHECK-NOT: memref.view
module attributes {transform.with_named_sequence} {
  // expected-note @below {{'func.func' here}}
  func.func @proved_infeasible() {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i8
    %b0 = memref.alloc() {alignment = 1 : i64} : memref<3xi8, #gpu.address_space<workgroup>>
    %b1 = memref.alloc() {alignment = 1 : i64} : memref<3xi8, #gpu.address_space<workgroup>>
    %b2 = memref.alloc() {alignment = 1 : i64} : memref<1xi8, #gpu.address_space<workgroup>>
    %b3 = memref.alloc() {alignment = 1 : i64} : memref<2xi8, #gpu.address_space<workgroup>>
    %b4 = memref.alloc() {alignment = 1 : i64} : memref<2xi8, #gpu.address_space<workgroup>>
    %b5 = memref.alloc() {alignment = 1 : i64} : memref<2xi8, #gpu.address_space<workgroup>>
    %b6 = memref.alloc() {alignment = 1 : i64} : memref<4xi8, #gpu.address_space<workgroup>>
    %b7 = memref.alloc() {alignment = 1 : i64} : memref<4xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b3[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b4[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b7[%c0] : memref<4xi8, #gpu.address_space<workgroup>>
    %l7 = memref.load %b7[%c0] : memref<4xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b0[%c0] : memref<3xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b5[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    %l0 = memref.load %b0[%c0] : memref<3xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b2[%c0] : memref<1xi8, #gpu.address_space<workgroup>>
    %l3 = memref.load %b3[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b6[%c0] : memref<4xi8, #gpu.address_space<workgroup>>
    %l2 = memref.load %b2[%c0] : memref<1xi8, #gpu.address_space<workgroup>>
    %l4 = memref.load %b4[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b1[%c0] : memref<3xi8, #gpu.address_space<workgroup>>
    %l1 = memref.load %b1[%c0] : memref<3xi8, #gpu.address_space<workgroup>>
    %l5 = memref.load %b5[%c0] : memref<2xi8, #gpu.address_space<workgroup>>
    %l6 = memref.load %b6[%c0] : memref<4xi8, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{on-chip allocations of 'func.func' do not fit onchip.capacity_bytes = 9 of 'nvidia-a100': proved infeasible (an exhaustive search over canonical packings found none; lower bound 9 B, proven bound 10 B, best packing 10 B)}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.alignment_bytes" = 1, "onchip.capacity_bytes" = 9 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A packing within the capacity exists (144 B, the lower bound; the search
// finds it with its default budget, see search-budget.mlir), but greedy
// needs 160 B and 20 search steps are not enough: "not found within the
// budget", with the best peak, the bound and the steps spent. Payload
// unchanged.
// CHECK-LABEL: func.func @budget_spent
// CHECK: memref.alloc() {alignment = 16 : i64} : memref<64xi8
// CHECK-NOT: memref.view
module attributes {transform.with_named_sequence} {
  // expected-note @below {{'func.func' here}}
  func.func @budget_spent() {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i8
    %b0 = memref.alloc() {alignment = 16 : i64} : memref<64xi8, #gpu.address_space<workgroup>>
    %b1 = memref.alloc() {alignment = 16 : i64} : memref<16xi8, #gpu.address_space<workgroup>>
    %b2 = memref.alloc() {alignment = 16 : i64} : memref<48xi8, #gpu.address_space<workgroup>>
    %b3 = memref.alloc() {alignment = 16 : i64} : memref<32xi8, #gpu.address_space<workgroup>>
    %b4 = memref.alloc() {alignment = 16 : i64} : memref<48xi8, #gpu.address_space<workgroup>>
    %b5 = memref.alloc() {alignment = 16 : i64} : memref<32xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b4[%c0] : memref<48xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b1[%c0] : memref<16xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b5[%c0] : memref<32xi8, #gpu.address_space<workgroup>>
    %l5 = memref.load %b5[%c0] : memref<32xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b0[%c0] : memref<64xi8, #gpu.address_space<workgroup>>
    %l4 = memref.load %b4[%c0] : memref<48xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b3[%c0] : memref<32xi8, #gpu.address_space<workgroup>>
    %l1 = memref.load %b1[%c0] : memref<16xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b2[%c0] : memref<48xi8, #gpu.address_space<workgroup>>
    %l0 = memref.load %b0[%c0] : memref<64xi8, #gpu.address_space<workgroup>>
    %l3 = memref.load %b3[%c0] : memref<32xi8, #gpu.address_space<workgroup>>
    %l2 = memref.load %b2[%c0] : memref<48xi8, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{no packing of the on-chip allocations of 'func.func' into onchip.capacity_bytes = 144 of 'nvidia-a100' found within the budget: best peak 160 B, lower bound 144 B, 20 of 20 search steps; a larger search_steps or time_budget_ms may find one}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 144, search_steps = 20 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A negative budget is refused before anything else.
module attributes {transform.with_named_sequence} {
  func.func @negative_budget() { return }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{time_budget_ms must be at least 0 (got -5)}}
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", time_budget_ms = -5 } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// avoid_bank_conflicts on a handle to an op without regions.
module attributes {transform.with_named_sequence} {
  func.func @bank_no_regions() {
    // expected-note @below {{scope payload op}}
    %a = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a scope with regions (e.g. a func.func or gpu.launch), got 'memref.alloc'}}
    transform.smem.avoid_bank_conflicts %a { target = "nvidia-a100" } : !transform.any_op
    transform.yield
  }
}

// -----

// avoid_bank_conflicts on a target without banks (a CPU spec): refused
// with the keys it needs, the conflicting tile left as it was.
// CHECK-LABEL: func.func @bank_cpu_target
// CHECK: vector.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT: arith.xori
// CHECK: gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @bank_cpu_target() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
      %a = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
      %v = vector.load %a[%tx, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %v, %a[%tx, %c0] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error-re @below {{hardware spec '{{.*}}x86-avx512.json' has no 'onchip.banks', which the bank model of avoid_bank_conflicts (a GPU spec's, or the three keys set on the op) needs}}
    transform.smem.avoid_bank_conflicts %f { target = "x86-avx512" } : !transform.any_op
    transform.yield
  }
}
