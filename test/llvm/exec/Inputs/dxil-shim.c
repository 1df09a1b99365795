/*===- dxil-shim.c - Host stand-in for the DXIL atomic intrinsics --------===*\
|*                                                                            *|
|* Test-only: lets fatomic-llvm-exec run the DXIL form of the lowering on the *|
|* host.  Implements the four DXIL operations the lowered kernels call, over  *|
|* one host buffer bound as UAV range 0:                                      *|
|*                                                                            *|
|*   %dx.types.Handle @dx.op.createHandle(i32 57, i8 class, i32 range,        *|
|*                                        i32 index, i1 nonuniform)           *|
|*   iN @dx.op.atomicBinOp.iN(i32 78, handle, i32 op, i32 c0, i32 c1,         *|
|*                            i32 c2, iN value)                 (N = 32, 64)  *|
|*   iN @dx.op.atomicCompareExchange.iN(i32 79, handle, i32 c0, i32 c1,       *|
|*                                      i32 c2, iN cmp, iN new)               *|
|*                                                                            *|
|* c0 is the element index (a typed UAV); c1 and c2 must be 0.  Anything the  *|
|* lowering should never produce (a float overload, another opcode or atomic  *|
|* op, a non-zero c1/c2) aborts, so that the test fails.  The calls are       *|
|* counted for the driver.                                                    *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  void *Base;
} DxHandle; /* %dx.types.Handle = type { ptr } */

static void *Bound;
static unsigned long BinOpCalls, CmpXchgCalls;

void fatomic_dxil_bind(void *Base) { Bound = Base; }
unsigned long fatomic_dxil_binop_calls(void) {
  return __atomic_load_n(&BinOpCalls, __ATOMIC_RELAXED);
}
unsigned long fatomic_dxil_cmpxchg_calls(void) {
  return __atomic_load_n(&CmpXchgCalls, __ATOMIC_RELAXED);
}

static void fail(const char *What, long Value) {
  fprintf(stderr, "dxil-shim: unexpected %s %ld\n", What, Value);
  abort();
}

DxHandle createHandle(int32_t Op, int8_t Class, int32_t Range, int32_t Index,
                      _Bool NonUniform) __asm__("dx.op.createHandle");
DxHandle createHandle(int32_t Op, int8_t Class, int32_t Range, int32_t Index,
                      _Bool NonUniform) {
  (void)NonUniform;
  if (Op != 57)
    fail("createHandle opcode", Op);
  if (Class != 1 || Range != 0 || Index != 0)
    fail("resource (only UAV range 0 is bound)", Range);
  DxHandle H = {Bound};
  return H;
}

static void checkCoords(int32_t C1, int32_t C2) {
  if (C1 != 0 || C2 != 0)
    fail("coordinate", C1 ? C1 : C2);
}

/* DXIL::AtomicBinOpCode: IMin 4, IMax 5, UMin 6, UMax 7. */
#define DEFINE_OPS(N, SIGNED, UNSIGNED)                                        \
  static UNSIGNED apply##N(int32_t Op, UNSIGNED Old, UNSIGNED V) {             \
    switch (Op) {                                                              \
    case 4:                                                                    \
      return (SIGNED)V < (SIGNED)Old ? V : Old;                                \
    case 5:                                                                    \
      return (SIGNED)V > (SIGNED)Old ? V : Old;                                \
    case 6:                                                                    \
      return V < Old ? V : Old;                                                \
    case 7:                                                                    \
      return V > Old ? V : Old;                                                \
    }                                                                          \
    fail("atomicBinOp op code", Op);                                           \
    return Old;                                                                \
  }                                                                            \
  UNSIGNED atomicBinOp##N(int32_t Opcode, DxHandle H, int32_t Op, int32_t C0,  \
                          int32_t C1, int32_t C2, UNSIGNED V)                  \
      __asm__("dx.op.atomicBinOp.i" #N);                                       \
  UNSIGNED atomicBinOp##N(int32_t Opcode, DxHandle H, int32_t Op, int32_t C0,  \
                          int32_t C1, int32_t C2, UNSIGNED V) {                \
    if (Opcode != 78)                                                          \
      fail("atomicBinOp opcode", Opcode);                                      \
    checkCoords(C1, C2);                                                       \
    __atomic_fetch_add(&BinOpCalls, 1, __ATOMIC_RELAXED);                      \
    UNSIGNED *P = (UNSIGNED *)H.Base + C0;                                     \
    UNSIGNED Old = __atomic_load_n(P, __ATOMIC_RELAXED);                       \
    while (!__atomic_compare_exchange_n(P, &Old, apply##N(Op, Old, V), 0,      \
                                        __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) { \
    }                                                                          \
    return Old;                                                                \
  }                                                                            \
  UNSIGNED atomicCompareExchange##N(int32_t Opcode, DxHandle H, int32_t C0,    \
                                    int32_t C1, int32_t C2, UNSIGNED Cmp,      \
                                    UNSIGNED New)                              \
      __asm__("dx.op.atomicCompareExchange.i" #N);                             \
  UNSIGNED atomicCompareExchange##N(int32_t Opcode, DxHandle H, int32_t C0,    \
                                    int32_t C1, int32_t C2, UNSIGNED Cmp,      \
                                    UNSIGNED New) {                            \
    if (Opcode != 79)                                                          \
      fail("atomicCompareExchange opcode", Opcode);                            \
    checkCoords(C1, C2);                                                       \
    __atomic_fetch_add(&CmpXchgCalls, 1, __ATOMIC_RELAXED);                    \
    UNSIGNED *P = (UNSIGNED *)H.Base + C0;                                     \
    __atomic_compare_exchange_n(P, &Cmp, New, 0, __ATOMIC_SEQ_CST,             \
                                __ATOMIC_SEQ_CST);                             \
    return Cmp; /* the old value, whether or not it stored */                  \
  }

DEFINE_OPS(32, int32_t, uint32_t)
DEFINE_OPS(64, int64_t, uint64_t)
