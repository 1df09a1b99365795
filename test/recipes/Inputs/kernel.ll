; A reduction kernel's atomics as a front end emits them.
define void @bounds(ptr addrspace(1) %lo, ptr addrspace(1) %hi, float %v) {
  %a = atomicrmw fmin ptr addrspace(1) %lo, float %v syncscope("agent") monotonic, align 4
  %b = atomicrmw fmax ptr addrspace(1) %hi, float %v syncscope("agent") monotonic, align 4
  ret void
}

define double @peak(ptr %p, double %v) {
  %old = atomicrmw fmaximum ptr %p, double %v acquire, align 8
  ret double %old
}
