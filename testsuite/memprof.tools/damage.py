#!/usr/bin/env python3
"""Make damaged copies of real profiles for bad-input.exp.

Usage: damage.py KIND IN OUT

KIND is one of:
  truncate-half        keep the first half of the file
  raw-total-size       header total_size larger than the file
  raw-mib-offset       MIB section offset far past the end
  raw-mib-count        MIB count 2^60 (a huge allocation if trusted)
  raw-stack-frames     first stack's frame count 2^61
  raw-record-size      MIB record size 3 (not a multiple of 8)
  raw-bad-utf8         executable path with an invalid UTF-8 byte
  raw-missing-stack    first MIB's stack id changed to one not present
  idx-section-offset   first section's offset far past the end
  idx-file-cycle       file path tree node 1's parent made node 2 (cycle)
  idx-bad-utf8         the string "main" made invalid UTF-8
  idx-bucket-count     function hash table bucket count 3
  idx-string-id        first frame's function string id past the table
  raw-hist-default     a default-mode profile whose header announces a
                       histogram section (at its MIB section)
  raw-hist-slots       first histogram's slot count 2^60 (histogram mode;
                       version 5's uleb or an earlier version's u64)
  idx-group-count:NAME record count of function NAME's group made 127, so
                       reading that group fails (other groups stay good)
  idx-layout-kind      the first type layout's first field's kind made 9
                       (TYPE_LAYOUTS, section 11)

Not damage but the future: files as a later writer might make them,
which this version's readers must read as if the additions were absent.
  raw-future           MIB records one field wider, an unknown metadata tag
  raw-v2               a version 1 profile rewritten as version 2 (module
                       generations, all 0: every module loaded at the dump)

  raw-no-live          as written before the live-heap additions: MIB
                       records without tags 23..28, no PEAK_* metadata
                       (10..12), the same version (a version 5 profile
                       is rewritten as version 4 first)
  raw-v4               a version 5 profile (ulebs) rewritten as version 4
                       (u64s), as the runtime wrote it before

Damage to version 5's sections (a profile the runtime wrote):
  raw5-stack-shared    the first stack shares a frame with no stack
  raw5-frame-count     the first stack's frame count 2^61
  raw5-shared-bomb     a stack section of one 4,000-frame stack and 2,000
                       entries of a few bytes each sharing all of it
  idx-future           an unknown section, an unknown summary tag, and an
                       unknown schema tag with a value in every record
  idx-no-index         the function hash table relabelled as an unknown
                       section, as from a writer that writes no index
  idx-no-destructors   the TYPE_DESTRUCTORS section (13) relabelled as an
                       unknown section, as from a writer before it
"""

import struct
import sys


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def put_u64(b, off, v):
    struct.pack_into("<Q", b, off, v)


def uleb(b, off):
    v = shift = 0
    while True:
        c = b[off]
        off += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, off


def section(b, kind):
    table, count = u64(b, 32), u64(b, 40)
    for i in range(count):
        k, _, off, size = struct.unpack_from("<IIQQ", b, table + 24 * i)
        if k == kind:
            return off, size
    raise SystemExit("damage.py: no section %d" % kind)


def put_uleb(out, v):
    while True:
        c = v & 0x7f
        v >>= 7
        out.append(c | 0x80 if v else c)
        if not v:
            return


def pad8(b):
    while len(b) % 8:
        b.append(0)


def raw5_read(b):
    """The MIB values per record, the stacks as (id, generation, pcs) and
    the histograms as (id, slots) of a version 5 profile."""
    assert u64(b, 8) == 5, "a version 5 profile is needed"
    mib = u64(b, 40)
    n, values = u64(b, mib), u64(b, mib + 8)
    p = mib + 16
    mibs = []
    for _ in range(n):
        rec = []
        for _ in range(values):
            v, p = uleb(b, p)
            rec.append(v)
        mibs.append(rec)
    stk = u64(b, 48)
    p = stk + 8
    stacks = []
    before = []
    for _ in range(u64(b, stk)):
        sid, p = uleb(b, p)
        frames, p = uleb(b, p)
        gen, p = uleb(b, p)
        shared, p = uleb(b, p)
        pcs, prev = [], 0
        for _ in range(frames - shared):
            w, p = uleb(b, p)
            z = w >> 2
            d = (z >> 1) ^ -(z & 1)
            addr = (prev + d) & ((1 << 62) - 1)
            pcs.append(addr | ((w & 3) << 62))
            prev = addr
        pcs += before[len(before) - shared:] if shared else []
        stacks.append((sid, gen, pcs))
        before = pcs
    hists = []
    hist = u64(b, 56)
    if hist:
        p = hist + 8
        for _ in range(u64(b, hist)):
            sid, p = uleb(b, p)
            k, p = uleb(b, p)
            slots = []
            for _ in range(k):
                v, p = uleb(b, p)
                slots.append(v)
            hists.append((sid, slots))
    return mibs, stacks, hists


