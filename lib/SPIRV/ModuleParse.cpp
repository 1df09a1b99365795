//===- ModuleParse.cpp - Reading a SPIR-V binary into the module IR -------===//
//
// Owns Module::parse: one pass of spvBinaryParse over the words, each
// instruction's operand words copied into the arena with the id words that
// the parser reports, and the instruction placed in its logical-layout
// section (Grammar.h) or in its function and block.
//
//===----------------------------------------------------------------------===//

#include "Module.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace fatomic::spirv {

namespace {

bool isIdOperand(spv_operand_type_t T) {
  switch (T) {
  case SPV_OPERAND_TYPE_ID:
  case SPV_OPERAND_TYPE_TYPE_ID:
  case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
  case SPV_OPERAND_TYPE_SCOPE_ID:
    return true;
  default:
    return false;
  }
}

bool knownWidth(uint32_t Width) {
  return Width == 8 || Width == 16 || Width == 32 || Width == 64;
}

} // namespace

/// State threaded through spvBinaryParse's callbacks.
struct ParseState {
  ParseState(Module &M, uint32_t MaxBound) : M(M), MaxBound(MaxBound) {}

  Module &M;
  const uint32_t MaxBound;
  std::string Error;
  Function *Fn = nullptr;
  Block *Blk = nullptr;
  /// Debug instructions after a terminator or a function, waiting for their
  /// OpLabel, OpFunctionEnd or OpFunction.
  std::vector<InstRef> Pending;
  bool SawMemoryModel = false;

  /// OpLine, OpNoLine and OpExtInst of a non-semantic set: the instructions
  /// a function may hold outside its blocks.
  bool isDebugOutsideBlocks(Op O, const uint32_t *Ops) const {
    if (O == Op::OpLine || O == Op::OpNoLine)
      return true;
    return O == Op::OpExtInst && M.isNonSemanticSet(Ops[0]);
  }

  /// An instruction in or after the functions that is not in a block.
  spv_result_t placeOutsideBlocks(InstRef R) {
    if (!isDebugOutsideBlocks(M.inst(R).Opcode, M.operands(R))) {
      Error = std::string(Fn ? "instruction outside a block in a function: "
                             : "instruction between or after functions: ") +
              M.describe(R);
      return SPV_ERROR_INVALID_LAYOUT;
    }
    if (Fn && Fn->Blocks.empty())
      Fn->Header.push_back(R);
    else
      Pending.push_back(R);
    return SPV_SUCCESS;
  }

  /// An instruction that stands only at module level (SPIR-V 2.4): one of
  /// the layout sections before the globals, a type, a constant, or a
  /// variable of a storage class other than Function.
  bool moduleLevelOnly(InstRef R) const {
    const Op O = M.inst(R).Opcode;
    if (grammar::section(O) != Section::Global || grammar::isTypeDeclaration(O) ||
        std::strcmp(grammar::className(O), "Constant-Creation") == 0)
      return true;
    return O == Op::OpVariable &&
           spv::StorageClass(M.operand(R, 0)) != spv::StorageClass::Function;
  }

  /// The OpLine/OpNoLine run that ends the globals gives the first
  /// function's position: it becomes that function's prelude.
  std::vector<InstRef> takeTrailingLines() {
    std::vector<InstRef> &Globals = M.Sections[unsigned(Section::Global)];
    auto First = Globals.end();
    while (First != Globals.begin() &&
           (M.inst(*std::prev(First)).Opcode == Op::OpLine ||
            M.inst(*std::prev(First)).Opcode == Op::OpNoLine))
      --First;
    std::vector<InstRef> Run(First, Globals.end());
    Globals.erase(First, Globals.end());
    return Run;
  }

  spv_result_t header(spv_endianness_t, uint32_t, uint32_t Version,
                      uint32_t Generator, uint32_t Bound, uint32_t Schema) {
    if (Bound == 0 || Bound > MaxBound) {
      Error = "id bound " + std::to_string(Bound) + " is out of range (1 to " +
              std::to_string(MaxBound) + ")";
      return SPV_ERROR_INVALID_BINARY;
    }
    M.Version = Version;
    M.Generator = Generator;
    M.Bound = Bound;
    M.Schema = Schema;
    M.DefOf.assign(Bound, Module::NoInst);
    return SPV_SUCCESS;
  }

