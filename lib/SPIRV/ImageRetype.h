//===- ImageRetype.h - The integer view of an r32f image: a retype --------===//
//
// images=retype: the image variable's type becomes the same image with a
// uint sampled type and the R32ui format, a new type used by that variable
// only (other variables of the old type keep it; descriptor arrays get a new
// array type).  Loads of it, and copies, take the new type; OpImageRead
// results and OpImageWrite texels are bitcast between the float and uint
// vectors; texel pointers become Image uint pointers, on which the float
// min/max atomics are lowered like any other memory and float atomic loads,
// stores and exchanges are bitcast.  Any other use is an error (sampling an
// R32ui view, float atomic add, passing it to a function).
//
// As for Workgroup variables, one walk per image variable checks every use
// and records its edit; apply() performs the record.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_IMAGERETYPE_H
#define FATOMIC_SPIRV_IMAGERETYPE_H

#include "IntegerTypes.h"
#include "SitePlan.h"

namespace fatomic::spirv {

class ImageRetype {
public:
  ImageRetype(LoweringContext &C, const SitePlan &Plan, IntegerTypes &Types, BodyEdits &Edits)
      : C(C), M(C.M), Plan(Plan), Types(Types), Edits(Edits) {}

  /// What an id on the image's way is.
  enum class Kind { ImagePtr, Image, TexelPtr };
  /// The edit a use needs.
  enum class Edit {
    Copy,         ///< OpCopyObject of an id of the use's Kind: its type
    ChainPointer, ///< an access chain into an array of images: its type
    LoadImage,    ///< a load of the image: its type
    TexelPointer, ///< OpImageTexelPointer: a uint Image pointer
    ReadResult,   ///< OpImageRead: the texel converted back to float
    WriteTexel,   ///< OpImageWrite: the texel converted to uint
    AtomicResult, ///< atomic load or exchange on a texel pointer
    AtomicValue,  ///< atomic store on a texel pointer
  };
  struct Change {
    InstRef Inst;
    Edit What;
    Kind Of = Kind::ImagePtr; ///< for Copy
  };

  /// Checks every image variable and every use; records the edits.  False
  /// on error (every variable's reported).  Needs the module's use lists.
  bool plan();
  /// Retypes the variables and performs the recorded edits.
  void apply();

  const std::vector<Change> &changesOf(uint32_t Root) const { return Changes.at(Root); }

private:
  bool checkVariable(uint32_t Root, const std::string &Var);
  bool walk(uint32_t Root, const std::string &Var, std::vector<Change> &Out);
  bool visitPointerUse(InstRef R, Op O, const Use &U, const std::string &Var,
                       std::vector<Change> &Out,
                       std::vector<std::pair<uint32_t, Kind>> &Work);
  bool visitImageUse(InstRef R, Op O, const std::string &Var, std::vector<Change> &Out);
  bool isFloat32(uint32_t T) const;
  bool visitTexelUse(InstRef R, Op O, const Use &U, const std::string &Var,
                     std::vector<Change> &Out);
  bool reject(InstRef User, const std::string &Var, const std::string &Why);
  uint32_t retypedImage(uint32_t Type);
  /// Whether \p Type is an image or (runtime) arrays of one, which
  /// retypedImage can rewrite.
  bool isImageType(uint32_t Type) const;
  void retypeVariable(uint32_t Root);
  void applyChange(const Change &Ch, uint32_t UT, uint32_t TexelPtrType);
  void convertAtomic(InstRef R, uint32_t UT);

  LoweringContext &C;
  Module &M;
  const SitePlan &Plan;
  IntegerTypes &Types;
  BodyEdits &Edits;
  std::map<uint32_t, std::vector<Change>> Changes;
  std::unordered_map<uint32_t, uint32_t> ImageClones;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_IMAGERETYPE_H
