// A GPU kernel whose shared memory is three gpu.func workgroup attributions
// (a chain: %a and %b overlap, %b and %c overlap, %a and %c do not) plus a
// private attribution that must stay. Input of test/Smem/merge-attributions.mlir.
#ws = #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @attr_kernel(%in: memref<256xf32>, %out: memref<256xf32>)
        workgroup(%a : memref<256xf32, #ws>, %b : memref<128xf32, #ws>,
                  %c : memref<256xf32, #ws>)
        private(%p : memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<256xf32>
      memref.store %v, %a[%tid] : memref<256xf32, #ws>
      %h = arith.remui %tid, %c128 : index
      memref.store %v, %b[%h] : memref<128xf32, #ws>
      gpu.barrier
      %n = arith.subi %c128, %h : index
      %x = memref.load %a[%n] : memref<256xf32, #ws>
      memref.store %x, %c[%tid] : memref<256xf32, #ws>
      %y = memref.load %b[%n] : memref<128xf32, #ws>
      memref.store %y, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      gpu.barrier
      %z = memref.load %c[%n] : memref<256xf32, #ws>
      %q = memref.load %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      %s = arith.addf %z, %q : f32
      memref.store %s, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
