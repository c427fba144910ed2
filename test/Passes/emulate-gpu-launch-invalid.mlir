// --hwsched-emulate-gpu-launch refuses, with an error naming the op and the
// property, the launches it cannot run as CPU threads.
//
// RUN: hwsched-opt %s --split-input-file --hwsched-emulate-gpu-launch \
// RUN:   --verify-diagnostics

func.func @dynamic_block_size(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op block size x is not a positive constant}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @async_launch() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op is asynchronous (async dependencies or token)}}
  %t = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @clusters() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op has cluster sizes}}
  gpu.launch clusters(%cx, %cy, %cz) in (%ncx = %c1, %ncy = %c1, %ncz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @shared_alloc_in_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{'memref.alloc' op allocates workgroup memory inside 'scf.for': hwsched-emulate-gpu-launch shares only the workgroup allocations at the top level of the launch body}}
      %s = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}

// -----

func.func @shared_alloc_sized_in_body() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %n = arith.addi %bx, %c32 : index
    // expected-error @+1 {{'memref.alloc' op has a size computed in the launch body}}
    %s = memref.alloc(%n) : memref<?xf32, 3>
    gpu.terminator
  }
  return
}

// -----

func.func @shuffle(%v: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.shuffle' op has no CPU emulation in hwsched-emulate-gpu-launch}}
    %r, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
    gpu.terminator
  }
  return
}

// -----

func.func @warp_mma(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'nvgpu.mma.sync' op has no per-thread CPU emulation}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]}
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @nested_launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.launch' op is nested in another gpu.launch}}
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %c1, %gy2 = %c1, %gz2 = %c1)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %c1, %sy2 = %c1, %sz2 = %c1) {
      gpu.terminator
    }
    gpu.terminator
  }
  return
}

// -----

// Dynamic shared memory is allocated per block with the launch's
// dynamic_shared_memory_size: a launch without one is refused.
func.func @dynamic_shared_memory() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op is used in a gpu.launch without dynamic_shared_memory_size: hwsched-emulate-gpu-launch allocates that many bytes}}
    %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @dealloc_in_branch(%p: i1) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    scf.if %p {
      // expected-error @+1 {{'memref.dealloc' op frees workgroup memory below the top level of the launch body}}
      memref.dealloc %s : memref<4xf32, #gpu.address_space<workgroup>>
    }
    gpu.terminator
  }
  return
}