  spv_result_t instruction(const spv_parsed_instruction_t &P) {
    uint32_t Id = 0;
    const InstRef R = store(P, Id);
    if (Id) {
      // An id the module does not define and that the pass could define
      // later, changing what the instruction means.
      Error = "id %" + std::to_string(Id) + " in " + M.describe(R) +
              " is not below the id bound " + std::to_string(M.Bound);
      return SPV_ERROR_INVALID_ID;
    }
    if (P.result_id) {
      if (P.result_id >= M.Bound) {
        Error = "result id %" + std::to_string(P.result_id) +
                " is not below the id bound " + std::to_string(M.Bound);
        return SPV_ERROR_INVALID_ID;
      }
      M.DefOf[P.result_id] = R;
    }
    const Op O = Op(P.opcode);
    if ((O == Op::OpTypeInt || O == Op::OpTypeFloat) && !knownWidth(M.operand(R, 0))) {
      // The pass sizes constants of these types by their width.
      Error = M.describe(R) + " has width " + std::to_string(M.operand(R, 0)) +
              ", not 8, 16, 32 or 64";
      return SPV_ERROR_INVALID_DATA;
    }
    switch (O) {
    case Op::OpFunction:
    case Op::OpFunctionParameter:
    case Op::OpLabel:
    case Op::OpFunctionEnd:
      return placeStructure(O, R);
    default:
      break;
    }
    if (Fn || !M.Functions.empty()) {
      if (!Blk)
        return placeOutsideBlocks(R);
      if (moduleLevelOnly(R)) {
        Error = "module-level instruction in a function: " + M.describe(R);
        return SPV_ERROR_INVALID_LAYOUT;
      }
      Blk->Body.push_back(R);
      if (grammar::isBlockTerminator(O))
        Blk = nullptr;
      return SPV_SUCCESS;
    }
    if (O == Op::OpMemoryModel) {
      SawMemoryModel = true;
      M.Addressing = spv::AddressingModel(P.words[1]);
    }
    M.Sections[unsigned(grammar::section(O))].push_back(R);
    return SPV_SUCCESS;
  }

  /// Copies the instruction's operand words (those after the type and
  /// result ids) into the arena with their id mask; returns its reference.
  /// \p AboveBound: the first id operand (result type included) at or
  /// above the id bound, or 0.
  InstRef store(const spv_parsed_instruction_t &P, uint32_t &AboveBound) {
    Inst I;
    I.Opcode = Op(P.opcode);
    I.TypeId = P.type_id;
    I.ResultId = P.result_id;
    // Type and result ids are always the first operands when present.
    const uint32_t Skip = 1 + (P.type_id ? 1 : 0) + (P.result_id ? 1 : 0);
    I.Count = P.num_words - Skip;
    I.Begin = M.Arena.allocate(I.Count);
    std::copy(P.words + Skip, P.words + P.num_words, M.Arena.at(I.Begin));
    const InstRef R = InstRef(M.Insts.size());
    AboveBound = P.type_id >= M.Bound ? P.type_id : 0;
    for (uint16_t K = 0; K < P.num_operands; ++K) {
      const spv_parsed_operand_t &Opd = P.operands[K];
      if (Opd.offset < Skip || !isIdOperand(Opd.type))
        continue;
      for (uint16_t W = 0; W < Opd.num_words; ++W) {
        const uint32_t Word = Opd.offset - Skip + W;
        if (!AboveBound && P.words[Opd.offset + W] >= M.Bound)
          AboveBound = P.words[Opd.offset + W];
        if (Word < 64) {
          I.IdMask |= uint64_t{1} << Word;
        } else {
          // Words from 64 on: a mask word per 64 operand words.
          I.IdTail = true;
          std::vector<uint64_t> &High = M.WideIdWords[R];
          if (High.size() <= (Word - 64) / 64)
            High.resize((Word - 64) / 64 + 1, 0);
          High[(Word - 64) / 64] |= uint64_t{1} << ((Word - 64) % 64);
        }
      }
    }
    M.Insts.push_back(I);
    return R;
  }

  spv_result_t bad(const char *Message) {
    Error = Message;
    return SPV_ERROR_INVALID_LAYOUT;
  }

