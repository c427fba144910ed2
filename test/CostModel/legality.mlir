// RUN: hwsched-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Reduction along a dim that the producer's scf.forall splits across
// parallel workers: racy partial results, rejected on every target. A
// reduction along the other (unsplit) dim is legal.

func.func @split_reduction(%x: tensor<64x64xf32>, %out: tensor<64x64xf32>, %acc: tensor<64xf32>)
    -> (tensor<64xf32>, tensor<64xf32>) {
  %r = scf.forall (%j) in (4) shared_outs(%o = %out) -> tensor<64x64xf32> {
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%j)
    %xs = tensor.extract_slice %x[0, %off] [64, 16] [1, 1] : tensor<64x64xf32> to tensor<64x16xf32>
    %os = tensor.extract_slice %o[0, %off] [64, 16] [1, 1] : tensor<64x64xf32> to tensor<64x16xf32>
    %e = linalg.exp {producer} ins(%xs : tensor<64x16xf32>) outs(%os : tensor<64x16xf32>) -> tensor<64x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[0, %off] [64, 16] [1, 1] : tensor<64x16xf32> into tensor<64x64xf32>
    }
  }
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.exp' on nvidia-a100: reject (illegal: the consumer reduces along dim 1 which the producer's scf.forall splits across parallel workers (fusing gives racy partial results))}}
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<64x64xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32):
    %a = arith.addf %s, %v : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.exp' on nvidia-a100: fuse}}
  // expected-remark @below {{fusable}}
  %cols = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<64x64xf32>) outs(%acc : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32):
    %a = arith.addf %s, %v : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  return %rows, %cols : tensor<64xf32>, tensor<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match attributes {producer} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer operand defined after the producer does not dominate the
// fusion point (consumer fusion moves the consumer next to the producer).
// A side-effect-free definition can be moved before it, so where it is
// printed does not matter (@movable, the same decision as with %late
// defined first); one computed from the producer (@from_producer) or with
// memory effects (@effects) cannot.

func.func @movable(%x: tensor<256xf32>, %y: tensor<256xf32>, %z: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %p = linalg.add {producer} ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %late = linalg.mul ins(%z, %z : tensor<256xf32>, tensor<256xf32>) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  %e3 = tensor.empty() : tensor<256xf32>
  // expected-remark @below {{fusion of 'linalg.sub' into 'linalg.add' on ascend-910b: fuse}}
  %c = linalg.sub ins(%p, %late : tensor<256xf32>, tensor<256xf32>) outs(%e3 : tensor<256xf32>) -> tensor<256xf32>
  return %c : tensor<256xf32>
}

