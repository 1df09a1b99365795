; Warp aggregation in a function with debug info, in a loop (result
; unused): every
; instruction it adds, and both helper calls, carry the atomic's debug
; location (the verifier requires one on a call of an inlinable function in
; a function with debug info), and the module stays valid through the
; inliner and -O3 after the pass, and compiles for sm_90.
; REQUIRES: nvptx
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,default<O3>' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,default<O3>' %s | %llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

define void @loop(ptr addrspace(1) %p, ptr addrspace(1) %vals, i32 %n) "target-cpu"="sm_90" !dbg !5 {
entry:
  br label %body

body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %vp = getelementptr inbounds float, ptr addrspace(1) %vals, i32 %i
  %v = load float, ptr addrspace(1) %vp, align 4
  %old = atomicrmw fmax ptr addrspace(1) %p, float %v syncscope("device") monotonic, align 4, !dbg !8
  %i.next = add i32 %i, 1
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; CHECK-LABEL: define void @loop(
; CHECK:       call i32 @llvm.nvvm.activemask(), !dbg [[LOC:![0-9]+]]
; CHECK:       call i32 @llvm.nvvm.redux.sync.umax({{.*}}), !dbg [[LOC]]
; CHECK:       fatomic.warp.elected:
; CHECK:       call float @fatomic.fmax.f32.monotonic.scope.device.p1({{.*}}), !dbg [[LOC]]
; CHECK:       fatomic.warp.join:
; CHECK-NEXT:  br label %fatomic.warp.done, !dbg [[LOC]]
; CHECK:       fatomic.warp.single:
; CHECK-NEXT:  %old = call float @fatomic.fmax.f32.monotonic.scope.device.p1(ptr addrspace(1) %p, float {{%[0-9]+}}), !dbg [[LOC]]
; CHECK:       [[LOC]] = !DILocation(line: 2, column: 3,

; PTX-LABEL: .func loop(
; PTX:       match.all.sync.b64
; PTX:       redux.sync.max.u32
; PTX-NOT:   shfl.sync

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "loop.cu", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "loop", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition | DISPFlagOptimized)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
