"""POSIX ACLs through their extended attributes (no setfacl needed).

  acl.py set-default DIR   gives DIR a default ACL: owner rwx, user 65534
                           rwx, group r-x, mask rwx, other r-x
  acl.py show FILE         prints FILE's access ACL, one entry a line
  acl.py drop FILE         removes FILE's access ACL
"""
import errno
import os
import struct
import sys

ACCESS, DEFAULT = "system.posix_acl_access", "system.posix_acl_default"
TAGS = {1: "owner", 2: "user", 4: "group", 8: "named-group", 0x10: "mask", 0x20: "other"}
ANY = 0xFFFFFFFF


def pack(entries):
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)


def rwx(perm):
    return "".join(c if perm & bit else "-" for c, bit in (("r", 4), ("w", 2), ("x", 1)))


def main(command, path):
    if command == "set-default":
        os.setxattr(path, DEFAULT, pack([(1, 7, ANY), (2, 7, 65534), (4, 5, ANY),
                                         (0x10, 7, ANY), (0x20, 5, ANY)]))
    elif command == "drop":
        os.removexattr(path, ACCESS)
    elif command == "show":
        try:
            value = os.getxattr(path, ACCESS)
        except OSError as e:
            if e.errno != errno.ENODATA:
                raise
            print("no ACL")
            return
        for offset in range(4, len(value), 8):
            tag, perm, ident = struct.unpack_from("<HHI", value, offset)
            name = TAGS.get(tag, hex(tag))
            print(name, ident, rwx(perm)) if ident != ANY else print(name, rwx(perm))
    else:
        sys.exit("usage: acl.py set-default DIR | show FILE | drop FILE")


if __name__ == "__main__":
    main(*sys.argv[1:3])
