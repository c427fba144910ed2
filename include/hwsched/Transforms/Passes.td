//===- Passes.td - hwsched passes ------------------------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_TRANSFORMS_PASSES
#define HWSCHED_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def HwschedAttachTargetSpec : Pass<"hwsched-attach-target-spec"> {
  let summary = "Records a hardware spec on the op as #dlti.target_system_spec";
  let description = [{
    The pass form of `transform.hwsched.attach_target_spec`, for pipelines
    that set the target before any transform script runs: hwsched ops
    without their own `target` then use this spec, and upstream DLTI queries
    read its figures.

    ```
    hwsched-opt --hwsched-attach-target-spec=target=ascend-910b in.mlir
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "Spec name or path (default: the driver's default target)">,
  ];
  let dependentDialects = ["::mlir::DLTIDialect"];
}

def HwschedConvertVectorToNvgpu : Pass<"hwsched-convert-vector-to-nvgpu"> {
  let summary = "convert-vector-to-gpu{use-nvgpu}, taking bf16 inputs too";
  let description = [{
    Converts warp-level vector ops (`vector.contract` of mma.sync shapes and
    the transfers that feed and store them) to `nvgpu.ldmatrix`,
    `nvgpu.mma.sync` and per-lane loads and stores, as upstream's
    `convert-vector-to-gpu{use-nvgpu}` does (its prepare patterns, then its
    mma.sync conversion), with one difference: bf16 inputs are taken.
    MLIR 22's fragment table has f16 but no bf16, though bf16 fragments have
    the same register layout (two 16-bit elements per 32-bit register, the
    m16n8k16 and ldmatrix tilings alike). Where the op holds bf16 values it
    converts them as f16 stand-ins and retypes them bf16 afterwards, so the
    result has bf16 `nvgpu.ldmatrix` and `nvgpu.mma.sync` ops (lower the
    latter with `transform.apply_patterns.hwsched.mma_sync_bf16_to_nvvm`:
    `convert-nvgpu-to-nvvm` cannot).

    The stand-in is exact where bf16 values are only moved: the pass fails,
    with an error at the op and the IR unchanged, when the op already holds
    f16 values or an op other than a load, store, copy, constant, element
    rearrangement, region plumbing or a contraction's A and B handles bf16
    values (those refusals come before any change). Without bf16 it is the
    upstream conversion; a failure inside upstream's patterns can leave
    them partly applied, as the upstream pass does.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def HwschedEraseMemorySpaces : Pass<"hwsched-erase-memory-spaces"> {
  let summary = "Drops memory spaces from every memref type";
  let description = [{
    Rewrites every memref type in the IR (values, block arguments, function
    types, type attributes such as memref.global's) to the default memory
    space. The CPU has no shared memory or unified buffer, so this is what
    lets the execution checks run GPU- and NPU-shaped IR with mlir-runner;
    it is a testing aid, not part of a real lowering.
  }];
}

def HwschedEmulateNpuSync : Pass<"hwsched-emulate-npu-sync", "::mlir::ModuleOp"> {
  let summary = "Lowers hwsched_npu set_flag/wait_flag to checked CPU bookkeeping";
  let description = [{
    A testing aid for the CPU execution checks (utils/exec-check.py with
    `--pre-lower-pass-args=--hwsched-emulate-npu-sync`): every
    `hwsched_npu.set_flag` / `wait_flag` becomes a load, a `cf.assert` and a
    store on a private global flag table (one i32 per source pipe,
    destination pipe and event id), and every `func.return` of a function
    that uses flags asserts that no flag is left set. A run then aborts with
    a message on stderr naming the op and its location (the check writes it
    with `write(2, ...)` and calls `abort()`) when

    - a `wait_flag` finds its flag clear (no earlier `set_flag`: a deadlock
      on the hardware),
    - a `set_flag` finds its flag already set (set twice without a
      `wait_flag` in between: illegal on the hardware),
    - an event id is outside [0, 8),
    - a function returns with a flag still set (an unbalanced `set_flag`).

    The single-threaded CPU run executes the program order, so this checks
    that the flags are balanced and ordered along the executed path; it does
    not model the pipes' concurrency. That a pipe running ahead of the others
    never sets an event again before the previous set was waited for is
    guaranteed by the planner of `transform.pipeline.schedule_stages`
    (lib/CostModel/NpuFlagPlanning.cpp, checkHardwareOrder), not checked here.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def HwschedEmulateAsyncCopies
    : Pass<"hwsched-emulate-async-copies", "::mlir::ModuleOp"> {
  let summary = "Lowers nvgpu async copies, groups and waits to deferred CPU copies";
  let description = [{
    A testing aid for the CPU execution checks (utils/exec-check.py
    `--emulate-async-copies`). Every `nvgpu.device_async_copy` becomes a call
    to a small C runtime (`libhwsched_async_emu.so`, built from
    lib/Runtime/AsyncCopyEmu.c, passed to mlir-runner with `-shared-libs`)
    that snapshots the source elements (zero-filling past `src_elements`,
    ignoring `bypassL1`) and holds the copy pending;
    `nvgpu.device_async_create_group` closes the open group of pending
    copies; `nvgpu.device_async_wait {numGroups = n}` performs, oldest
    first, the copies of every closed group except the `n` most recent (no
    `numGroups`: all of them). Every `func.return` of a function that issues
    copies checks that none is pending (the run aborts with a message on
    stderr otherwise). The runtime keeps the pending copies and groups per
    thread, as the GPU does: in a `gpu.launch` emulated by
    `--hwsched-emulate-gpu-launch` (run that pass first) a wait completes
    the calling thread's copies only, and each thread checks at the end of
    its `omp.parallel` region that none of its own is pending.

    So the copies land exactly when the waits say they have: a wait count
    that lets a needed group stay in flight leaves the destination stale
    and the before/after outputs differ. Addresses are computed with
    `memref.extract_strided_metadata` and
    `memref.extract_aligned_pointer_as_index`; run
    `--hwsched-erase-memory-spaces` after this pass (the copy op does not
    verify once its destination has lost the shared-memory space). Tokens
    carry nothing here: they are replaced by one `ub.poison` per function
    and the `scf.for` iter_args and `scf.if` results that threaded them
    (pipelined loops, predicated prologues) are folded away by those ops'
    canonicalization patterns; a token still used elsewhere (e.g. returned
    from the function) is an op error.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::ub::UBDialect"];
}

def HwschedEmulateGpuLaunch
    : Pass<"hwsched-emulate-gpu-launch", "::mlir::ModuleOp"> {
  let summary = "Runs each gpu.launch as OpenMP threads on the CPU, one team "
                "per block";
  let description = [{
    A testing aid for the CPU execution checks (utils/exec-check.py
    `--emulate-gpu-launch`): a `gpu.launch` whose block sizes are constants
    becomes CPU code in which the threads of a block really run
    concurrently, so that what the threads exchange through workgroup
    memory, and the barriers that order it, is exercised as on the GPU.

    - The blocks run one after the other: `scf.for` loops over the block
      ids, z outermost (grid sizes need not be constants).
    - Each block is one `omp.parallel` team of `num_threads` = bx*by*bz
      threads; a thread's ids come from `omp_get_thread_num()`, x fastest
      (thread number = x + bx * (y + by * z)). Each thread first checks that
      the team is complete (`omp_get_num_threads()`; the run aborts with a
      message on stderr otherwise): an OpenMP runtime may start fewer
      threads than asked for.
    - The launch's id and size block arguments and the `gpu.thread_id`,
      `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim` and `gpu.global_id`
      ops become those values; `gpu.lane_id`, `gpu.subgroup_id`,
      `gpu.num_subgroups` and `gpu.subgroup_size` follow from the thread
      number and `subgroup-size`.
    - `gpu.barrier` becomes `omp.barrier` (all threads of the team).
    - Workgroup memory is allocated once per block, before its team, and
      freed after it: the launch's workgroup attributions, and the
      `memref.alloc`s in workgroup memory (`#gpu.address_space<workgroup>`
      or the integer space 3) at the top level of the body (moved out of
      the team, with their `memref.dealloc`s). Private attributions become
      a `memref.alloca` per thread; other allocations (allocas, private or
      global memory) stay where they are, per thread.

    Every lane runs a warp-level op (a vector contraction a warp computes
    together on the GPU) by itself: redundant, but correct when the lanes
    write the same values.

    A launch that cannot be emulated is an op error naming the property:
    async dependencies or token, cluster sizes, a block size that is not a
    constant, a body of several blocks, a workgroup allocation below the
    top level of the body (or sized by a value of the body), a gpu op other
    than the ones above (`gpu.shuffle`, reductions, `gpu.dynamic_shared_memory`,
    a nested launch), an nvgpu op other than the async copies, groups and
    waits.

    Run it before `--hwsched-erase-memory-spaces` (it finds workgroup memory
    by its address space) and before `--hwsched-emulate-async-copies`
    (whose runtime keeps the pending copies per thread, and which then
    also checks at the end of each thread that its copies have landed).
    The lowered program calls the OpenMP runtime
    (`libomp.so`); with many threads on few cores, run it with
    `OMP_WAIT_POLICY=passive` (exec-check does) so that threads waiting at
    a barrier yield their core.
  }];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "Threads per subgroup (warp) for gpu.lane_id, gpu.subgroup_id, "
           "gpu.num_subgroups and gpu.subgroup_size">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect",
                           "::mlir::scf::SCFDialect"];
}

def HwschedHoistParallelAllocas : Pass<"hwsched-hoist-parallel-allocas"> {
  let summary = "Moves static allocas of OpenMP loop iterations to the "
                "parallel region (one buffer per thread)";
  let description = [{
    `convert-scf-to-openmp` wraps each iteration of a parallel loop in a
    `memref.alloca_scope`, whose region must stay one block; lowering the
    `scf.for` loops inside it to `cf` (as every CPU lowering does) then
    fails to verify. This pass moves every `memref.alloca` of static shape
    that sits directly in such a scope (inside an `omp.parallel`) to the
    start of the parallel region: each thread then allocates the buffer once
    on its own stack and reuses it for all its iterations, which is legal
    because an alloca's contents are undefined on entry anyway. Scopes left
    without allocas are inlined (their canonicalization). The CPU matmul
    schedule's packed B panels are such allocas
    (`@hwsched_cpu_parallelize` in transform-scripts/cpu-matmul.mlir).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::omp::OpenMPDialect"];
}

#endif // HWSCHED_TRANSFORMS_PASSES