def raw_to_v4(b):
    """Rewrite a version 5 profile's MIB, stack and histogram sections in
    version 4's u64s, appended, the header pointing at them."""
    mibs, stacks, hists = raw5_read(b)
    pad8(b)
    values = len(mibs[0]) if mibs else 30
    put_u64(b, 40, len(b))
    b += struct.pack("<QQ", len(mibs), 8 * values)
    for rec in mibs:
        b += struct.pack("<%dQ" % values, *rec)
    put_u64(b, 48, len(b))
    b += struct.pack("<Q", len(stacks))
    for sid, gen, pcs in stacks:
        b += struct.pack("<QQQ", sid, len(pcs), gen)
        b += struct.pack("<%dQ" % len(pcs), *pcs)
    if u64(b, 56):
        put_u64(b, 56, len(b))
        b += struct.pack("<Q", len(hists))
        for sid, slots in hists:
            b += struct.pack("<QQ", sid, len(slots))
            b += struct.pack("<%dQ" % len(slots), *slots)
    put_u64(b, 8, 4)
    put_u64(b, 16, len(b))


def raw5_first_stack(b, frames=None, shared=None):
    """Rewrite the first stack entry of a version 5 profile with FRAMES
    or SHARED changed, in a copy of the section appended to B."""
    stk = u64(b, 48)
    p = stk + 8
    fields = []
    for _ in range(4):
        v, p = uleb(b, p)
        fields.append(v)
    if frames is not None:
        fields[1] = frames
    if shared is not None:
        fields[3] = shared
    pad8(b)
    new = len(b)
    b += b[stk:stk + 8]
    for v in fields:
        put_uleb(b, v)
    b += b[p:u64(b, 16)]
    put_u64(b, 48, new)
    put_u64(b, 16, len(b))


def raw_future(b):
    # New metadata section: the old items plus tag 77.
    meta = u64(b, 24)
    count = u64(b, meta)
    p = meta + 8
    for _ in range(count):
        _, length = struct.unpack_from("<II", b, p)
        p += 8 + ((length + 7) & ~7)
    pad8(b)
    new_meta = len(b)
    b += struct.pack("<Q", count + 1) + b[meta + 8:p]
    b += struct.pack("<II", 77, 3) + b"new\0\0\0\0\0"
    # New MIB section: every record gets one more u64 at its end.
    mib = u64(b, 40)
    n, size = u64(b, mib), u64(b, mib + 8)
    new_mib = len(b)
    b += struct.pack("<QQ", n, size + 8)
    for i in range(n):
        start = mib + 16 + i * size
        b += b[start:start + size] + struct.pack("<Q", 123456)
    put_u64(b, 24, new_meta)
    put_u64(b, 40, new_mib)
    put_u64(b, 16, len(b))


def widen_entries(b, header_field, fixed, rest_size):
    """Copy the section at header word HEADER_FIELD to the end of B with
    a zero u64 inserted after each entry's first FIXED bytes; the rest of
    an entry is REST_SIZE(b, entry_offset) bytes."""
    sec = u64(b, header_field)
    n = u64(b, sec)
    new_sec = len(b)
    b += struct.pack("<Q", n)
    p = sec + 8
    for _ in range(n):
        rest = rest_size(b, p)
        b += b[p:p + fixed] + struct.pack("<Q", 0) + b[p + fixed:p + fixed + rest]
        p += fixed + rest
    put_u64(b, header_field, new_sec)


def raw_v2(b):
    assert u64(b, 8) == 1, "raw-v2 wants a version 1 profile"
    # Segments: unload_generation 0 after the fixed 72 bytes (then the
    # padded path); stacks: generation 0 after id and frame count.
    widen_entries(b, 32, 72,
                  lambda b, p: (struct.unpack_from("<I", b, p + 36)[0] + 7) & ~7)
    widen_entries(b, 48, 16, lambda b, p: 8 * u64(b, p + 8))
    put_u64(b, 8, 2)
    put_u64(b, 16, len(b))


