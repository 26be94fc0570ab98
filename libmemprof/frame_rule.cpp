// A small DWARF CFI interpreter for x86-64, tracking only what stepping
// needs: the CFA rule, where rbp is saved and where the return address
// is.  The FDE is found by libgcc's _Unwind_Find_FDE (which searches
// .eh_frame_hdr of loaded modules without allocating).

#include "frame_rule.h"
#include "internal.h"

extern "C" {
struct dwarf_eh_bases
{
  void *tbase;
  void *dbase;
  void *func;
};
const void *_Unwind_Find_FDE (void *pc, struct dwarf_eh_bases *bases);
}

namespace memprof {

namespace {

constexpr unsigned kRegBp = 6, kRegSp = 7, kRegRa = 16;

struct Reader
{
  const uint8_t *p;
  const uint8_t *end;
  bool bad = false;

  uint8_t u8 ()
  {
    if (p >= end)
      {
        bad = true;
        return 0;
      }
    return *p++;
  }
  uint64_t fixed (int bytes)
  {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
      v |= (uint64_t) u8 () << (8 * i);
    return v;
  }
  uint64_t uleb ()
  {
    uint64_t v = 0;
    int shift = 0;
    uint8_t b;
    do
      {
        b = u8 ();
        if (shift < 64)
          v |= (uint64_t) (b & 0x7f) << shift;
        shift += 7;
      }
    while ((b & 0x80) && !bad);
    return v;
  }
  int64_t sleb ()
  {
    int64_t v = 0;
    int shift = 0;
    uint8_t b;
    do
      {
        b = u8 ();
        if (shift < 64)
          v |= (int64_t) (b & 0x7f) << shift;
        shift += 7;
      }
    while ((b & 0x80) && !bad);
    if (shift < 64 && (b & 0x40))
      v |= -((int64_t) 1 << shift);
    return v;
  }
  // Skip (or read, unrelocated) a pointer of DW_EH_PE encoding ENC.
  uint64_t encoded (uint8_t enc)
  {
    if (enc == 0xff)   // DW_EH_PE_omit
      return 0;
    switch (enc & 0x0f)
      {
      case 0x00: return fixed (8);
      case 0x01: return uleb ();
      case 0x02: return fixed (2);
      case 0x03: return fixed (4);
      case 0x04: return fixed (8);
      case 0x09: return (uint64_t) sleb ();
      case 0x0a: return (uint64_t) (int16_t) fixed (2);
      case 0x0b: return (uint64_t) (int32_t) fixed (4);
      case 0x0c: return fixed (8);
      default: bad = true; return 0;
      }
  }
};

enum RegHow : uint8_t { kSame, kAtCfa, kUndefined, kUnsupported };

struct RegRule
{
  RegHow how;
  int64_t offset;
};

struct State
{
  unsigned cfa_reg;
  int64_t cfa_offset;
  bool cfa_unsupported;
  RegRule bp, ra;
};

struct Cie
{
  uint64_t code_align;
  int64_t data_align;
  unsigned ra_reg;
  uint8_t fde_encoding;
  bool has_z;
  bool signal_frame;
  const uint8_t *insns, *insns_end;
};

bool
parse_cie (const uint8_t *cie, Cie *out)
{
  uint32_t len = *(const uint32_t *) cie;
  if (len == 0 || len == 0xffffffff)
    return false;
  Reader r{ cie + 4, cie + 4 + len };
  if (r.fixed (4) != 0)   // CIE id in .eh_frame is 0.
    return false;
  uint8_t version = r.u8 ();
  const char *aug = (const char *) r.p;
  while (r.u8 ())
    ;
  if (r.bad || (aug[0] && aug[0] != 'z'))
    return false;
  out->code_align = r.uleb ();
  out->data_align = r.sleb ();
  out->ra_reg = version == 1 ? r.u8 () : (unsigned) r.uleb ();
  out->fde_encoding = 0;
  out->has_z = aug[0] == 'z';
  out->signal_frame = false;
  if (out->has_z)
    {
      uint64_t aug_len = r.uleb ();
      const uint8_t *aug_end = r.p + aug_len;
      for (const char *a = aug + 1; *a && !r.bad; a++)
        switch (*a)
          {
          case 'R': out->fde_encoding = r.u8 (); break;
          case 'P': r.encoded (r.u8 ()); break;
          case 'L': r.u8 (); break;
          case 'S': out->signal_frame = true; break;
          default: r.p = aug_end; break;   // Unknown: skip the rest.
          }
      r.p = aug_end;
    }
  out->insns = r.p;
  out->insns_end = cie + 4 + len;
  return !r.bad;
}

void
set_reg (State &s, unsigned reg, RegHow how, int64_t off)
{
  if (reg == kRegBp)
    s.bp = { how, off };
  else if (reg == kRegRa)
    s.ra = { how, off };
}

// Run CFA instructions until the location passes TARGET.  INITIAL is the
// state after the CIE's instructions, for DW_CFA_restore.
bool
execute (const uint8_t *p, const uint8_t *end, const Cie &cie,
         uintptr_t loc, uintptr_t target, State &s, const State &initial)
{
  Reader r{ p, end };
  State stack[8];
  int depth = 0;
  while (r.p < r.end && !r.bad)
    {
      uint8_t op = r.u8 ();
      uint8_t low = op & 0x3f;
      switch (op >> 6)
        {
        case 1:   // DW_CFA_advance_loc
          loc += low * cie.code_align;
          if (loc > target)
            return true;
          continue;
        case 2:   // DW_CFA_offset
          set_reg (s, low, kAtCfa, (int64_t) r.uleb () * cie.data_align);
          continue;
        case 3:   // DW_CFA_restore
          if (low == kRegBp)
            s.bp = initial.bp;
          else if (low == kRegRa)
            s.ra = initial.ra;
          continue;
        }
      uint64_t reg, delta;
      switch (op)
        {
        case 0x00:   // nop
          break;
        case 0x01:   // set_loc
          loc = r.encoded (cie.fde_encoding);
          if (loc > target)
            return true;
          break;
        case 0x02: case 0x03: case 0x04:   // advance_loc1/2/4
          delta = r.fixed (op == 0x02 ? 1 : op == 0x03 ? 2 : 4);
          loc += delta * cie.code_align;
          if (loc > target)
            return true;
          break;
        case 0x05:   // offset_extended
          reg = r.uleb ();
          set_reg (s, reg, kAtCfa, (int64_t) r.uleb () * cie.data_align);
          break;
        case 0x06:   // restore_extended
          reg = r.uleb ();
          if (reg == kRegBp)
            s.bp = initial.bp;
          else if (reg == kRegRa)
            s.ra = initial.ra;
          break;
        case 0x07:   // undefined
          set_reg (s, r.uleb (), kUndefined, 0);
          break;
        case 0x08:   // same_value
          set_reg (s, r.uleb (), kSame, 0);
          break;
        case 0x09:   // register
          reg = r.uleb ();
          r.uleb ();
          set_reg (s, reg, kUnsupported, 0);
          break;
        case 0x0a:   // remember_state
          if (depth == 8)
            return false;
          stack[depth++] = s;
          break;
        case 0x0b:   // restore_state
          if (depth == 0)
            return false;
          s = stack[--depth];
          break;
        case 0x0c:   // def_cfa
          s.cfa_reg = (unsigned) r.uleb ();
          s.cfa_offset = (int64_t) r.uleb ();
          s.cfa_unsupported = false;
          break;
        case 0x0d:   // def_cfa_register
          s.cfa_reg = (unsigned) r.uleb ();
          s.cfa_unsupported = false;
          break;
        case 0x0e:   // def_cfa_offset
          s.cfa_offset = (int64_t) r.uleb ();
          break;
        case 0x0f:   // def_cfa_expression
          r.p += r.uleb ();
          s.cfa_unsupported = true;
          break;
        case 0x10:   // expression
          reg = r.uleb ();
          r.p += r.uleb ();
          set_reg (s, reg, kUnsupported, 0);
          break;
        case 0x11:   // offset_extended_sf
          reg = r.uleb ();
          set_reg (s, reg, kAtCfa, r.sleb () * cie.data_align);
          break;
        case 0x12:   // def_cfa_sf
          s.cfa_reg = (unsigned) r.uleb ();
          s.cfa_offset = r.sleb () * cie.data_align;
          s.cfa_unsupported = false;
          break;
        case 0x13:   // def_cfa_offset_sf
          s.cfa_offset = r.sleb () * cie.data_align;
          break;
        case 0x14:   // val_offset
        case 0x15:   // val_offset_sf
          reg = r.uleb ();
          if (op == 0x14)
            r.uleb ();
          else
            r.sleb ();
          set_reg (s, reg, kUnsupported, 0);
          break;
        case 0x16:   // val_expression
          reg = r.uleb ();
          r.p += r.uleb ();
          set_reg (s, reg, kUnsupported, 0);
          break;
        case 0x2e:   // GNU_args_size
          r.uleb ();
          break;
        case 0x2f:   // GNU_negative_offset_extended
          reg = r.uleb ();
          set_reg (s, reg, kAtCfa, -(int64_t) r.uleb () * cie.data_align);
          break;
        default:
          return false;
        }
    }
  return !r.bad;
}

} // namespace

FrameRule
compute_frame_rule (uintptr_t pc)
{
  FrameRule unknown = { FrameRule::kUnknown, false, false, 0, 0, 0 };
  dwarf_eh_bases bases;
  const uint8_t *fde = (const uint8_t *) _Unwind_Find_FDE ((void *) pc, &bases);
  if (!fde)
    return unknown;
  uint32_t len = *(const uint32_t *) fde;
  if (len == 0 || len == 0xffffffff)
    return unknown;
  const uint8_t *fde_end = fde + 4 + len;
  int32_t cie_delta = *(const int32_t *) (fde + 4);
  const uint8_t *cie_ptr = fde + 4 - cie_delta;
  Cie cie;
  if (!parse_cie (cie_ptr, &cie) || cie.signal_frame || cie.ra_reg != kRegRa)
    return unknown;
  Reader r{ fde + 8, fde_end };
  r.encoded (cie.fde_encoding);            // pc_begin: bases.func has it.
  r.encoded (cie.fde_encoding & 0x0f);     // pc_range.
  if (cie.has_z)
    r.p += r.uleb ();
  if (r.bad)
    return unknown;

  State s = { kRegSp, 8, false, { kSame, 0 }, { kAtCfa, -8 } };
  uintptr_t func = (uintptr_t) bases.func;
  if (!execute (cie.insns, cie.insns_end, cie, 0, ~(uintptr_t) 0, s, s))
    return unknown;
  State initial = s;
  if (!execute (r.p, fde_end, cie, func, pc, s, initial))
    return unknown;

  if (s.ra.how == kUndefined)
    return { FrameRule::kEnd, false, false, 0, 0, 0 };
  if (s.cfa_unsupported || (s.cfa_reg != kRegSp && s.cfa_reg != kRegBp)
      || s.ra.how != kAtCfa || s.bp.how == kUnsupported
      || s.bp.how == kUndefined || s.cfa_offset < 0
      || s.cfa_offset >= (1 << 23))
    return unknown;
  FrameRule rule;
  rule.kind = FrameRule::kStep;
  rule.cfa_on_bp = s.cfa_reg == kRegBp;
  rule.cfa_offset = (int32_t) s.cfa_offset;
  rule.ra_offset = (int32_t) s.ra.offset;
  rule.bp_saved = s.bp.how == kAtCfa;
  rule.bp_offset = rule.bp_saved ? (int32_t) s.bp.offset : 0;
  return rule;
}

} // namespace memprof
