/* Driver of exec/cache-bfloat.test: runs the bfloat kernels of
 * cache-bfloat.ll (lowered, with the bound cache) from one thread on every
 * initial memory word and three operands drawn from a grid of special
 * values (zeros, ones, numbers at and above 2^121, whose exponent field a
 * half's mask reads as a NaN, the largest finite, infinities, NaNs,
 * subnormals), and compares memory and the returned words with a reference
 * in program order: fmin/fmax under `number` (a NaN operand changes
 * nothing, a number replaces a NaN in memory), fminimum/fmaximum under
 * `propagate` (a NaN in memory stays, a NaN operand is stored).  -0 < +0.
 * NaNs compare as NaNs, whatever their bits. */
#include <stdint.h>
#include <stdio.h>

typedef void Unused(uint16_t *, uint16_t, uint16_t, uint16_t);
typedef void Used(uint16_t *, uint16_t, uint16_t, uint16_t, uint16_t *);
Unused fmin_unused, fmax_unused, fminimum_unused, fmaximum_unused;
Used fmin_used, fmax_used, fminimum_used, fmaximum_used;

static const uint16_t Grid[] = {
    0x0000, 0x8000, 0x3F80, 0xBF80, 0x7C00, 0xFC00, 0x7C80, 0xFC80, 0x7E00,
    0xFE00, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0x0001,
    0x8001, 0x7BFF};
enum { N = sizeof Grid / sizeof Grid[0] };

static int isNaN(uint16_t W) { return (W & 0x7FFF) > 0x7F80; }

/* The order map U: an unsigned compare of keys is the float order. */
static uint16_t key(uint16_t W) {
  return (W & 0x8000) ? (uint16_t)~W : (uint16_t)(W | 0x8000);
}

/* Memory after one atomic of the kind (IsMax, Propagate) on Mem with V. */
static uint16_t apply(int IsMax, int Propagate, uint16_t Mem, uint16_t V) {
  if (isNaN(Mem))
    return Propagate || isNaN(V) ? Mem : V;
  if (isNaN(V))
    return Propagate ? V : Mem;
  int VBeyond = IsMax ? key(V) > key(Mem) : key(V) < key(Mem);
  return VBeyond ? V : Mem;
}

static int same(uint16_t Want, uint16_t Got) {
  return isNaN(Want) ? isNaN(Got) : Want == Got;
}

struct Kernel {
  const char *Name;
  Unused *RunUnused;
  Used *RunUsed;
  int IsMax, Propagate;
};

static int check(const struct Kernel *K) {
  int Failures = 0;
  for (int M = 0; M < N; ++M)
    for (int A = 0; A < N; ++A)
      for (int B = 0; B < N; ++B)
        for (int C = 0; C < N; ++C) {
          uint16_t Ops[3] = {Grid[A], Grid[B], Grid[C]};
          uint16_t Want = Grid[M], WantOld[3];
          for (int I = 0; I < 3; ++I) {
            WantOld[I] = Want;
            Want = apply(K->IsMax, K->Propagate, Want, Ops[I]);
          }
          uint16_t Mem = Grid[M], Got[3] = {0, 0, 0};
          if (K->RunUsed)
            K->RunUsed(&Mem, Ops[0], Ops[1], Ops[2], Got);
          else
            K->RunUnused(&Mem, Ops[0], Ops[1], Ops[2]);
          int Ok = same(Want, Mem);
          for (int I = 0; K->RunUsed && I < 3; ++I)
            Ok &= same(WantOld[I], Got[I]);
          if (!Ok && ++Failures <= 5)
            printf("FAIL %s: memory 0x%04x, operands 0x%04x 0x%04x 0x%04x: "
                   "memory 0x%04x (want 0x%04x), results 0x%04x 0x%04x "
                   "0x%04x (want 0x%04x 0x%04x 0x%04x)\n",
                   K->Name, Grid[M], Ops[0], Ops[1], Ops[2], Mem, Want,
                   Got[0], Got[1], Got[2], WantOld[0], WantOld[1],
                   WantOld[2]);
        }
  printf("%s %s\n", Failures ? "FAIL" : "PASS", K->Name);
  return Failures;
}

int main(void) {
  const struct Kernel Kernels[] = {
      {"fmin_unused", fmin_unused, 0, 0, 0},
      {"fmax_unused", fmax_unused, 0, 1, 0},
      {"fminimum_unused", fminimum_unused, 0, 0, 1},
      {"fmaximum_unused", fmaximum_unused, 0, 1, 1},
      {"fmin_used", 0, fmin_used, 0, 0},
      {"fmax_used", 0, fmax_used, 1, 0},
      {"fminimum_used", 0, fminimum_used, 0, 1},
      {"fmaximum_used", 0, fmaximum_used, 1, 1},
  };
  int Failed = 0;
  for (unsigned I = 0; I < sizeof Kernels / sizeof Kernels[0]; ++I)
    Failed += check(&Kernels[I]) != 0;
  printf("%d of 8 kernels failed\n", Failed);
  return 0;
}
