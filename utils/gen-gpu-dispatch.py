#!/usr/bin/env python3
"""Writes transform-scripts/gpu-dispatch.mlir (to stdout).

Two upstream / hwsched transform ops take a count as a static attribute
where transform.cost_model.select_tile_config produces a parameter:
`transform.gpu.map_nested_forall_to_threads ... block_dims = [x, y, z]` and
`transform.pipeline.schedule_stages { num_stages = N }`. The sequences
generated here turn the parameter into the attribute with a dispatch table:
one entry per value select_tile_config can produce. Each entry's guard is a
nested `transform.sequence failures(propagate)` with
`transform.match.param.cmpi eq` inside a `failures(suppress)` one, and only
marks the payload (an attribute naming the value); then, unguarded, one op
per entry runs on the payload marked with its value (an empty handle for
the others), so a failure of the op itself is reported with its own message
instead of being suppressed with the guard. After the table a check fails
(silenceable) if no entry matched.

Usage: python3 utils/gen-gpu-dispatch.py > transform-scripts/gpu-dispatch.mlir
(test/Scripts/gpu-dispatch-generated.test checks the file is up to date).
"""

P = "!transform.param<i64>"
H = "!transform.any_op"

# select_tile_config's GPU block dims: x = BN / TN, y = BM / TM with
# BM, BN in {16..256} and TM, TN in {1..16}, all powers of two, and
# 32 <= x * y <= 1024 (a multiple of the warp size, at most
# gpu.max_threads_per_block on every shipped spec).
THREAD_DIMS = [(2 ** a, 2 ** (s - a)) for s in range(5, 11)
               for a in range(0, 9) if 0 <= s - a <= 8]
# schedule_stages clamps to pipeline.max_stages (at most 5 in the shipped
# specs); 8 leaves room for user specs.
STAGES = range(1, 9)


def threads():
    out = [f"""  // @hwsched_gpu_map_threads(%func, %num_threads): maps the thread-level
  // scf.forall ops of every gpu.launch in %func with
  // transform.gpu.map_nested_forall_to_threads, block_dims = %num_threads
  // (three values x, y, z as select_tile_config's num_threads). Table: x, y
  // powers of two up to 256, 32 <= x * y <= 1024, z = 1 ({len(THREAD_DIMS)} entries).
  // The guards only mark the gpu.launch (`hwsched.block_dims_XxY`); the
  // mappings run unguarded, so their own failures are reported as they are.
  // Silenceable failure when no entry matched (an scf.forall is left).
  transform.named_sequence @hwsched_gpu_map_threads(
      %func: {H} {{transform.readonly}},
      %num_threads: {P} {{transform.readonly}}) {{
    %x, %y, %z = transform.split_handle %num_threads
        : ({P}) -> ({P}, {P}, {P})
    %c1 = transform.param.constant 1 : i64 -> {P}
    transform.match.param.cmpi eq %z, %c1 : {P}"""]
    for x, y in THREAD_DIMS:
        out.append(f"""    transform.sequence %func, %x, %y : {H}, {P}, {P} failures(suppress) {{
    ^bb0(%f: {H}, %px: {P}, %py: {P}):
      transform.sequence %f, %px, %py : {H}, {P}, {P} failures(propagate) {{
      ^bb0(%f2: {H}, %px2: {P}, %py2: {P}):
        %cx = transform.param.constant {x} : i64 -> {P}
        %cy = transform.param.constant {y} : i64 -> {P}
        transform.match.param.cmpi eq %px2, %cx : {P}
        transform.match.param.cmpi eq %py2, %cy : {P}
        %l = transform.structured.match ops{{["gpu.launch"]}} in %f2 : ({H}) -> {H}
        transform.annotate %l "hwsched.block_dims_{x}x{y}" : {H}
      }}
    }}""")
    for x, y in THREAD_DIMS:
        out.append(f"""    %l_{x}x{y} = transform.structured.match ops{{["gpu.launch"]}} attributes{{hwsched.block_dims_{x}x{y}}} in %func : ({H}) -> {H}
    %m_{x}x{y} = transform.gpu.map_nested_forall_to_threads %l_{x}x{y} block_dims = [{x}, {y}, 1] : ({H}) -> {H}""")
    out.append(f"""    %left = transform.structured.match ops{{["scf.forall"]}} in %func : ({H}) -> {H}
    %n_left = transform.num_associations %left : ({H}) -> {P}
    %zero = transform.param.constant 0 : i64 -> {P}
    transform.match.param.cmpi eq %n_left, %zero : {P}
    transform.yield
  }}""")
    return "\n".join(out)