def raw_no_live(b):
    if u64(b, 8) == 5:
        raw_to_v4(b)
    # Metadata without the peak items.
    meta = u64(b, 24)
    count = u64(b, meta)
    p = meta + 8
    kept = bytearray()
    for _ in range(count):
        tag, length = struct.unpack_from("<II", b, p)
        size = 8 + ((length + 7) & ~7)
        if tag not in (10, 11, 12):
            kept += b[p:p + size]
        else:
            count -= 1
        p += size
    pad8(b)
    new_meta = len(b)
    b += struct.pack("<Q", count) + kept
    # MIB records cut to stack id and the first 22 fields.
    mib = u64(b, 40)
    n, size = u64(b, mib), u64(b, mib + 8)
    new_mib = len(b)
    b += struct.pack("<QQ", n, 8 + 22 * 8)
    for i in range(n):
        start = mib + 16 + i * size
        b += b[start:start + 8 + 22 * 8]
    put_u64(b, 24, new_meta)
    put_u64(b, 40, new_mib)
    put_u64(b, 16, len(b))


def idx_future(b):
    sections = {}
    table, count = u64(b, 32), u64(b, 40)
    for i in range(count):
        k, _, off, size = struct.unpack_from("<IIQQ", b, table + 24 * i)
        sections[k] = (off, size)
    strings_off = sections[2][0]
    off, _ = sections[6]
    nschema, p = uleb(b, off)
    tags = []
    for _ in range(nschema):
        t, p = uleb(b, p)
        tags.append(t)
    schema = bytearray()
    put_uleb(schema, nschema + 1)
    for t in tags + [99]:
        put_uleb(schema, t)
    roff, rsize = sections[7]
    records = bytearray()
    group_map = {}
    p = roff
    while p < roff + rsize:
        group_map[p - roff] = len(records)
        name, p = uleb(b, p)
        n, p = uleb(b, p)
        put_uleb(records, name)
        put_uleb(records, n)
        for _ in range(n):
            for _ in range(1 + nschema):
                v, p = uleb(b, p)
                put_uleb(records, v)
            put_uleb(records, 7777)
    foff, fsize = sections[8]
    functions = bytearray(b[foff:foff + fsize])
    for i in range(u64(b, foff)):
        at = 8 + 16 * i + 8
        old = u64(functions, at)
        if old != (1 << 64) - 1:
            put_u64(functions, at, group_map[old])
    soff, ssize = sections[1]
    summary = bytearray()
    n, p = uleb(b, soff)
    put_uleb(summary, n + 1)
    summary += b[p:soff + ssize]
    put_uleb(summary, 99)
    put_uleb(summary, 5)
    new = {1: summary, 6: schema, 7: records, 8: functions,
           1000: bytearray(b"a section from the future")}
    for k, data in new.items():
        pad8(b)
        sections[k] = (len(b), len(data))
        b += data
    pad8(b)
    new_table = len(b)
    for k, (o, sz) in sorted(sections.items()):
        b += struct.pack("<IIQQ", k, 0, o, sz)
    put_u64(b, 32, new_table)
    put_u64(b, 40, len(sections))
    put_u64(b, 24, len(b))


