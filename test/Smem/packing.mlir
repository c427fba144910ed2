// Packing search on a generated straight-line kernel (a store at each
// buffer's first program point, a load at its last): 24 buffers of
// 8/12/16 KiB, each overlapping its two neighbours. Every greedy order needs
// 36 KiB; moving the buffers that end at the peak to the front of the order
// (iterated greedy) reaches the lower bound, 28 KiB (12 + 16 KiB live
// together), which then also fits a capacity of exactly 28 KiB. (The exact
// search is exercised on intervals in packer-bench.test.)
//
// RUN: hwsched-opt %s --transform-interpreter --verify-diagnostics -o /dev/null

module attributes {transform.with_named_sequence} {
  // expected-remark @below {{peak 28672 B (buffer 28672 B, align 16), lower bound 28672 B}}
  func.func @staircase24() {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i8
    %b0 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b1 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b2 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b3 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b4 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b5 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b6 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b7 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b8 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b9 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b10 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b11 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b12 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b13 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b14 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b15 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b16 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b17 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b18 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b19 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b20 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    %b21 = memref.alloc() {alignment = 16 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>
    %b22 = memref.alloc() {alignment = 16 : i64} : memref<12288xi8, #gpu.address_space<workgroup>>
    %b23 = memref.alloc() {alignment = 16 : i64} : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b0[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b1[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l0 = memref.load %b0[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b2[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l1 = memref.load %b1[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b3[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l2 = memref.load %b2[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b4[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l3 = memref.load %b3[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b5[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l4 = memref.load %b4[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b6[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l5 = memref.load %b5[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b7[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l6 = memref.load %b6[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b8[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l7 = memref.load %b7[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b9[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l8 = memref.load %b8[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b10[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l9 = memref.load %b9[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b11[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l10 = memref.load %b10[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b12[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l11 = memref.load %b11[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b13[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l12 = memref.load %b12[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b14[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l13 = memref.load %b13[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b15[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l14 = memref.load %b14[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b16[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l15 = memref.load %b15[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b17[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l16 = memref.load %b16[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b18[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l17 = memref.load %b17[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b19[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l18 = memref.load %b18[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b20[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l19 = memref.load %b19[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b21[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    %l20 = memref.load %b20[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b22[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l21 = memref.load %b21[%c0] : memref<8192xi8, #gpu.address_space<workgroup>>
    memref.store %v, %b23[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    %l22 = memref.load %b22[%c0] : memref<12288xi8, #gpu.address_space<workgroup>>
    %l23 = memref.load %b23[%c0] : memref<16384xi8, #gpu.address_space<workgroup>>
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.smem.merge_allocations %f { target = "nvidia-a100", "onchip.capacity_bytes" = 28672, explain } : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
