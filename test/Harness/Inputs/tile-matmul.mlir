// Transform library for integration_test/Harness/exec-check.mlir (utils/exec-check.py).
// Load with --transform-preload-library=transform-library-paths=<this file>
// and pick a sequence with --transform-interpreter=entry-point=NAME.
module attributes {transform.with_named_sequence} {
  // Semantics-preserving: tile the matmul by [8, 16, 4]. With M=33, N=47,
  // K=29 every loop has a partial last tile.
  transform.named_sequence @tile_matmul(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:3 = transform.structured.tile_using_for %mm tile_sizes [8, 16, 4]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }

  // Deliberately WRONG (negative test of the harness): pad the matmul to
  // multiples of [8, 16, 8] with 1.0 instead of the neutral 0.0 for both
  // operands. K grows from 29 to 32 and the three extra products 1.0 * 1.0
  // add 3.0 to every element before bias and relu.
  transform.named_sequence @wrong_transform(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %padded, %pad, %copy = transform.structured.pad %mm pad_to_multiple_of [8, 16, 8] {
        padding_dimensions = [0, 1, 2],
        padding_values = [1.0 : f32, 1.0 : f32, 0.0 : f32]
      } : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