def stages():
    out = [f"""  // @hwsched_gpu_schedule_k_loops(%func, %num_stages): runs
  // transform.pipeline.schedule_stages {{ num_stages = %num_stages, explain }}
  // on every scf.for in %func marked `hwsched.gpu_k_loop`, and marks the
  // loops it returns `hwsched.gpu_k_loop_pipelined`. Table: 1..{STAGES[-1]}.
  // The guards only mark the loops (`hwsched.gpu_k_loop_stages_N`); the
  // schedule_stages ops run unguarded, so their own failures (e.g. on-chip
  // capacity exceeded with one stage) are reported as they are. Silenceable
  // failure when the count is outside the table (fewer loops marked
  // pipelined than marked before).
  transform.named_sequence @hwsched_gpu_schedule_k_loops(
      %func: {H} {{transform.readonly}},
      %num_stages: {P} {{transform.readonly}}) {{
    %marked = transform.structured.match ops{{["scf.for"]}} attributes{{hwsched.gpu_k_loop}} in %func
        : ({H}) -> {H}
    %n_marked = transform.num_associations %marked : ({H}) -> {P}"""]
    for n in STAGES:
        out.append(f"""    transform.sequence %func, %num_stages : {H}, {P} failures(suppress) {{
    ^bb0(%f: {H}, %ps: {P}):
      transform.sequence %f, %ps : {H}, {P} failures(propagate) {{
      ^bb0(%f2: {H}, %ps2: {P}):
        %c = transform.param.constant {n} : i64 -> {P}
        transform.match.param.cmpi eq %ps2, %c : {P}
        %loops = transform.structured.match ops{{["scf.for"]}} attributes{{hwsched.gpu_k_loop}} in %f2 : ({H}) -> {H}
        transform.annotate %loops "hwsched.gpu_k_loop_stages_{n}" : {H}
      }}
    }}""")
    for n in STAGES:
        out.append(f"""    %loops_{n} = transform.structured.match ops{{["scf.for"]}} attributes{{hwsched.gpu_k_loop_stages_{n}}} in %func : ({H}) -> {H}
    %p_{n} = transform.pipeline.schedule_stages %loops_{n} {{ num_stages = {n}, explain }} : ({H}) -> {H}
    transform.annotate %p_{n} "hwsched.gpu_k_loop_pipelined" : {H}""")
    out.append(f"""    %done = transform.structured.match ops{{["scf.for"]}} attributes{{hwsched.gpu_k_loop_pipelined}} in %func
        : ({H}) -> {H}
    %n_done = transform.num_associations %done : ({H}) -> {P}
    transform.match.param.cmpi eq %n_done, %n_marked : {P}
    transform.yield
  }}""")
    return "\n".join(out)


HEADER = """// transform-scripts/gpu-dispatch.mlir: static-attribute dispatch for the GPU
// scripts. GENERATED by utils/gen-gpu-dispatch.py: edit that, not this file.
//
// transform.gpu.map_nested_forall_to_threads takes block_dims and
// transform.pipeline.schedule_stages takes num_stages as static attributes,
// while transform.cost_model.select_tile_config gives both as parameters.
// These sequences turn the parameter into the attribute: one entry per value
// select_tile_config can produce. An entry's guard (transform.match.param.cmpi
// in a nested failures(suppress) sequence; a non-matching entry is skipped
// with the payload untouched) only marks the payload with the value; then one
// op per entry runs, unguarded, on the payload marked with its value (an
// empty handle for all others), so the op's own failures are not suppressed.
// A final check fails if no entry matched.
// Used by transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined;
// preload both files (or the directory)."""


def main():
    print(HEADER)
    print("module attributes {transform.with_named_sequence} {")
    print(threads())
    print()
    print(stages())
    print("}")


if __name__ == "__main__":
    main()
