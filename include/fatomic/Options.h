//===- fatomic/Options.h - The lowering's option string -------------------===//
//
// One option string configures the lowering everywhere: the fatomic-opt flag
// `--lower-float-atomic-minmax=OPTIONS`, the LLVM pass parameters
// `lower-float-atomic-minmax<OPTIONS>` and the library API.  Items are
// `key=value`, separated by ',' or ';'; a key given twice takes its last
// value:
//
//   nan=number|propagate|fast      NaN policy (default: follows the operation:
//                                  number for FMin/FMax and fmin/fmax,
//                                  propagate for fminimum/fmaximum)
//   strategy=dispatch|cas          sign-dispatched integer atomic (default) or
//                                  a compare-exchange loop
//   early-out=on|off               atomic load first, skip the RMW when the
//                                  value cannot change memory (default on;
//                                  applied only where legal)
//   native=<feature>[+<feature>]   features the target has natively
//                                  (Target.h names); added to any profile.
//                                  Like every key, a second native=
//                                  replaces the first: name all features
//                                  in one value, joined with '+'
//   images=retype|off              opt in to retyping r32f storage images
//                                  (default off)
//   outline=on|off                 lower each kind of atomic once, in a
//                                  helper function that its atomics call
//                                  (default on), or write the lowering out
//                                  at every atomic (SPIR-V and the LLVM
//                                  module pass; DXIL is always written out)
//   writers=module|any             who may write the memory of a lowered
//                                  atomic while it runs.  module (default):
//                                  only this module's code, so a cheaper
//                                  form is used where the pass proves that
//                                  every write to that memory in the module
//                                  keeps it exact (docs/semantics.md,
//                                  "Concurrency"); any: anything, including
//                                  other shaders, so every atomic gets the
//                                  form that is linearizable against any
//                                  writer
//   aggregate=auto|subgroup|off    combine the operands of a subgroup's
//                                  invocations that hit one address and
//                                  let one of them do the atomic (SPIR-V
//                                  compute shaders, docs/semantics.md).
//                                  auto (default): where the target is
//                                  known to have the subgroup operations
//                                  it needs (a --target-profile or the
//                                  Vulkan layer's device: basic,
//                                  arithmetic, and ballot for used
//                                  results, in compute; extended types for
//                                  64-bit), except an unused 32-bit result
//                                  on buffer memory behind the bound cache
//                                  where the driver combines such atomics
//                                  itself (NVIDIA's proprietary driver);
//                                  subgroup: also where nothing is known of
//                                  them (not where the target is known to
//                                  lack them); off: never
//   cache=on|off                   each invocation remembers a bound its
//                                  memory is known to have reached and
//                                  skips, without touching memory, an
//                                  operation that cannot pass it (default
//                                  on; SPIR-V: unused results of Relaxed
//                                  atomics on memory written only by
//                                  lowered atomics of the same kind, not
//                                  under strategy=cas or early-out=off;
//                                  LLVM: monotonic atomics, results used
//                                  or not, in a kernel that synchronizes
//                                  with nothing; docs/semantics.md, "The
//                                  bound cache")
//
// The empty string is valid and means all defaults.  An unknown key or value
// is an error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_OPTIONS_H
#define FATOMIC_OPTIONS_H

#include "fatomic/NanPolicy.h"
#include "fatomic/Target.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fatomic {

enum class Strategy : unsigned char { Dispatch, Cas };
const char *toString(Strategy S);
/// Whether invocations combine their operands before the atomic (aggregate=).
enum class Aggregation : unsigned char {
  Off,      ///< every invocation does its own atomic
  Auto,     ///< Subgroup where the target is known to allow it and its
            ///< driver does not combine the atomic itself (the default)
  Subgroup, ///< one atomic per subgroup where the address is uniform, unless
            ///< the target is known to lack the subgroup operations
};
const char *toString(Aggregation A);

/// Who may write the memory of a lowered atomic while it runs (writers=).
enum class WriterScope : unsigned char {
  Module, ///< only code of the module being lowered (the default)
  Any,    ///< anything, other shaders and the host included
};

const char *toString(WriterScope W);

struct LoweringOptions {
  /// Unset: the operation's default policy.
  std::optional<NanPolicy> Nan;
  Strategy Strat = Strategy::Dispatch;
  bool EarlyOut = true;
  bool RetypeImages = false;
  /// Share the lowered code through helper functions.
  bool Outline = true;
  /// Whether outline= was given (where the LLVM plugin's default differs:
  /// the function form and the default pipelines write the lowering out).
  bool OutlineGiven = false;
  /// writers=: where the cheaper, proof-dependent forms may be used.
  WriterScope Writers = WriterScope::Module;
  /// aggregate=: combine a subgroup's (NVPTX: warp's) operands first.
  Aggregation Aggregate = Aggregation::Auto;
  /// cache=: each invocation remembers a bound its memory is known to have
  /// reached, and skips an operation under it without touching memory
  /// (SPIR-V pass: only where the cheaper forms are proven; LLVM pass: in
  /// kernels that synchronize with nothing).
  bool Cache = true;

  /// Whether aggregate= lets an atomic whose needs are \p Allows (the
  /// target's SubgroupSupport::allows for it) be aggregated on \p Target.
  bool aggregates(const TargetModel &Target, bool Allows) const {
    if (Aggregate == Aggregation::Off)
      return false;
    if (Target.Subgroups.Known)
      return Allows;
    return Aggregate == Aggregation::Subgroup;
  }
  /// Features named with native=... (the last native= item's); merged into
  /// the target model.
  std::vector<Feature> Native;

  /// The policy for an operation whose own default is \p OpDefault.
  NanPolicy policyFor(NanPolicy OpDefault) const { return Nan.value_or(OpDefault); }

  /// Canonical spelling; parseOptions(str()) gives back the same options.
  std::string str() const;
};

/// Parses the option string.  On error returns std::nullopt and sets \p Error,
/// e.g. "unknown value 'maybe' for option 'nan' (expected number, propagate
/// or fast)".
std::optional<LoweringOptions> parseOptions(std::string_view Text,
                                            std::string &Error);

} // namespace fatomic

#endif // FATOMIC_OPTIONS_H
