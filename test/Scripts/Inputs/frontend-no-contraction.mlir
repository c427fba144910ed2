// No matmul-class op, and a loop whose iter_args swap every iteration
// (one-shot-bufferize rejects it with default options: "Yield operand #0
// is not equivalent to the corresponding iter bbArg"). The matmul entry
// points have nothing to schedule and must leave it exactly as it is (they
// bufferized the whole module and failed with that upstream error).
func.func @swap(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a, %y = %b) -> (tensor<16xf32>, tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %s = linalg.add ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %y, %s : tensor<16xf32>, tensor<16xf32>
  }
  return %r#1 : tensor<16xf32>
}
