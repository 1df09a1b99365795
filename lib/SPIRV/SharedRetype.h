//===- SharedRetype.h - The integer view of Workgroup memory: a retype ----===//
//
// A Workgroup variable with float min/max atomics is retyped: its type
// becomes the same type with every float of its sites' widths (32, 64) an
// unsigned integer (floats of other widths keep their type), and every
// access is rewritten (pointers take the new types, loads and stores
// convert the value, a copy of memory whose two sides now differ becomes a
// load, a conversion and a store).
//
// One walk over the pointers derived from each variable, during collection,
// both checks every use and records the edit it needs; apply() performs the
// recorded edits and nothing else, so that the check and the rewrite cannot
// disagree.  A use that the walk cannot rewrite is an error before anything
// changes.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_SHAREDRETYPE_H
#define FATOMIC_SPIRV_SHAREDRETYPE_H

#include "IntegerTypes.h"
#include "SitePlan.h"

namespace fatomic::spirv {

class SharedRetype {
public:
  SharedRetype(LoweringContext &C, const SitePlan &Plan, IntegerTypes &Types, BodyEdits &Edits)
      : C(C), M(C.M), Plan(Plan), Types(Types), Edits(Edits) {}

  /// The edit a use of a retyped pointer needs.
  enum class Edit {
    Pointer,    ///< an access chain or copy: the pointer type
    Result,     ///< a load or exchange: the result converted back
    Value,      ///< a store: the stored value converted
    CopyMemory, ///< split when its two sides differ (after every retype)
    Modf,       ///< GLSL.std.450 Modf's whole part: ModfStruct, then a store
  };
  struct Change {
    InstRef Inst;
    Edit What;
  };

  /// Checks each variable and every use of it; records the edits.  False
  /// on error (reported).  Needs the module's use lists.
  bool plan();
  /// The chains of the Workgroup sites lead to their floats; stops at the
  /// first error.
  bool checkPaths();
  /// Retypes the variables and performs the recorded edits (instructions
  /// to insert go to the BodyEdits).
  void apply();
  /// Copies of memory whose two sides now differ (run after every retype).
  void splitCopies();

  /// The recorded edits of \p Root, in walk order (for tests).
  const std::vector<Change> &changesOf(uint32_t Root) const { return Changes.at(Root); }

private:
  bool checkVariable(uint32_t Root);
  bool walk(uint32_t Root, std::vector<Change> &Out);
  /// Checks one use \p U of pointer \p P (pointee \p PT); records its edit
  /// or queues the pointer it makes.  False when it is rejected.
  bool visitUse(uint32_t Root, const Use &U, uint32_t PT, std::vector<Change> &Out,
                std::vector<uint32_t> &Work, std::set<uint32_t> &Seen);
  bool visitAccess(uint32_t Root, InstRef User, uint32_t PT, std::vector<Change> &Out,
                   std::vector<uint32_t> &Work, std::set<uint32_t> &Seen);
  bool keepsUse(uint32_t Root, InstRef User, uint32_t Word, uint32_t PT);
  /// Reports \p User as a use of \p Root the retype cannot rewrite.
  bool unsupportedUse(uint32_t Root, InstRef User);
  bool checkValue(uint32_t Root, InstRef User, uint32_t Type, uint32_t PT);
  bool malformed(InstRef User, const char *What);
  void retypeVariable(uint32_t Root);
  void applyChange(uint32_t Root, const Change &Ch);
  void convertResult(InstRef R, uint32_t NewPT);
  void convertStored(InstRef R, uint32_t NewPT);
  void convertModf(InstRef R);
  /// Whether \p User is GLSL.std.450 Modf writing through its pointer
  /// operand (word \p Word).
  bool isModfOut(InstRef User, uint32_t Word) const;

  LoweringContext &C;
  Module &M;
  const SitePlan &Plan;
  IntegerTypes &Types;
  BodyEdits &Edits;
  std::map<uint32_t, std::vector<Change>> Changes;
  /// The uses already reported as unsupported: a use of two pointers into
  /// the variable (an OpSelect of both) is reported once.
  std::set<InstRef> Reported;
  std::set<InstRef> CopyMemories;
  std::map<uint32_t, uint32_t> ModfStructOf; ///< operand type -> its struct
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_SHAREDRETYPE_H
