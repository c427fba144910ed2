// Entry point for test/Fusion/epilogue-in-place.mlir: the epilogue of
// @kernel in place, then bufferization of @kernel (function boundaries,
// identity layouts) as the CPU script does it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @in_place_and_bufferize(%module: !transform.any_op {transform.consumed}) {
    %kernel = transform.structured.match ops{["func.func"]} attributes {sym_name = "kernel"} in %module
        : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["linalg.generic"]} in %kernel
        : (!transform.any_op) -> !transform.any_op
    %r = transform.fusion.epilogue_in_place %g : (!transform.any_op) -> !transform.any_op
    transform.apply_dce to %kernel : !transform.any_op
    transform.bufferization.eliminate_empty_tensors %kernel : !transform.any_op
    %b = transform.bufferization.one_shot_bufferize %module {
        bufferize_function_boundaries = true,
        function_boundary_type_conversion = 1 : i32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
