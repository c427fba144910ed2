// RUN: hwsched-opt %s --hwsched-erase-memory-spaces | FileCheck %s

// CHECK: memref.global "private" @g : memref<4xf32>
memref.global "private" @g : memref<4xf32, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @spaces
// CHECK-SAME: (%{{.*}}: memref<16xf32>, %{{.*}}: memref<*xf16>)
func.func @spaces(%a: memref<16xf32, #gpu.address_space<workgroup>>, %b: memref<*xf16, "ub">) {
  // CHECK: memref.alloc() : memref<8x8xf32>
  %0 = memref.alloc() : memref<8x8xf32, 3>
  // CHECK: memref.subview %{{.*}} : memref<8x8xf32> to memref<4xf32, strided<[1], offset: ?>>
  %c = arith.constant 0 : index
  %1 = memref.subview %0[%c, 0] [1, 4] [1, 1] : memref<8x8xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
  // CHECK: memref.get_global @g : memref<4xf32>
  %2 = memref.get_global @g : memref<4xf32, #gpu.address_space<workgroup>>
  return
}
