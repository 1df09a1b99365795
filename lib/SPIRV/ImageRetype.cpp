//===- ImageRetype.cpp - The integer view of an r32f image: a retype ------===//
//
// See ImageRetype.h: one walk per image variable checks and records,
// apply() performs the record.
//
//===----------------------------------------------------------------------===//

#include "ImageRetype.h"

#include <algorithm>

namespace fatomic::spirv {

using spv::StorageClass;

uint32_t ImageRetype::retypedImage(uint32_t T) {
  if (auto It = ImageClones.find(T); It != ImageClones.end())
    return It->second;
  const InstRef D = M.def(T);
  const Inst &I = M.inst(D);
  uint32_t New = T;
  switch (I.Opcode) {
  case Op::OpTypeImage: {
    std::vector<uint32_t> Ops(M.operands(D), M.operands(D) + I.Count);
    Ops[0] = M.typeInt(32, /*Signed=*/false);
    Ops[6] = uint32_t(spv::ImageFormat::R32ui);
    New = M.typeImage(Ops);
    break;
  }
  case Op::OpTypeArray: {
    const uint32_t Elem = retypedImage(M.operand(D, 0)), Len = M.operand(D, 1);
    New = M.addType(Op::OpTypeArray, {Elem, Len});
    Types.copyDecorations(T, New);
    break;
  }
  case Op::OpTypeRuntimeArray: {
    const uint32_t Elem = retypedImage(M.operand(D, 0));
    New = M.addType(Op::OpTypeRuntimeArray, {Elem});
    Types.copyDecorations(T, New);
    break;
  }
  default:
    break;
  }
  ImageClones[T] = New;
  return New;
}

bool ImageRetype::isImageType(uint32_t T) const {
  for (uint32_t Depth = 0; Depth <= LoweringContext::MaxTypeDepth; ++Depth) {
    switch (M.opOf(T)) {
    case Op::OpTypeImage:
      return true;
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
      T = M.operand(M.def(T), 0);
      break;
    default:
      return false;
    }
  }
  return false;
}

bool ImageRetype::checkVariable(uint32_t Root, const std::string &Var) {
  const auto &Globals = M.section(Section::Global);
  if (M.opOf(Root) != Op::OpVariable ||
      std::find(Globals.begin(), Globals.end(), M.def(Root)) == Globals.end()) {
    C.error(FailureKind::InvalidModule, Var + " is not a module-scope OpVariable");
    return false;
  }
  if (M.hasDecoration(Root, spv::Decoration::LinkageAttributes)) {
    C.error(FailureKind::Unsupported,
            Var + " is linked with other modules (LinkageAttributes): "
                  "images=retype cannot retype it (the other modules declare "
                  "it with its float type); link the modules first "
                  "(spirv-link), then lower");
    return false;
  }
  uint32_t T = C.pointee(C.typeOf(Root));
  for (uint32_t Depth = 0; Depth <= LoweringContext::MaxTypeDepth &&
                           (M.opOf(T) == Op::OpTypeArray || M.opOf(T) == Op::OpTypeRuntimeArray);
       ++Depth)
    T = M.operand(M.def(T), 0);
  if (M.opOf(T) != Op::OpTypeImage) {
    C.error(FailureKind::InvalidModule, Var + " does not hold an image");
    return false;
  }
  const InstRef D = M.def(T);
  const uint32_t Sampled = M.operand(D, 5), Format = M.operand(D, 6);
  if (M.opOf(M.operand(D, 0)) != Op::OpTypeFloat || M.scalarWidth(M.operand(D, 0)) != 32 ||
      Format != uint32_t(spv::ImageFormat::R32f)) {
    C.error(FailureKind::Unsupported,
            Var + ": images=retype needs an R32f image with a 32-bit float "
                  "sampled type (image format " + std::to_string(Format) + ")");
    return false;
  }
  if (Sampled == 1) {
    C.error(FailureKind::Unsupported,
            Var + ": images=retype handles storage images (Sampled 0 or 2), "
                  "not sampled ones");
    return false;
  }
  return true;
}

bool ImageRetype::plan() {
  bool Ok = true;
  for (uint32_t Root : Plan.ImageRoots) {
    const std::string Var = "image variable %" + std::to_string(Root) +
                            (M.nameOf(Root).empty() ? "" : " (\"" + M.nameOf(Root) + "\")");
    Ok &= checkVariable(Root, Var) && walk(Root, Var, Changes[Root]);
  }
  return Ok;
}

bool ImageRetype::reject(InstRef User, const std::string &Var, const std::string &Why) {
  C.error(FailureKind::Unsupported, Var + " is retyped to R32ui for its float "
                                          "min/max atomics, but " +
                                        M.describe(User) + " " + Why);
  return false;
}

// Ids to follow: pointers to the image (or its array), image values, and
// texel pointers.
bool ImageRetype::walk(uint32_t Root, const std::string &Var, std::vector<Change> &Out) {
  bool Ok = true;
  std::vector<std::pair<uint32_t, Kind>> Work{{Root, Kind::ImagePtr}};
  while (!Work.empty()) {
    const auto [Id, K] = Work.back();
    Work.pop_back();
    for (const Use &U : M.uses(Id)) {
      const InstRef R = U.User;
      const Op O = M.inst(R).Opcode;
      if (O == Op::OpName || O == Op::OpDecorate || O == Op::OpDecorateId ||
          O == Op::OpDecorateString || O == Op::OpEntryPoint || (O == Op::OpExtInst && isDebugOnlyUse(M, R, U.Word)))
        continue;
      if (O == Op::OpCopyObject) {
        Out.push_back({R, Edit::Copy, K});
        Work.push_back({M.inst(R).ResultId, K});
        continue;
      }
      if (O == Op::OpFunctionCall) {
        C.error(FailureKind::UntraceablePointer,
                Var + " is passed to a function by " + M.describe(R) + "; " +
                    InlineFirstAdvice);
        Ok = false;
        continue;
      }
      switch (K) {
      case Kind::ImagePtr:
        Ok &= visitPointerUse(R, O, U, Var, Out, Work);
        break;
      case Kind::Image:
        Ok &= visitImageUse(R, O, Var, Out);
        break;
      case Kind::TexelPtr:
        Ok &= visitTexelUse(R, O, U, Var, Out);
        break;
      }
    }
  }
  return Ok;
}

bool ImageRetype::visitPointerUse(InstRef R, Op O, const Use &U, const std::string &Var,
                                  std::vector<Change> &Out,
                                  std::vector<std::pair<uint32_t, Kind>> &Work) {
  const bool Chain = O == Op::OpAccessChain || O == Op::OpInBoundsAccessChain;
  if ((Chain || O == Op::OpLoad) && U.Word == 0 &&
      !isImageType(O == Op::OpLoad ? M.inst(R).TypeId : C.pointee(M.inst(R).TypeId)))
    return reject(R, Var, "has a type that is not an image (or array of images)");
  if (U.Word != 0)
    return reject(R, Var, "uses it in a way fatomic cannot rewrite");
  if (Chain) {
    Out.push_back({R, Edit::ChainPointer});
    Work.push_back({M.inst(R).ResultId, Kind::ImagePtr});
  } else if (O == Op::OpLoad) {
    Out.push_back({R, Edit::LoadImage});
    Work.push_back({M.inst(R).ResultId, Kind::Image});
  } else if (O == Op::OpImageTexelPointer) {
    Out.push_back({R, Edit::TexelPointer});
    Work.push_back({M.inst(R).ResultId, Kind::TexelPtr});
  } else {
    return reject(R, Var, "uses it in a way fatomic cannot rewrite");
  }
  return true;
}

bool ImageRetype::visitImageUse(InstRef R, Op O, const std::string &Var,
                                std::vector<Change> &Out) {
  switch (O) {
  case Op::OpImageRead:
  case Op::OpImageSparseRead:
    Out.push_back({R, Edit::ReadResult});
    return true;
  case Op::OpImageWrite:
    Out.push_back({R, Edit::WriteTexel});
    return true;
  case Op::OpImageQuerySize:
  case Op::OpImageQuerySizeLod:
  case Op::OpImageQueryLevels:
  case Op::OpImageQuerySamples:
  case Op::OpImageQueryFormat:
  case Op::OpImageQueryOrder:
    return true;
  case Op::OpSampledImage:
    return reject(R, Var, "samples it; an R32ui view returns integers, so a sampled "
                          "use cannot be retyped");
  default:
    return reject(R, Var, "uses it in a way fatomic cannot rewrite");
  }
}

bool ImageRetype::isFloat32(uint32_t T) const {
  return M.opOf(T) == Op::OpTypeFloat && M.scalarWidth(T) == 32;
}

bool ImageRetype::visitTexelUse(InstRef R, Op O, const Use &U, const std::string &Var,
                                std::vector<Change> &Out) {
  switch (O) {
  case Op::OpAtomicFMinEXT:
  case Op::OpAtomicFMaxEXT:
    if (U.Word == 0 && Plan.SiteOf.count(R))
      return true;
    return reject(R, Var, "uses a texel pointer of it in a way fatomic cannot rewrite");
  case Op::OpAtomicLoad:
  case Op::OpAtomicExchange:
  case Op::OpAtomicStore:
    if (U.Word != 0)
      return reject(R, Var, "uses a texel pointer of it as a value");
    // The converted value and result are 32-bit floats (a malformed module
    // may name an undefined value or give another type).
    if (O != Op::OpAtomicStore && !isFloat32(M.inst(R).TypeId))
      return reject(R, Var, "reads a texel of it as a type other than a 32-bit float");
    if (O != Op::OpAtomicLoad && !isFloat32(C.typeOf(M.operand(R, 3))))
      return reject(R, Var, "writes a texel of it from a value that is not a 32-bit float");
    Out.push_back({R, O == Op::OpAtomicStore ? Edit::AtomicValue : Edit::AtomicResult});
    return true;
  default:
    return reject(R, Var, "uses a texel pointer of it in a way fatomic cannot "
                          "rewrite (only float min/max, atomic load, store and "
                          "exchange have integer forms here)");
  }
}

// ---------------------------------------------------------------------------
// Apply
// ---------------------------------------------------------------------------

void ImageRetype::retypeVariable(uint32_t Root) {
  const InstRef VarDef = M.def(Root);
  const uint32_t NewPointee = retypedImage(C.pointee(C.typeOf(Root)));
  M.setType(VarDef, M.typePointer(StorageClass::UniformConstant, NewPointee));
  // The variable moves after its new types.
  moveGlobalToEnd(M, VarDef);
}

void ImageRetype::convertAtomic(InstRef R, uint32_t UT) {
  const Op O = M.inst(R).Opcode;
  if (O == Op::OpAtomicStore) {
    const uint32_t V = M.operand(R, 3);
    std::vector<InstRef> Before;
    M.setOperand(R, 3, convertValue(M, Before, V, C.typeOf(V), UT, 0));
    Edits.InsertBefore[R] = std::move(Before);
    return;
  }
  const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
  const uint32_t Fresh = M.newId();
  M.setType(R, UT);
  M.setResult(R, Fresh);
  if (O == Op::OpAtomicExchange) {
    std::vector<InstRef> Before;
    const uint32_t V = M.operand(R, 3);
    M.setOperand(R, 3, convertValue(M, Before, V, OldType, UT, 0));
    Edits.InsertBefore[R] = std::move(Before);
  }
  std::vector<InstRef> After;
  convertValue(M, After, Fresh, UT, OldType, OldResult);
  Edits.InsertAfter[R] = std::move(After);
}

void ImageRetype::applyChange(const Change &Ch, uint32_t UT, uint32_t TexelPtrType) {
  const InstRef R = Ch.Inst;
  switch (Ch.What) {
  case Edit::Copy:
    M.setType(R, Ch.Of == Kind::TexelPtr ? TexelPtrType
                 : Ch.Of == Kind::Image  ? retypedImage(M.inst(R).TypeId)
                                         : M.typePointer(StorageClass::UniformConstant,
                                                         retypedImage(C.pointee(M.inst(R).TypeId))));
    return;
  case Edit::ChainPointer:
    M.setType(R, M.typePointer(StorageClass::UniformConstant,
                               retypedImage(C.pointee(M.inst(R).TypeId))));
    return;
  case Edit::LoadImage:
    M.setType(R, retypedImage(M.inst(R).TypeId));
    return;
  case Edit::TexelPointer:
    M.setType(R, TexelPtrType);
    return;
  case Edit::ReadResult: {
    const uint32_t OldType = M.inst(R).TypeId, OldResult = M.inst(R).ResultId;
    const uint32_t NewType = Types.cloneAllFloats(OldType);
    const uint32_t Fresh = M.newId();
    M.setType(R, NewType);
    M.setResult(R, Fresh);
    std::vector<InstRef> After;
    convertValue(M, After, Fresh, NewType, OldType, OldResult);
    Edits.InsertAfter[R] = std::move(After);
    return;
  }
  case Edit::WriteTexel: {
    const uint32_t V = M.operand(R, 2), VT = C.typeOf(V);
    std::vector<InstRef> Before;
    M.setOperand(R, 2, convertValue(M, Before, V, VT, Types.cloneAllFloats(VT), 0));
    Edits.InsertBefore[R] = std::move(Before);
    return;
  }
  case Edit::AtomicResult:
  case Edit::AtomicValue:
    return convertAtomic(R, UT);
  }
}

void ImageRetype::apply() {
  for (const auto &[Root, List] : Changes) {
    retypeVariable(Root);
    const uint32_t UT = M.typeInt(32, false);
    const uint32_t TexelPtrType = M.typePointer(StorageClass::Image, UT);
    for (const Change &Ch : List)
      applyChange(Ch, UT, TexelPtrType);
  }
}

} // namespace fatomic::spirv
