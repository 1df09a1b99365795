//===- FuzzModule.cpp - Fuzz target: the SPIR-V module reader -------------===//
//
// Arbitrary bytes into fatomic::spirv::Module::parse.  A rejected input must
// come with a message; an accepted one must survive every query a pass makes
// (use lists, descriptions, names, decorations), and emit() must give words
// that parse again and emit to themselves.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "Module.h"

using namespace fatomic;
using namespace fatomic::spirv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::vector<uint32_t> Words = fuzz::toWords(Data, Size);
  Module M;
  std::string Error;
  if (!M.parse(Words.data(), Words.size(), Error)) {
    if (Error.empty())
      fuzz::fail("parse failed without a message");
    return 0;
  }
  if (!Error.empty())
    fuzz::fail("parse succeeded with a message: " + Error);

  M.buildUses();
  size_t Uses = 0;
  for (uint32_t Id = 0; Id < M.bound(); ++Id)
    Uses += M.uses(Id).size();
  M.forEachPlaced([&](InstRef R) {
    (void)M.describe(R);
    const Inst &I = M.inst(R);
    if (I.ResultId) {
      (void)M.decorationsOf(I.ResultId);
      (void)M.scalarWidth(I.ResultId);
    }
  });
  (void)Uses;

  const std::vector<uint32_t> Out = M.emit();
  Module Again;
  if (!Again.parse(Out.data(), Out.size(), Error))
    fuzz::fail("emitted words do not parse: " + Error);
  if (Again.emit() != Out)
    fuzz::fail("emit is not a fixed point");
  return 0;
}