  /// OpFunction, OpFunctionParameter, OpLabel and OpFunctionEnd: open and
  /// close functions and blocks; the debug instructions waiting go with
  /// what opens or closes.
  spv_result_t placeStructure(Op O, InstRef R) {
    switch (O) {
    case Op::OpFunction:
      if (Fn)
        return bad("OpFunction inside a function");
      M.Functions.emplace_back();
      Fn = &M.Functions.back();
      Fn->Prelude = M.Functions.size() == 1 ? takeTrailingLines() : std::move(Pending);
      Fn->Def = R;
      break;
    case Op::OpFunctionParameter:
      if (!Fn || !Fn->Blocks.empty())
        return bad("OpFunctionParameter outside a function header");
      Fn->Header.push_back(R);
      break;
    case Op::OpLabel:
      if (!Fn || Blk)
        return bad("OpLabel outside a function or inside a block");
      Fn->Blocks.emplace_back();
      Blk = &Fn->Blocks.back();
      Blk->Lead = std::move(Pending);
      Blk->Label = M.inst(R).ResultId;
      Blk->LabelInst = R;
      break;
    default: // OpFunctionEnd
      if (!Fn || Blk)
        return bad("OpFunctionEnd outside a function or inside a block");
      Fn->Trailer = std::move(Pending);
      Fn->End = R;
      Fn = nullptr;
      break;
    }
    Pending.clear();
    return SPV_SUCCESS;
  }
};

bool Module::parse(const uint32_t *Words, size_t NumWords, std::string &Error,
                   uint32_t MaxBound) {
  *this = Module();
  if (NumWords < 5) {
    Error = "not a SPIR-V module: " + std::to_string(NumWords * 4) +
            " bytes is shorter than the 20-byte header";
    return false;
  }
  // Only the host's byte order: spvBinaryParse would take the other one too,
  // but hands its strings over unswapped (an OpExtInstImport name comes out
  // garbled) and the module would be written back in the host's order.  A
  // file reader swaps whole files first (fatomic-opt's readModule).
  if (Words[0] != spv::MagicNumber) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "not a SPIR-V module: bad magic 0x%08x",
                  Words[0]);
    Error = Buf;
    return false;
  }
  // Versions 1.0 up to the headers' own (spv::Version); spvBinaryParse
  // reports any other as an internal error of its own.
  const uint32_t Version = Words[1];
  if ((Version & 0xFF0000FF) != 0 || (Version >> 16) != 1 || Version > spv::Version) {
    char Buf[160];
    std::snprintf(Buf, sizeof Buf,
                  "unsupported SPIR-V version word 0x%08x: fatomic reads "
                  "SPIR-V 1.0 to %u.%u",
                  Version, spv::Version >> 16, (spv::Version >> 8) & 0xFF);
    Error = Buf;
    return false;
  }
  Arena.reserveChunks(NumWords);
  Insts.reserve(NumWords / 4);
  ParseState S(*this, MaxBound);
  auto Ctx = std::unique_ptr<spv_context_t, void (*)(spv_context)>(
      spvContextCreate(SPV_ENV_UNIVERSAL_1_6), spvContextDestroy);
  spv_diagnostic Diag = nullptr;
  const spv_result_t Res = spvBinaryParse(
      Ctx.get(), &S, Words, NumWords,
      [](void *U, spv_endianness_t E, uint32_t Magic, uint32_t V, uint32_t G,
         uint32_t B, uint32_t Sch) {
        return static_cast<ParseState *>(U)->header(E, Magic, V, G, B, Sch);
      },
      [](void *U, const spv_parsed_instruction_t *P) {
        return static_cast<ParseState *>(U)->instruction(*P);
      },
      &Diag);
  if (Res != SPV_SUCCESS) {
    if (!S.Error.empty()) {
      Error = S.Error;
    } else if (Diag && Diag->error) {
      Error = Diag->error;
      if (Diag->position.index)
        Error += " (instruction " + std::to_string(Diag->position.index) + ")";
    } else {
      Error = "invalid SPIR-V binary";
    }
    spvDiagnosticDestroy(Diag);
    return false;
  }
  spvDiagnosticDestroy(Diag);
  if (S.Fn) {
    Error = "truncated module: the last function has no OpFunctionEnd";
    return false;
  }
  Tail = std::move(S.Pending);
  if (!S.SawMemoryModel) {
    Error = "module has no OpMemoryModel";
    return false;
  }
  return true;
}

} // namespace fatomic::spirv
