// NPU bodies whose flags need more event ids than the hardware's 8 per pipe
// pair (ascend-910b), for exec-check --emulate-npu-sync. Loops to pipeline
// carry `coarsen_chain` / `coarsen_large`. Small integer values: every order
// of the arithmetic is exact.
//
// @chain: three copy-ins (mte2) consumed by vector ops 1, 3 and 5 stages
// later (and by two matmuls) in a six-unit chain: with six stages the fine
// flags need 12-14 event ids on four pipe pairs, the coarsened ones fit.
func.func @chain(%A: memref<64x8xf32> {llvm.noalias}, %B: memref<64x8xf32> {llvm.noalias}, %C: memref<64x8xf32> {llvm.noalias},
                 %W: memref<8x8xf32> {llvm.noalias}, %O: memref<64x8xf32> {llvm.noalias},
                 %lb: index, %ub: index, %step: index) {
  %a_ub = memref.alloc() : memref<8x8xf32, "ub">
  %b_ub = memref.alloc() : memref<8x8xf32, "ub">
  %c_ub = memref.alloc() : memref<8x8xf32, "ub">
  %w_ub = memref.alloc() : memref<8x8xf32, "ub">
  %t2 = memref.alloc() : memref<8x8xf32, "ub">
  %t3 = memref.alloc() : memref<8x8xf32, "ub">
  memref.copy %W, %w_ub : memref<8x8xf32> to memref<8x8xf32, "ub">
  scf.for %i = %lb to %ub step %step {
    %a = memref.subview %A[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %b = memref.subview %B[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %c = memref.subview %C[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    %o = memref.subview %O[%i, 0] [8, 8] [1, 1] : memref<64x8xf32> to memref<8x8xf32, strided<[8, 1], offset: ?>>
    memref.copy %a, %a_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    memref.copy %b, %b_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    memref.copy %c, %c_ub : memref<8x8xf32, strided<[8, 1], offset: ?>> to memref<8x8xf32, "ub">
    linalg.add ins(%a_ub, %a_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t2 : memref<8x8xf32, "ub">)
    linalg.matmul ins(%a_ub, %w_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t2 : memref<8x8xf32, "ub">)
    linalg.add ins(%t2, %b_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t3 : memref<8x8xf32, "ub">)
    linalg.matmul ins(%b_ub, %w_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%t3 : memref<8x8xf32, "ub">)
    linalg.add ins(%t3, %c_ub : memref<8x8xf32, "ub">, memref<8x8xf32, "ub">) outs(%o : memref<8x8xf32, strided<[8, 1], offset: ?>>)
  } {coarsen_chain}
  return
}

// @large: a random body of about 100 ops (utils/pipeline-fuzz.py --seed 11
// --min-ops 90 --max-ops 90 --max-buffers 12, case 9: one of the loops the
// benchmark used to refuse), with dynamic bounds. Its flags need up to 23
// event ids per pipe pair; coarsened, and with single-event flags that are
// never live at once sharing an event, they fit in 2 stages.
func.func @large(%G0: memref<32x4xf32> {llvm.noalias}, %G1: memref<32x4xf32> {llvm.noalias}, %O: memref<32x4xf32> {llvm.noalias}, %lbd: index, %ubd: index, %stepd: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f0 = arith.constant 0.0 : f32
  %fone = arith.constant 1.0 : f32
  %vzero = arith.constant dense<0.0> : vector<4x4xf32>
  %S0 = memref.alloca() : memref<4x4xf32, "ub">
  %S1 = memref.alloca() : memref<4x4xf32, "ub">
  %fv1 = arith.constant 2.0 : f32
  linalg.fill ins(%fv1 : f32) outs(%S1 : memref<4x4xf32, "ub">)
  %S2 = memref.alloca() : memref<4x4xf32, "ub">
  %fv2 = arith.constant 3.0 : f32
  linalg.fill ins(%fv2 : f32) outs(%S2 : memref<4x4xf32, "ub">)
  %S3 = memref.alloca() : memref<4x4xf32, "ub">
  %fv3 = arith.constant 4.0 : f32
  linalg.fill ins(%fv3 : f32) outs(%S3 : memref<4x4xf32, "ub">)
  %S4 = memref.alloca() : memref<4x4xf32, "ub">
  %fv4 = arith.constant 5.0 : f32
  linalg.fill ins(%fv4 : f32) outs(%S4 : memref<4x4xf32, "ub">)
  %S5 = memref.alloca() : memref<4x4xf32, "ub">
  %S6 = memref.alloca() : memref<4x4xf32, "ub">
  %S7 = memref.alloca() : memref<4x4xf32, "ub">
  %fv7 = arith.constant 8.0 : f32
  linalg.fill ins(%fv7 : f32) outs(%S7 : memref<4x4xf32, "ub">)
  %S8 = memref.alloc() : memref<4x4xf32, "ub">
  %fv8 = arith.constant 9.0 : f32
  linalg.fill ins(%fv8 : f32) outs(%S8 : memref<4x4xf32, "ub">)
  %S9 = memref.alloc() : memref<4x4xf32, "ub">
  %S10 = memref.alloc() : memref<4x4xf32, "ub">
  %r:4 = scf.for %iv = %lbd to %ubd step %stepd iter_args(%acc = %vzero, %off = %lbd, %pass = %fone, %sacc = %f0) -> (vector<4x4xf32>, index, f32, f32) {
    %iv1 = arith.addi %iv, %c1 : index
    %g0 = memref.subview %G1[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h0 = memref.subview %S6[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g0, %h0 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    %g1 = memref.subview %G1[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h1 = memref.subview %S6[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g1, %h1 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %g2 = memref.subview %G1[%iv1, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h2 = memref.subview %S0[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g2, %h2 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    %g3 = memref.subview %G1[%iv1, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h3 = memref.subview %S0[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g3, %h3 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %g4 = memref.subview %G0[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g4, %S9 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g5 = memref.subview %G1[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g5, %S7 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g6 = memref.subview %G0[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h6 = memref.subview %S8[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g6, %h6 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    %g7 = memref.subview %G0[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h7 = memref.subview %S8[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g7, %h7 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %g8 = memref.subview %G1[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g8, %S5 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g9 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g9, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g10 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g10, %S9 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g11 = memref.subview %G0[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h11 = memref.subview %S6[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g11, %h11 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    linalg.add ins(%S5, %S5 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S5 : memref<4x4xf32, "ub">)
    %g13 = memref.subview %G1[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g13, %S0 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %x14 = memref.load %S9[%c1, %c2] : memref<4x4xf32, "ub">
    %s14 = arith.addf %sacc, %x14 : f32
    %g15 = memref.subview %G0[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g15, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g16 = memref.subview %G0[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h16 = memref.subview %S0[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g16, %h16 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    linalg.add ins(%S10, %S10 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S10 : memref<4x4xf32, "ub">)
    %g18 = memref.subview %G0[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g18, %S5 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g19 = memref.subview %G1[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h19 = memref.subview %S5[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g19, %h19 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %g20 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g20, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %v21 = vector.transfer_read %S0[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a21 = arith.addf %acc, %v21 : vector<4x4xf32>
    %v22 = vector.transfer_read %S6[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a22 = arith.addf %a21, %v22 : vector<4x4xf32>
    %g23 = memref.subview %G1[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g23, %S2 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    linalg.add ins(%S5, %S0 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S3 : memref<4x4xf32, "ub">)
    %g25 = memref.subview %G1[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g25, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g26 = memref.subview %G0[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h26 = memref.subview %S10[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g26, %h26 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %x27 = memref.load %S10[%c1, %c2] : memref<4x4xf32, "ub">
    %s27 = arith.addf %s14, %x27 : f32
    linalg.add ins(%S8, %S8 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S6 : memref<4x4xf32, "ub">)
    %v29 = vector.transfer_read %S8[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a29 = arith.addf %a22, %v29 : vector<4x4xf32>
    %o30 = memref.subview %O[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S10, %o30 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    linalg.add ins(%S10, %S10 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S10 : memref<4x4xf32, "ub">)
    linalg.add ins(%S3, %S10 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S8 : memref<4x4xf32, "ub">)
    %g33 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g33, %S5 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g34 = memref.subview %G1[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h34 = memref.subview %S0[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g34, %h34 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %o35 = memref.subview %O[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S4, %o35 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %fill36 = arith.constant 36.5 : f32
    linalg.fill ins(%fill36 : f32) outs(%S3 : memref<4x4xf32, "ub">)
    %g37 = memref.subview %G0[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h37 = memref.subview %S1[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g37, %h37 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    linalg.add ins(%S5, %S5 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S5 : memref<4x4xf32, "ub">)
    %x39 = memref.load %S8[%c1, %c2] : memref<4x4xf32, "ub">
    %s39 = arith.addf %s27, %x39 : f32
    %v40 = vector.transfer_read %S4[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a40 = arith.addf %a29, %v40 : vector<4x4xf32>
    %v41 = vector.transfer_read %S5[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a41 = arith.addf %a40, %v41 : vector<4x4xf32>
    %fill42 = arith.constant 42.5 : f32
    linalg.fill ins(%fill42 : f32) outs(%S0 : memref<4x4xf32, "ub">)
    %v43 = vector.transfer_read %S7[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a43 = arith.addf %a41, %v43 : vector<4x4xf32>
    %v44 = vector.transfer_read %S7[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a44 = arith.addf %a43, %v44 : vector<4x4xf32>
    linalg.add ins(%S2, %S2 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S2 : memref<4x4xf32, "ub">)
    linalg.add ins(%S0, %S7 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S7 : memref<4x4xf32, "ub">)
    linalg.add ins(%S9, %S9 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S9 : memref<4x4xf32, "ub">)
    linalg.matmul ins(%S6, %S4 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S9 : memref<4x4xf32, "ub">)
    %v49 = vector.transfer_read %S3[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a49 = arith.addf %a44, %v49 : vector<4x4xf32>
    %o50 = memref.subview %O[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S7, %o50 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %g51 = memref.subview %G0[%iv1, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h51 = memref.subview %S0[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g51, %h51 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    %fill52 = arith.constant 52.5 : f32
    linalg.fill ins(%fill52 : f32) outs(%S2 : memref<4x4xf32, "ub">)
    %g53 = memref.subview %G1[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g53, %S0 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    linalg.add ins(%S6, %S1 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S0 : memref<4x4xf32, "ub">)
    linalg.add ins(%S10, %S6 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S0 : memref<4x4xf32, "ub">)
    %g56 = memref.subview %G0[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g56, %S7 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %v57 = vector.transfer_read %S3[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a57 = arith.addf %a49, %v57 : vector<4x4xf32>
    %fill58 = arith.constant 58.5 : f32
    linalg.fill ins(%fill58 : f32) outs(%S0 : memref<4x4xf32, "ub">)
    %x59 = memref.load %S0[%c1, %c2] : memref<4x4xf32, "ub">
    %s59 = arith.addf %s39, %x59 : f32
    %g60 = memref.subview %G1[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g60, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %o61 = memref.subview %O[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S3, %o61 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %g62 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g62, %S7 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %fill63 = arith.constant 63.5 : f32
    linalg.fill ins(%fill63 : f32) outs(%S9 : memref<4x4xf32, "ub">)
    %g64 = memref.subview %G0[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g64, %S3 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %fill65 = arith.constant 65.5 : f32
    linalg.fill ins(%fill65 : f32) outs(%S3 : memref<4x4xf32, "ub">)
    %o66 = memref.subview %O[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S5, %o66 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %g67 = memref.subview %G0[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g67, %S5 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g68 = memref.subview %G1[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g68, %S8 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %v69 = vector.transfer_read %S3[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a69 = arith.addf %a57, %v69 : vector<4x4xf32>
    linalg.add ins(%S5, %S5 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S5 : memref<4x4xf32, "ub">)
    %g71 = memref.subview %G1[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g71, %S3 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %fill72 = arith.constant 72.5 : f32
    linalg.fill ins(%fill72 : f32) outs(%S3 : memref<4x4xf32, "ub">)
    linalg.matmul ins(%S8, %S5 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S7 : memref<4x4xf32, "ub">)
    %g74 = memref.subview %G1[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h74 = memref.subview %S6[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g74, %h74 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    %o75 = memref.subview %O[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S2, %o75 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %v76 = vector.transfer_read %S9[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a76 = arith.addf %a69, %v76 : vector<4x4xf32>
    linalg.add ins(%S10, %S10 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S10 : memref<4x4xf32, "ub">)
    %v78 = vector.transfer_read %S0[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a78 = arith.addf %a76, %v78 : vector<4x4xf32>
    linalg.add ins(%S6, %S0 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S2 : memref<4x4xf32, "ub">)
    linalg.add ins(%S10, %S2 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S1 : memref<4x4xf32, "ub">)
    %v81 = vector.transfer_read %S3[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a81 = arith.addf %a78, %v81 : vector<4x4xf32>
    %g82 = memref.subview %G1[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g82, %S8 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g83 = memref.subview %G1[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h83 = memref.subview %S8[0, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    memref.copy %g83, %h83 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 0>, "ub">
    linalg.add ins(%S8, %S7 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S10 : memref<4x4xf32, "ub">)
    %g85 = memref.subview %G0[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g85, %S10 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    linalg.matmul ins(%S8, %S8 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S8 : memref<4x4xf32, "ub">)
    linalg.matmul ins(%S3, %S3 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S5 : memref<4x4xf32, "ub">)
    %o88 = memref.subview %O[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %S7, %o88 : memref<4x4xf32, "ub"> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    %v89 = vector.transfer_read %S2[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a89 = arith.addf %a81, %v89 : vector<4x4xf32>
    %v90 = vector.transfer_read %S3[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<4x4xf32, "ub">, vector<4x4xf32>
    %a90 = arith.addf %a89, %v90 : vector<4x4xf32>
    %g91 = memref.subview %G1[%iv1, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g91, %S0 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g92 = memref.subview %G1[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h92 = memref.subview %S2[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g92, %h92 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    linalg.add ins(%S9, %S2 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S7 : memref<4x4xf32, "ub">)
    %g94 = memref.subview %G0[%off, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g94, %S2 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    %g95 = memref.subview %G1[%iv, 0] [4, 4] [1, 1] : memref<32x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
    memref.copy %g95, %S2 : memref<4x4xf32, strided<[4, 1], offset: ?>> to memref<4x4xf32, "ub">
    linalg.matmul ins(%S1, %S6 : memref<4x4xf32, "ub">, memref<4x4xf32, "ub">) outs(%S7 : memref<4x4xf32, "ub">)
    %g97 = memref.subview %G0[%off, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h97 = memref.subview %S4[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g97, %h97 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %g98 = memref.subview %G1[%iv, 0] [2, 4] [1, 1] : memref<32x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
    %h98 = memref.subview %S0[2, 0] [2, 4] [1, 1] : memref<4x4xf32, "ub"> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    memref.copy %g98, %h98 : memref<2x4xf32, strided<[4, 1], offset: ?>> to memref<2x4xf32, strided<[4, 1], offset: 8>, "ub">
    %x99 = memref.load %S7[%c1, %c2] : memref<4x4xf32, "ub">
    %s99 = arith.addf %s59, %x99 : f32
    %next = arith.addi %iv, %stepd : index
    scf.yield %a90, %next, %pass, %s99 : vector<4x4xf32>, index, f32, f32
  } {coarsen_large}
  %plain = memref.alloc() : memref<4x4xf32>
  %pu = memref.cast %plain : memref<4x4xf32> to memref<*xf32>
  memref.copy %S1, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.copy %S2, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.copy %S3, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.copy %S4, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.copy %S7, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.copy %S8, %plain : memref<4x4xf32, "ub"> to memref<4x4xf32>
  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  vector.print %r#0 : vector<4x4xf32>
  vector.print %r#1 : index
  vector.print %r#2 : f32
  vector.print %r#3 : f32
  memref.dealloc %plain : memref<4x4xf32>
  memref.dealloc %S8 : memref<4x4xf32, "ub">
  memref.dealloc %S9 : memref<4x4xf32, "ub">
  memref.dealloc %S10 : memref<4x4xf32, "ub">
  return
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @fill(%m: memref<?x?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %t0 = arith.muli %i, %d1 : index
      %t1 = arith.addi %t0, %j : index
      %t2 = arith.addi %t1, %seed : index
      %t3 = arith.remui %t2, %c5 : index
      %t4 = arith.index_cast %t3 : index to i32
      %t5 = arith.sitofp %t4 : i32 to f32
      memref.store %t5, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @run_chain(%lb: index, %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<64x8xf32>
  %B = memref.alloc() : memref<64x8xf32>
  %C = memref.alloc() : memref<64x8xf32>
  %W = memref.alloc() : memref<8x8xf32>
  %O = memref.alloc() : memref<64x8xf32>
  %a = memref.cast %A : memref<64x8xf32> to memref<?x?xf32>
  %b = memref.cast %B : memref<64x8xf32> to memref<?x?xf32>
  %c = memref.cast %C : memref<64x8xf32> to memref<?x?xf32>
  %w = memref.cast %W : memref<8x8xf32> to memref<?x?xf32>
  %o = memref.cast %O : memref<64x8xf32> to memref<?x?xf32>
  func.call @fill(%a, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%b, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%c, %c3) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%w, %c4) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%o, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @chain(%A, %B, %C, %W, %O, %lb, %ub, %step) : (memref<64x8xf32>, memref<64x8xf32>, memref<64x8xf32>, memref<8x8xf32>, memref<64x8xf32>, index, index, index) -> ()
  %u = memref.cast %O : memref<64x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @run_large(%lb: index, %ub: index, %step: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %G0 = memref.alloc() : memref<32x4xf32>
  %G1 = memref.alloc() : memref<32x4xf32>
  %O = memref.alloc() : memref<32x4xf32>
  %g0 = memref.cast %G0 : memref<32x4xf32> to memref<?x?xf32>
  %g1 = memref.cast %G1 : memref<32x4xf32> to memref<?x?xf32>
  %o = memref.cast %O : memref<32x4xf32> to memref<?x?xf32>
  func.call @fill(%g0, %c1) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%g1, %c2) : (memref<?x?xf32>, index) -> ()
  func.call @fill(%o, %c3) : (memref<?x?xf32>, index) -> ()
  func.call @large(%G0, %G1, %O, %lb, %ub, %step) : (memref<32x4xf32>, memref<32x4xf32>, memref<32x4xf32>, index, index, index) -> ()
  %u = memref.cast %O : memref<32x4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Dynamic trip counts 0, 1, 2, 3, 8, and a lower bound above 0 with a
// larger step.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %c24 = arith.constant 24 : index
  %c56 = arith.constant 56 : index
  %c64 = arith.constant 64 : index
  func.call @run_chain(%c0, %c0, %c8) : (index, index, index) -> ()
  func.call @run_chain(%c0, %c8, %c8) : (index, index, index) -> ()
  func.call @run_chain(%c0, %c16, %c8) : (index, index, index) -> ()
  func.call @run_chain(%c0, %c24, %c8) : (index, index, index) -> ()
  func.call @run_chain(%c0, %c64, %c8) : (index, index, index) -> ()
  func.call @run_chain(%c8, %c56, %c16) : (index, index, index) -> ()
  func.call @run_large(%c0, %c0, %c2) : (index, index, index) -> ()
  func.call @run_large(%c0, %c2, %c2) : (index, index, index) -> ()
  func.call @run_large(%c0, %c4, %c2) : (index, index, index) -> ()
  func.call @run_large(%c0, %c6, %c2) : (index, index, index) -> ()
  func.call @run_large(%c0, %c16, %c2) : (index, index, index) -> ()
  func.call @run_large(%c1, %c16, %c3) : (index, index, index) -> ()
  return
}
