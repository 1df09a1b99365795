; The call that replaces an atomic carries the atomic's debug location (the
; verifier requires one on a call of an inlinable function in a function
; with debug info), and an inliner gives it to the inlined body.
; REQUIRES: llvm-plugin
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax' %s | %opt -passes=verify -disable-output
; RUN: %opt -load-pass-plugin=%fatomic_plugin -passes='lower-float-atomic-minmax,always-inline' -S %s | FileCheck %s --check-prefix=INLINED

define float @dbg(ptr %p, float %v) !dbg !5 {
; CHECK-LABEL: define float @dbg(
; CHECK-NEXT:    [[FZV:%[0-9]+]] = freeze float %v
; CHECK-NEXT:    %r = call float @fatomic.fmin.f32.seq_cst(ptr %p, float [[FZV]]), !dbg [[LOC:![0-9]+]]
; CHECK:       [[LOC]] = !DILocation(line: 2, column: 3,
; INLINED-LABEL: define float @dbg(
; INLINED:         atomicrmw min ptr %p, i32 {{%.*}} seq_cst, align 4, !dbg [[LOC:![0-9]+]]
; INLINED:         atomicrmw umax ptr %p, i32 {{%.*}} seq_cst, align 4, !dbg [[LOC]]
; INLINED:       [[LOC]] = !DILocation(line: 2, column: 3,
  %r = atomicrmw fmin ptr %p, float %v seq_cst, align 4, !dbg !8
  ret float %r, !dbg !8
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "dbg.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "dbg", scope: !1, file: !1, line: 1, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !5)
