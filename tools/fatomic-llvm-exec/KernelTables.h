//===- KernelTables.h - Tables and loading shared by the host tools -------===//
//
// What fatomic-llvm-exec and fatomic-llvm-race both need: the atomicrmw
// float operations with the NaN policy each defaults to, the scalar types
// the kernels are generated for, and loading a compiled kernel library
// together with the `--options` text it was lowered under.  Each tool keeps
// its own orderings and kernel shapes.
//
//===----------------------------------------------------------------------===//

#ifndef FATOMIC_TOOLS_LLVM_EXEC_KERNELTABLES_H
#define FATOMIC_TOOLS_LLVM_EXEC_KERNELTABLES_H

#include "fatomic/Options.h"
#include "fatomic/OrderMap.h"

#include <dlfcn.h>

#include <cstdio>
#include <optional>
#include <string>

namespace fatomic {
namespace hosttools {

/// An atomicrmw float operation and the NaN policy its name implies.
struct RmwOp {
  const char *Name;
  FloatOp Op;
  NanPolicy Default;
};
inline constexpr RmwOp RmwOps[] = {
    {"fmin", FloatOp::Min, NanPolicy::Number},
    {"fmax", FloatOp::Max, NanPolicy::Number},
    {"fminimum", FloatOp::Min, NanPolicy::Propagate},
    {"fmaximum", FloatOp::Max, NanPolicy::Propagate}};

/// A scalar float type: its short name in kernel names, its IR spelling and
/// its width in bits.
struct ScalarType {
  const char *Short;
  const char *IR;
  unsigned Width;
};
inline constexpr ScalarType ScalarTypes[] = {
    {"f16", "half", 16}, {"f32", "float", 32}, {"f64", "double", 64}};

/// The atomicrmw operation called \p Name, or null.
inline const RmwOp *findRmwOp(const std::string &Name) {
  for (const RmwOp &R : RmwOps)
    if (Name == R.Name)
      return &R;
  return nullptr;
}

/// The scalar type whose short name is \p Short, or null.
inline const ScalarType *findScalarType(const std::string &Short) {
  for (const ScalarType &T : ScalarTypes)
    if (Short == T.Short)
      return &T;
  return nullptr;
}

/// The atomicrmw name of \p Op under its default policy \p DefaultPolicy.
inline const char *rmwName(FloatOp Op, NanPolicy DefaultPolicy) {
  for (const RmwOp &R : RmwOps)
    if (R.Op == Op && R.Default == DefaultPolicy)
      return R.Name;
  return "?";
}

/// Parses the lowering options \p Text; on an error prints it after
/// \p Tool's name and returns nothing.
inline std::optional<LoweringOptions> loadOptions(const char *Tool,
                                                  const std::string &Text) {
  std::string Error;
  std::optional<LoweringOptions> Opts = parseOptions(Text, Error);
  if (!Opts)
    std::fprintf(stderr, "%s: %s\n", Tool, Error.c_str());
  return Opts;
}

/// Opens the compiled kernel library \p Path (every symbol bound now, none
/// made global); on an error prints dlerror() after \p Tool's name and
/// returns null.
inline void *openKernels(const char *Tool, const char *Path) {
  void *Lib = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    std::fprintf(stderr, "%s: %s\n", Tool, dlerror());
  return Lib;
}

} // namespace hosttools
} // namespace fatomic

#endif // FATOMIC_TOOLS_LLVM_EXEC_KERNELTABLES_H
