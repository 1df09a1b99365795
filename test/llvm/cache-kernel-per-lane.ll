; The bound cache where nothing aggregates (a SPIR-V kernel): before each
; atomic, the operand's key (a NaN under number becomes the identity, all
; ones for fmin) is compared with the slot; a hit skips the atomic, a miss
; runs it and records the better (lower, for fmin) of the key of what it
; found and the operand's.  Two atomics of one kind share the slot, which
; starts as (null, all ones).  With outline=on the atomic is the helper's
; call, whose result feeds the record.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='function(lower-float-atomic-minmax<outline=off>)' -S %s | FileCheck %s --check-prefix=INPLACE

target triple = "spirv64-unknown-unknown"

define spir_kernel void @two(ptr addrspace(1) %p, ptr addrspace(1) %q, float %v, float %w) {
  atomicrmw fmin ptr addrspace(1) %p, float %v monotonic, align 4
  atomicrmw fmin ptr addrspace(1) %q, float %w monotonic, align 4
  ret void
}

; CHECK-LABEL: define spir_kernel void @two(
; CHECK-NOT:  alloca
; CHECK:      select i1 {{%[0-9]+}}, i32 2147483647, i32 {{%[0-9]+}}
; CHECK:      [[KEY:%[0-9]+]] = select i1
; CHECK-NEXT: [[SAME:%[0-9]+]] = icmp eq ptr addrspace(1) %p, null
; CHECK-NEXT: [[BEHIND:%[0-9]+]] = icmp uge i32 [[KEY]], -1
; CHECK-NEXT: [[HIT:%fatomic.cache.hit[0-9]*]] = and i1 [[SAME]], [[BEHIND]]
; CHECK-NEXT: br i1 [[HIT]], label %[[DONE:fatomic.cache.done[0-9]*]], label %[[MISS:fatomic.cache.miss[0-9]*]]
; CHECK:      [[MISS]]:
; CHECK-NEXT: [[OLD:%[0-9]+]] = call spir_func float @fatomic.fmin.f32.monotonic.p1(ptr addrspace(1) %p, float {{%[0-9]+}})
; CHECK-NEXT: bitcast float [[OLD]] to i32
; CHECK:      [[BOUND:%[0-9]+]] = call i32 @llvm.umin.i32(i32 {{%[0-9]+}}, i32 [[KEY]])
; CHECK-NEXT: br label %[[DONE]]
; CHECK:      [[DONE]]:
; CHECK-NEXT: [[B1:%fatomic.cache.bound[.0-9]*]] = phi i32 [ -1, {{%[0-9]+}} ], [ [[BOUND]], %[[MISS]] ]
; CHECK-NEXT: [[P1:%fatomic.cache.ptr[.0-9]*]] = phi ptr addrspace(1) [ null, {{%[0-9]+}} ], [ %p, %[[MISS]] ]
; CHECK:      icmp eq ptr addrspace(1) %q, [[P1]]
; CHECK-NEXT: icmp uge i32 {{%[0-9]+}}, [[B1]]
; CHECK:      call spir_func float @fatomic.fmin.f32.monotonic.p1(ptr addrspace(1) %q, float {{%[0-9]+}})

; INPLACE-LABEL: define spir_kernel void @two(
; INPLACE:       fatomic.cache.miss{{[0-9]*}}:
; INPLACE:       load atomic i32, ptr addrspace(1) %p monotonic
; INPLACE:       fatomic.cache.miss{{[0-9]*}}:
; INPLACE:       load atomic i32, ptr addrspace(1) %q monotonic
; INPLACE-NOT:   atomicrmw f