def main():
    kind, src, dst = sys.argv[1:4]
    b = bytearray(open(src, "rb").read())
    if kind == "truncate-half":
        b = b[: len(b) // 2]
    elif kind == "raw-total-size":
        put_u64(b, 16, len(b) + 8)
    elif kind == "raw-mib-offset":
        put_u64(b, 40, 1 << 40)
    elif kind == "raw-mib-count":
        put_u64(b, u64(b, 40), 1 << 60)
    elif kind == "raw-stack-frames":
        put_u64(b, u64(b, 48) + 16, 1 << 61)
    elif kind == "raw-hist-default":
        put_u64(b, 56, u64(b, 40))
    elif kind == "raw-hist-slots" and u64(b, 8) >= 5:
        # The first entry's slot count, a uleb after its stack id.
        hist = u64(b, 56)
        _, p = uleb(b, hist + 8)
        _, rest = uleb(b, p)
        pad8(b)
        new = len(b)
        b += b[hist:p]
        put_uleb(b, 1 << 60)
        b += b[rest:u64(b, 16)]
        put_u64(b, 56, new)
        put_u64(b, 16, len(b))
    elif kind == "raw-hist-slots":
        put_u64(b, u64(b, 56) + 16, 1 << 60)
    elif kind == "raw-record-size":
        put_u64(b, u64(b, 40) + 8, 3)
    elif kind == "raw-bad-utf8":
        # Metadata: count, then the executable item (tag, length, bytes).
        meta = u64(b, 24)
        tag, length = struct.unpack_from("<II", b, meta + 8)
        assert tag == 1 and length > 0
        b[meta + 16] = 0xff
    elif kind == "raw-missing-stack":
        put_u64(b, u64(b, 40) + 16, 0x1234)
    elif kind == "idx-section-offset":
        put_u64(b, u64(b, 32) + 8, 1 << 40)
    elif kind == "idx-file-cycle":
        off, _ = section(b, 3)
        count, p = uleb(b, off)
        name, p = uleb(b, p)
        assert count >= 2 and b[p] == 0, "node 1 must be a root"
        b[p] = 2
    elif kind == "idx-bad-utf8":
        off, size = section(b, 2)
        i = b.find(b"\x04main", off, off + size)
        assert i >= 0
        b[i + 1] = 0xff
    elif kind == "idx-bucket-count":
        off, _ = section(b, 8)
        put_u64(b, off, 3)
    elif kind == "idx-string-id":
        off, _ = section(b, 4)
        # Replace the first frame's one-byte function id by a 5-byte
        # varint, keeping the length: use the following bytes' room is not
        # possible, so point it at the largest one-byte id instead.
        assert b[off] < 0x80
        b[off] = 0x7f
    elif kind == "raw-future":
        raw_future(b)
    elif kind == "raw-v2":
        raw_v2(b)
    elif kind == "raw-no-live":
        raw_no_live(b)
    elif kind == "raw-v4":
        raw_to_v4(b)
    elif kind == "raw5-stack-shared":
        raw5_first_stack(b, shared=1)
    elif kind == "raw5-frame-count":
        raw5_first_stack(b, frames=1 << 61)
    elif kind == "raw5-shared-bomb":
        pad8(b)
        new = len(b)
        b += struct.pack("<Q", 2001)
        for v in (1, 4000, 0, 0):
            put_uleb(b, v)
        for k in range(4000):
            put_uleb(b, 0x1000 << 2)
        for i in range(2000):
            for v in (2 + i, 4000, 0, 4000):
                put_uleb(b, v)
        put_u64(b, 48, new)
        put_u64(b, 16, len(b))
    elif kind == "idx-future":
        idx_future(b)
    elif kind in ("idx-no-index", "idx-no-destructors"):
        wanted = 8 if kind == "idx-no-index" else 13
        table, count = u64(b, 32), u64(b, 40)
        found = False
        for i in range(count):
            if struct.unpack_from("<I", b, table + 24 * i)[0] == wanted:
                struct.pack_into("<I", b, table + 24 * i, 200)
                found = True
        assert found, "no section %d" % wanted
    elif kind == "idx-layout-kind":
        p, _ = section(b, 11)
        _, p = uleb(b, p)                       # layouts
        for _ in range(2):                      # module, type name
            n, p = uleb(b, p)
            p += n
        _, p = uleb(b, p)                       # type size
        _, p = uleb(b, p)                       # fields
        n, p = uleb(b, p)                       # first field's name
        p += n
        assert b[p] < 0x80
        b[p] = 9
    elif kind.startswith("idx-group-count:"):
        want = kind.split(":", 1)[1].encode()
        soff, ssize = section(b, 2)
        off, _ = section(b, 6)
        nschema, _ = uleb(b, off)
        roff, rsize = section(b, 7)
        p = roff
        while p < roff + rsize:
            name_id, p = uleb(b, p)
            length, q = uleb(b, soff + name_id)
            name = bytes(b[q:q + length])
            count_at = p
            count, p = uleb(b, p)
            if name == want:
                assert b[count_at] < 0x80
                b[count_at] = 0x7f
                break
            for _ in range(count * (1 + nschema)):
                _, p = uleb(b, p)
        else:
            raise SystemExit("damage.py: no group for " + want.decode())
    else:
        raise SystemExit("damage.py: unknown kind " + kind)
    open(dst, "wb").write(b)


if __name__ == "__main__":
    main()
