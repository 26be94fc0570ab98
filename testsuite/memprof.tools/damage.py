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
  idx-group-count:NAME record count of function NAME's group made 127, so
                       reading that group fails (other groups stay good)
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
