; Kernels of exec/cache-bfloat.test: three monotonic float min/max atomics
; on bfloat at one address in a spir_kernel, so that the bound cache
; (lib/LLVM/BoundCache.h) applies; operands and results pass as i16.  The
; *_used kernels store the three results after the last atomic (stores
; that no atomic follows keep the cache), which makes the cache exact.
; The driver, cache-bfloat.c, checks them against a reference.

define spir_kernel void @fmin_unused(ptr %p, i16 %a, i16 %b, i16 %c) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmin ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmin ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmin ptr %p, bfloat %vc monotonic, align 2
  ret void
}

define spir_kernel void @fmax_unused(ptr %p, i16 %a, i16 %b, i16 %c) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmax ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmax ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmax ptr %p, bfloat %vc monotonic, align 2
  ret void
}

define spir_kernel void @fminimum_unused(ptr %p, i16 %a, i16 %b, i16 %c) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fminimum ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fminimum ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fminimum ptr %p, bfloat %vc monotonic, align 2
  ret void
}

define spir_kernel void @fmaximum_unused(ptr %p, i16 %a, i16 %b, i16 %c) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmaximum ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmaximum ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmaximum ptr %p, bfloat %vc monotonic, align 2
  ret void
}

define spir_kernel void @fmin_used(ptr %p, i16 %a, i16 %b, i16 %c, ptr %out) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmin ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmin ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmin ptr %p, bfloat %vc monotonic, align 2
  %ox = getelementptr i16, ptr %out, i64 0
  store bfloat %x, ptr %ox, align 2
  %oy = getelementptr i16, ptr %out, i64 1
  store bfloat %y, ptr %oy, align 2
  %oz = getelementptr i16, ptr %out, i64 2
  store bfloat %z, ptr %oz, align 2
  ret void
}

define spir_kernel void @fmax_used(ptr %p, i16 %a, i16 %b, i16 %c, ptr %out) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmax ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmax ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmax ptr %p, bfloat %vc monotonic, align 2
  %ox = getelementptr i16, ptr %out, i64 0
  store bfloat %x, ptr %ox, align 2
  %oy = getelementptr i16, ptr %out, i64 1
  store bfloat %y, ptr %oy, align 2
  %oz = getelementptr i16, ptr %out, i64 2
  store bfloat %z, ptr %oz, align 2
  ret void
}

define spir_kernel void @fminimum_used(ptr %p, i16 %a, i16 %b, i16 %c, ptr %out) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fminimum ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fminimum ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fminimum ptr %p, bfloat %vc monotonic, align 2
  %ox = getelementptr i16, ptr %out, i64 0
  store bfloat %x, ptr %ox, align 2
  %oy = getelementptr i16, ptr %out, i64 1
  store bfloat %y, ptr %oy, align 2
  %oz = getelementptr i16, ptr %out, i64 2
  store bfloat %z, ptr %oz, align 2
  ret void
}

define spir_kernel void @fmaximum_used(ptr %p, i16 %a, i16 %b, i16 %c, ptr %out) {
  %va = bitcast i16 %a to bfloat
  %vb = bitcast i16 %b to bfloat
  %vc = bitcast i16 %c to bfloat
  %x = atomicrmw fmaximum ptr %p, bfloat %va monotonic, align 2
  %y = atomicrmw fmaximum ptr %p, bfloat %vb monotonic, align 2
  %z = atomicrmw fmaximum ptr %p, bfloat %vc monotonic, align 2
  %ox = getelementptr i16, ptr %out, i64 0
  store bfloat %x, ptr %ox, align 2
  %oy = getelementptr i16, ptr %out, i64 1
  store bfloat %y, ptr %oy, align 2
  %oz = getelementptr i16, ptr %out, i64 2
  store bfloat %z, ptr %oz, align 2
  ret void
}
