; The integer atomics keep the memory-describing metadata of the original
; (TBAA, target hints such as !amdgpu.no.fine.grained.memory) and its debug
; location.  Such an atomic is written out in place even where the others
; go to helper functions (outline=on, the default): its metadata describes
; this access in this function.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output

define float @md(ptr %p, float %v) !dbg !5 {
; CHECK-LABEL: define float @md(
; CHECK:         load atomic i32, ptr %p monotonic, align 4, !dbg [[LOC:![0-9]+]], !tbaa [[TBAA:![0-9]+]], !amdgpu.no.fine.grained.memory [[EMPTY:![0-9]+]]
; CHECK:         atomicrmw min ptr %p, i32 {{%.*}} monotonic, align 4, !dbg [[LOC]], !tbaa [[TBAA]], !amdgpu.no.fine.grained.memory [[EMPTY]]
; CHECK:         atomicrmw umax ptr %p, i32 {{%.*}} monotonic, align 4, !dbg [[LOC]], !tbaa [[TBAA]], !amdgpu.no.fine.grained.memory [[EMPTY]]
; CHECK:         cmpxchg ptr %p, i32 {{%.*}}, i32 {{%.*}} monotonic monotonic, align 4, !dbg [[LOC]], !tbaa [[TBAA]], !amdgpu.no.fine.grained.memory [[EMPTY]]
; CHECK-NOT:     call
; CHECK:         ret float
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4, !dbg !8, !tbaa !10, !amdgpu.no.fine.grained.memory !13
  ret float %r, !dbg !8
}
; CHECK-NOT: define {{.*}}@fatomic.

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "md.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "md", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
!10 = !{!11, !11, i64 0}
!11 = !{!"float", !12, i64 0}
!12 = !{!"tbaa root"}
!13 = !{}
