#!/usr/bin/env python3
"""Writes transform-scripts/gpu-dispatch.mlir (to stdout).

Upstream `transform.gpu.map_nested_forall_to_threads ... block_dims = [x, y,
z]` takes the block dimensions as a static attribute, where
transform.cost_model.select_tile_config produces them as a parameter. The
sequence generated here turns the parameter into the attribute with a
dispatch table: one entry per value select_tile_config can produce. Each
entry's guard is a nested `transform.sequence failures(propagate)` with
`transform.match.param.cmpi eq` inside a `failures(suppress)` one, and only
marks the payload (an attribute naming the value); then, unguarded, one op
per entry runs on the payload marked with its value (an empty handle for
the others), so a failure of the op itself is reported with its own message
instead of being suppressed with the guard. After the table a check fails
(silenceable) if no entry matched.

hwsched's own ops need no table: every numeric input of theirs takes a
param (`transform.pipeline.schedule_stages %loop params(num_stages = %s)`).

Usage: python3 utils/gen-gpu-dispatch.py > transform-scripts/gpu-dispatch.mlir
(test/Scripts/gpu-dispatch-generated.test checks the file is up to date).
"""

P = "!transform.param<i64>"
H = "!transform.any_op"

# Block dims x, y: powers of two up to 256 with x * y <= 1024 (at most
# gpu.max_threads_per_block on every shipped spec). select_tile_config's
# thread counts (x = BN / TN, y = BM / TM) are looked up rounded up to
# powers of two: map_nested_forall_to_threads predicates the threads beyond
# a loop's trip count, so a block of 4 x 2 runs a 3 x 2 thread loop.
THREAD_DIMS = [(2 ** a, 2 ** b) for s in range(0, 11)
               for a in range(0, 9) for b in [s - a] if 0 <= b <= 8]


def rounds_to(param, value):
    """The guard lines: `param` rounded up to a power of two is `value`."""
    lines = [f"        %c{param}_hi = transform.param.constant {value} : i64 -> {P}",
             f"        transform.match.param.cmpi le %{param}2, %c{param}_hi : {P}"]
    if value > 1:
        lines += [f"        %c{param}_lo = transform.param.constant {value // 2} : i64 -> {P}",
                  f"        transform.match.param.cmpi gt %{param}2, %c{param}_lo : {P}"]
    return "\n".join(lines)


def threads():
    out = [f"""  // @hwsched_gpu_map_threads(%func, %num_threads): maps the thread-level
  // scf.forall ops of every gpu.launch in %func with
  // transform.gpu.map_nested_forall_to_threads, block_dims = %num_threads
  // (three values x, y, z as select_tile_config's num_threads, z = 1), each
  // of x, y rounded up to a power of two (the threads beyond a loop's trip
  // count are predicated off). = @hwsched_gpu_mark_launch on every launch,
  // then @hwsched_gpu_map_marked_launches.
  transform.named_sequence @hwsched_gpu_map_threads(
      %func: {H} {{transform.readonly}},
      %num_threads: {P} {{transform.readonly}}) {{
    %x, %y, %z = transform.split_handle %num_threads
        : ({P}) -> ({P}, {P}, {P})
    %c1 = transform.param.constant 1 : i64 -> {P}
    transform.match.param.cmpi eq %z, %c1 : {P}
    %launches = transform.structured.match ops{{["gpu.launch"]}} in %func : ({H}) -> {H}
    transform.foreach %launches : {H} {{
    ^bb0(%l: {H}):
      transform.include @hwsched_gpu_mark_launch failures(propagate) (%l, %x, %y)
          : ({H}, {P}, {P}) -> ()
    }}
    transform.include @hwsched_gpu_map_marked_launches failures(propagate) (%func)
        : ({H}) -> ()
    transform.yield
  }}

  // @hwsched_gpu_mark_launch(%launch, %x, %y): marks the gpu.launch %launch
  // `hwsched.block_dims_XxY` with X, Y the powers of two %x, %y round up
  // to. Table: X, Y up to 256, X * Y <= 1024 ({len(THREAD_DIMS)} entries). Only marks: a
  // kernel per launch, each with its own thread counts, then one
  // @hwsched_gpu_map_marked_launches. Silenceable failure when no entry
  // matched (more than 1024 threads, or a count above 256).
  transform.named_sequence @hwsched_gpu_mark_launch(
      %launch: {H} {{transform.readonly}},
      %x: {P} {{transform.readonly}},
      %y: {P} {{transform.readonly}}) {{"""]
    for x, y in THREAD_DIMS:
        out.append(f"""    transform.sequence %launch, %x, %y : {H}, {P}, {P} failures(suppress) {{
    ^bb0(%l: {H}, %px: {P}, %py: {P}):
      transform.sequence %l, %px, %py : {H}, {P}, {P} failures(propagate) {{
      ^bb0(%l2: {H}, %px2: {P}, %py2: {P}):
{rounds_to("px", x)}
{rounds_to("py", y)}
        transform.annotate %l2 "hwsched.block_dims_{x}x{y}" : {H}
      }}
    }}""")
    out.append(f"""    %marked = transform.include @hwsched_gpu_launch_marked failures(propagate) (%launch)
        : ({H}) -> {H}
    %n = transform.num_associations %marked : ({H}) -> {P}
    %one = transform.param.constant 1 : i64 -> {P}
    transform.match.param.cmpi eq %n, %one : {P}
    transform.yield
  }}

  // %launch if it carries a hwsched.block_dims_XxY mark, else empty.
  transform.named_sequence @hwsched_gpu_launch_marked(
      %launch: {H} {{transform.readonly}}) -> {H} {{""")
    parts = []
    for x, y in THREAD_DIMS:
        out.append(f"""    %k_{x}x{y} = transform.structured.match ops{{["gpu.launch"]}} attributes{{hwsched.block_dims_{x}x{y}}} in %launch : ({H}) -> {H}""")
        parts.append(f"%k_{x}x{y}")
    out.append(f"""    %all = transform.merge_handles {", ".join(parts)} : {H}
    transform.yield %all : {H}
  }}

  // @hwsched_gpu_map_marked_launches(%func): every gpu.launch of %func
  // marked by @hwsched_gpu_mark_launch gets
  // transform.gpu.map_nested_forall_to_threads with its block_dims. The
  // mappings run unguarded, so their own failures are reported as they are.
  // Silenceable failure when an scf.forall is left.
  transform.named_sequence @hwsched_gpu_map_marked_launches(
      %func: {H} {{transform.readonly}}) {{""")
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


HEADER = """// transform-scripts/gpu-dispatch.mlir: static-attribute dispatch for the GPU
// scripts. GENERATED by utils/gen-gpu-dispatch.py: edit that, not this file.
//
// Upstream transform.gpu.map_nested_forall_to_threads takes block_dims as a
// static attribute, while transform.cost_model.select_tile_config gives the
// block dims as a parameter. This sequence turns the parameter into the
// attribute: one entry per value select_tile_config can produce. (hwsched's
// own ops take params directly: schedule_stages params(num_stages = %s).)
// An entry's guard (transform.match.param.cmpi in a nested failures(suppress)
// sequence; a non-matching entry is skipped with the payload untouched) only
// marks the payload with the value; then one op per entry runs, unguarded, on
// the payload marked with its value (an empty handle for all others), so the
// op's own failures are not suppressed. A final check fails if no entry
// matched.
// Used by transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined and
// @gpu_matmul_split_k;
// preload both files (or the directory)."""


def main():
    print(HEADER)
    print("module attributes {transform.with_named_sequence} {")
    print(threads())
    print("}")


if __name__ == "__main__":
    main()
