// Verifier and parser errors of the hwsched_npu ops.
//
// RUN: hwsched-opt %s --split-input-file --verify-diagnostics

func.func @same_pipe() {
  %c0 = arith.constant 0 : index
  // expected-error @below {{source and destination pipe are both 'cube': a pipe executes in order and needs no flag}}
  hwsched_npu.set_flag cube -> cube, %c0
  return
}

// -----

func.func @event_too_large() {
  %c8 = arith.constant 8 : index
  // expected-error @below {{event id 8 out of range [0, 8)}}
  hwsched_npu.wait_flag mte2 -> vector, %c8
  return
}

// -----

func.func @event_negative() {
  %cm1 = arith.constant -1 : index
  // expected-error @below {{event id -1 out of range [0, 8)}}
  hwsched_npu.set_flag mte2 -> vector, %cm1
  return
}

// -----

func.func @unknown_pipe_keyword(%ev: index) {
  // expected-error @below {{unknown pipe 'tensor_core'}}
  hwsched_npu.set_flag tensor_core -> vector, %ev
  return
}

// -----

// The generic form bypasses the parser: the verifier checks the names.
func.func @unknown_pipe_generic(%ev: index) {
  // expected-error @below {{unknown destination pipe 'mte4' (expected one of mte1, mte2, mte3, cube, vector, scalar, fixpipe)}}
  "hwsched_npu.wait_flag"(%ev) {src_pipe = "mte2", dst_pipe = "mte4"} : (index) -> ()
  return
}

// -----

func.func @unknown_source_generic(%ev: index) {
  // expected-error @below {{unknown source pipe 'async_copy'}}
  "hwsched_npu.set_flag"(%ev) {src_pipe = "async_copy", dst_pipe = "cube"} : (index) -> ()
  return
}