func.func @from_producer(%x: tensor<256xf32>, %y: tensor<256xf32>, %z: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %p = linalg.add {producer} ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  // expected-remark @below {{fusion of 'linalg.mul' into 'linalg.add' on ascend-910b: fuse}}
  %late = linalg.mul ins(%p, %z : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  // expected-remark @below {{fusion of 'linalg.sub' into 'linalg.add' on ascend-910b: reject (illegal: consumer operand #1 (defined by linalg.mul) does not dominate the fusion point and cannot be moved before it: it is computed from the producer)}}
  %c = linalg.sub ins(%p, %late : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  return %c : tensor<256xf32>
}

func.func private @read_sensor() -> tensor<256xf32>

func.func @effects(%x: tensor<256xf32>, %y: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %p = linalg.add {producer} ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %late = func.call @read_sensor() : () -> tensor<256xf32>
  // expected-remark @below {{fusion of 'linalg.sub' into 'linalg.add' on ascend-910b: reject (illegal: consumer operand #1 (defined by func.call) does not dominate the fusion point and cannot be moved before it: 'func.call' has memory effects, so it cannot be moved before the producer)}}
  %c = linalg.sub ins(%p, %late : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  return %c : tensor<256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match attributes {producer} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "ascend-910b", explain} : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %c : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{fusable: 2 : i64}}
    transform.debug.emit_param_as_remark %n, "fusable:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Back-to-back GEMMs: the second GEMM contracts over the first one's N
// (128). Its own N must fit the first GEMM's N tile: 64 does, 256 does not.

func.func @b2b_gemm(%A: tensor<64x32xf32>, %B: tensor<32x128xf32>, %C1: tensor<128x64xf32>,
                    %C2: tensor<128x256xf32>, %o1: tensor<64x128xf32>, %o2: tensor<64x64xf32>,
                    %o3: tensor<64x256xf32>) -> (tensor<64x64xf32>, tensor<64x256xf32>) {
  %mm1 = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x128xf32>) outs(%o1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  // expected-remark @below {{fusion of 'linalg.matmul' into 'linalg.matmul' on nvidia-a100: fuse}}
  // expected-remark @below {{fusable}}
  %mm2 = linalg.matmul ins(%mm1, %C1 : tensor<64x128xf32>, tensor<128x64xf32>) outs(%o2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{fusion of 'linalg.matmul' into 'linalg.matmul' on nvidia-a100: reject (illegal: back-to-back GEMM violates threadblock residence, the second GEMM's N = 256 does not fit the first GEMM's N tile = 128)}}
  %mm3 = linalg.matmul ins(%mm1, %C2 : tensor<64x128xf32>, tensor<128x256xf32>) outs(%o3 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %mm2, %mm3 : tensor<64x64xf32>, tensor<64x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %mm1, %mm2, %mm3 = transform.split_handle %mms : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.cost_model.filter_fusable_consumers %mm1 {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %c, "fusable" : !transform.any_op
    transform.yield
  }
}

// -----

// Back-to-back GEMMs where the first GEMM is tiled along its N: the second
// GEMM needs whole rows of the first's result, which one tile does not hold.

func.func @b2b_gemm_tiled(%A: tensor<64x32xf32>, %B: tensor<32x128xf32>, %C1: tensor<128x64xf32>,
                          %o1: tensor<64x128xf32>, %o2: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %mm1 = scf.forall (%j) in (4) shared_outs(%o = %o1) -> tensor<64x128xf32> {
    %off = affine.apply affine_map<(d0) -> (d0 * 32)>(%j)
    %bs = tensor.extract_slice %B[0, %off] [32, 32] [1, 1] : tensor<32x128xf32> to tensor<32x32xf32>
    %os = tensor.extract_slice %o[0, %off] [64, 32] [1, 1] : tensor<64x128xf32> to tensor<64x32xf32>
    %t = linalg.matmul {producer} ins(%A, %bs : tensor<64x32xf32>, tensor<32x32xf32>) outs(%os : tensor<64x32xf32>) -> tensor<64x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[0, %off] [64, 32] [1, 1] : tensor<64x32xf32> into tensor<64x128xf32>
    }
  }
  // expected-remark @below {{reject (illegal: the consumer reduces along dim 1 which the producer's scf.forall splits across parallel workers (fusing gives racy partial results)); cost=}}
  %mm2 = linalg.matmul ins(%mm1, %C1 : tensor<64x128xf32>, tensor<128x64xf32>) outs(%o2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %mm2 : tensor<64x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match attributes {producer} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A consumer gathering from the producer's result (embedding-style lookup)
// reads data-dependent positions: fusing would recompute the whole producer.

func.func @gather(%table: tensor<128xf32>, %idx: tensor<64xindex>) -> tensor<64xf32> {
  %e1 = tensor.empty() : tensor<128xf32>
  %e2 = tensor.empty() : tensor<64xf32>
  %scaled = linalg.exp ins(%table : tensor<128xf32>) outs(%e1 : tensor<128xf32>) -> tensor<128xf32>
  // expected-remark @below {{fusion of 'linalg.generic' into 'linalg.exp' on x86-avx512: reject (illegal: the consumer gathers from the producer result (data-dependent positions), fusing would recompute the whole producer for every tile)}}
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<64xindex>) outs(%e2 : tensor<64xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %scaled[%i] : tensor<128xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %g : tensor<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "x86-avx512", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A consumer reading two results of a multi-result producer: both come from
// the producer, so the dominance rule holds and both stay in the fused
// kernel: the only loaded tile is the producer's input (epi=16 = 4x4).

func.func @multi_result(%t: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x16xf32>) outs(%e, %e : tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %w: f32):
    %q = arith.mulf %x, %x : f32
    linalg.yield %q, %x : f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>)
  // expected-remark @below {{fusion of 'linalg.add' into 'linalg.generic' on nvidia-a100: fuse; cost=-0.3333 = +1*reg_pressure(0) +1*coalescing_penalty(0) -1*bandwidth_saved(0.3333); limits: recompute_factor 1 <= 16 (ok), register_floor 1 <= 255 (ok), occupancy_register_budget 60 <= 128 (ok, soft); registers=60 (acc=0 frag=0 epi=16 tmp=32 addr=2}}
  %c = linalg.add ins(%r#0, %r#1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.cost_model.filter_fusable_consumers %p {target = "nvidia-a100", explain} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
