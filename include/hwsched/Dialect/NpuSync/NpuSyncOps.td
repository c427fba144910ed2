//===- NpuSyncOps.td - NPU pipe synchronisation ops ------------*- tablegen -*-===//
//
// Part of the hwsched project.
//
//===----------------------------------------------------------------------===//

#ifndef HWSCHED_DIALECT_NPUSYNC_NPUSYNCOPS
#define HWSCHED_DIALECT_NPUSYNC_NPUSYNCOPS

include "mlir/IR/OpBase.td"

def HwschedNpu_Dialect : Dialect {
  let name = "hwsched_npu";
  let cppNamespace = "::hwsched::npu";
  let summary = "Ascend-style synchronisation between the pipes of one NPU core";
  let description = [{
    An Ascend AI core issues instructions to independent in-order pipes: the
    copy engines MTE1/MTE2/MTE3 (MTE2 copies global memory in, MTE3 copies
    out), the cube (matrix) unit, the vector unit, the scalar unit and the
    fixpipe. Instructions on different pipes run concurrently; an
    instruction that depends on another pipe's result waits for a hardware
    event flag that the other pipe sets once every instruction it issued
    before the `set_flag` has completed.

    This dialect is the payload form of that mechanism, as emitted by
    `transform.pipeline.schedule_stages` on targets whose spec says
    `pipeline.sync = "npu_flag"`. Pipe names are the spec's
    `pipeline.units` names: `mte1`, `mte2`, `mte3`, `cube`, `vector`,
    `scalar`, `fixpipe`. A flag is identified by (source pipe, destination
    pipe, event id); each pipe pair has 8 event ids (0-7), as on Atlas A2 /
    910B (Ascend C `SetFlag<HardEvent>`/`WaitFlag<HardEvent>`, CCE
    intrinsics `set_flag(pipe, tpipe, event)`). A flag holds one bit: a
    second `set_flag` of the same flag before a `wait_flag` consumed the
    first is illegal, and a `wait_flag` with no earlier `set_flag` deadlocks.

    `--hwsched-emulate-npu-sync` turns both ops into checked bookkeeping so
    that a CPU run (utils/exec-check.py) aborts on either mistake.
  }];
}

class HwschedNpu_Op<string mnemonic, list<Trait> traits = []>
    : Op<HwschedNpu_Dialect, mnemonic, traits>;

class HwschedNpu_FlagOp<string mnemonic> : HwschedNpu_Op<mnemonic> {
  let arguments = (ins StrAttr:$src_pipe, StrAttr:$dst_pipe, Index:$event);
  let assemblyFormat = [{
    custom<PipeName>($src_pipe) `->` custom<PipeName>($dst_pipe) `,` $event
    attr-dict
  }];
  let hasVerifier = 1;
}

def HwschedNpu_SetFlagOp : HwschedNpu_FlagOp<"set_flag"> {
  let summary = "Sets an event flag once the source pipe drained";
  let description = [{
    ```mlir
    hwsched_npu.set_flag mte2 -> cube, %event
    ```

    Issued on `src_pipe`: once every instruction issued to `src_pipe` before
    this op has completed, the flag (`src_pipe`, `dst_pipe`, `event`) is set.
    It does not block `src_pipe`. The flag must be clear: setting it again
    before a `wait_flag` consumed it is illegal on the hardware.

    `event` is an index in [0, 8); it may be computed at run time (the
    pipelined loops use one event per ping-pong buffer copy, selected by the
    iteration number).

    The op has no declared memory effects interface and is therefore treated
    as having unknown side effects: no pass may move, duplicate or delete it.

    Verifier: both pipes are known pipe names, they differ (order within one
    pipe is implicit), and a constant `event` is in [0, 8).
  }];
}

def HwschedNpu_WaitFlagOp : HwschedNpu_FlagOp<"wait_flag"> {
  let summary = "Blocks the destination pipe until the flag is set";
  let description = [{
    ```mlir
    hwsched_npu.wait_flag mte2 -> cube, %event
    ```

    Issued on `dst_pipe`: instructions issued to `dst_pipe` after this op
    wait until the flag (`src_pipe`, `dst_pipe`, `event`) is set, then the
    flag is cleared (consumed). A wait with no matching earlier `set_flag`
    never returns (a deadlock on the hardware). Every `set_flag` must be
    consumed by exactly one `wait_flag` before the kernel ends.

    Same operands and verifier as `hwsched_npu.set_flag`.
  }];
}

#endif // HWSCHED_DIALECT_NPUSYNC_NPUSYNCOPS
