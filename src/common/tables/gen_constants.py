#!/usr/bin/env python3
"""gen_constants.py - build pmix_constants.h and constants_table.c from tables.

The tables in this directory are the one place where PMIx attribute keys and
status codes are written down. This script reads them all and emits either

  header OUT TABLE...   the public header pmix_constants.h: an include guard
                        and one `#define NAME value` per entry, grouped by
                        family, with nothing else (it depends on no type, so
                        it can be included on its own), or
  table OUT TABLE...    constants_table.c: the const arrays behind the
                        run-time registries declared in attributes.h.

Table syntax
------------
A table is a text file of lines. Blank lines and lines starting with `#` are
comments. A line `@family Some title` starts a family: the entries after it
are grouped under that title in the header. Every other line is an entry,
made of whitespace-separated columns, the last of which runs to the end of
the line:

  Attribute tables (files named attr-*.tbl):

    NAME  KEY  TYPE  FLAGS  DESCRIPTION...

    NAME   the macro, e.g. PMIX_JOB_SIZE
    KEY    the key string without quotes, e.g. pmix.job.size
    TYPE   the PMIx datatype of the value, e.g. PMIX_UINT32; PMIX_UNDEF
           when the type depends on how the attribute is used
    FLAGS  `-` or a comma-separated list of: deprecated (a retired name),
           internal (a name PMIx implementations use among themselves,
           listed so programs that mention it still build), alias (the key
           is intentionally the same as an earlier entry's; lookups by key
           return the earlier entry)

  Status tables (files named status*.tbl):

    NAME  VALUE  FLAGS  TEXT...

    VALUE  a decimal integer, or the NAME of another status entry (the
           header then defines this one as that macro)
    FLAGS  as above; alias marks a value shared with an earlier entry on
           purpose (PMIx_Error_string returns the earlier one's TEXT). An
           entry whose VALUE is another NAME is an alias by construction.
    TEXT   what PMIx_Error_string returns for the value

Anything malformed (unknown column values, duplicate names, duplicate keys or
values not marked alias, an alias with nothing to alias) is reported with its
file and line and makes the script exit with status 1, so a broken table
breaks the build.
"""

import os
import re
import sys

# The datatype names a TYPE column may use (the PMIx v4 datatype macros).
DATATYPES = frozenset("""
    PMIX_UNDEF PMIX_BOOL PMIX_BYTE PMIX_STRING PMIX_SIZE PMIX_PID PMIX_INT
    PMIX_INT8 PMIX_INT16 PMIX_INT32 PMIX_INT64 PMIX_UINT PMIX_UINT8
    PMIX_UINT16 PMIX_UINT32 PMIX_UINT64 PMIX_FLOAT PMIX_DOUBLE PMIX_TIMEVAL
    PMIX_TIME PMIX_STATUS PMIX_VALUE PMIX_PROC PMIX_APP PMIX_INFO PMIX_PDATA
    PMIX_BYTE_OBJECT PMIX_KVAL PMIX_PERSIST PMIX_POINTER PMIX_SCOPE
    PMIX_DATA_RANGE PMIX_COMMAND PMIX_INFO_DIRECTIVES PMIX_DATA_TYPE
    PMIX_PROC_STATE PMIX_PROC_INFO PMIX_DATA_ARRAY PMIX_PROC_RANK PMIX_QUERY
    PMIX_COMPRESSED_STRING PMIX_ALLOC_DIRECTIVE PMIX_IOF_CHANNEL PMIX_ENVAR
    PMIX_COORD PMIX_REGATTR PMIX_REGEX PMIX_JOB_STATE PMIX_LINK_STATE
    PMIX_PROC_CPUSET PMIX_GEOMETRY PMIX_DEVICE_DIST PMIX_ENDPOINT PMIX_TOPO
    PMIX_DEVTYPE PMIX_LOCTYPE PMIX_COMPRESSED_BYTE_OBJECT PMIX_PROC_NSPACE
    PMIX_PROC_STATS PMIX_DISK_STATS PMIX_NET_STATS PMIX_NODE_STATS
    PMIX_DATA_BUFFER PMIX_STOR_MEDIUM PMIX_STOR_ACCESS PMIX_STOR_PERSIST
    PMIX_STOR_ACCESS_TYPE
""".split())

FLAGS = frozenset(("deprecated", "internal", "alias"))
NAME_RE = re.compile(r"^PMIX_[A-Z0-9_]+$")
# Keys are printable ASCII without spaces, quotes or backslashes (they are
# emitted verbatim in C string literals, and in comments, so "*/" is refused
# too) and fit PMIX_MAX_KEYLEN.
KEY_RE = re.compile(r'^[!#-\[\]-~]{1,511}$')
INT_RE = re.compile(r"^-?[0-9]+$")


class TableError(Exception):
    """A problem in a table, already formatted with its location."""


class Entry:
    """One table line, attribute or status."""

    def __init__(self, where, family, name, flags, text):
        self.where = where
        self.family = family
        self.name = name
        self.flags = flags
        self.text = text
        self.key = None       # attributes
        self.type = None
        self.value = None     # status: the text written in the header
        self.number = None    # status: the resolved integer

    @property
    def deprecated(self):
        return "deprecated" in self.flags

    @property
    def alias(self):
        return "alias" in self.flags


def fail(where, message):
    raise TableError("%s: %s" % (where, message))


def parse_flags(where, text):
    if text == "-":
        return frozenset()
    flags = frozenset(text.split(","))
    unknown = flags - FLAGS
    if unknown:
        fail(where, "unknown flag(s) %s (expected '-' or some of %s)"
             % (", ".join(sorted(unknown)), ", ".join(sorted(FLAGS))))
    return flags


def table_kind(path):
    base = os.path.basename(path)
    if base.startswith("attr-") and base.endswith(".tbl"):
        return "attr"
    if base.startswith("status") and base.endswith(".tbl"):
        return "status"
    raise TableError("%s: table files must be named attr-*.tbl or status*.tbl" % path)


def parse_table(path):
    """Return (kind, [Entry]) for one table file."""
    kind = table_kind(path)
    ncols = 5 if kind == "attr" else 4
    entries = []
    family = None
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            where = "%s:%d" % (path, lineno)
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("@family"):
                family = line[len("@family"):].strip()
                if not family or "*/" in family:
                    fail(where, "@family needs a title, without '*/'")
                continue
            if family is None:
                fail(where, "entry before the first @family line")
            cols = line.split(None, ncols - 1)
            if len(cols) < ncols:
                fail(where, "expected %d columns, found %d" % (ncols, len(cols)))
            name = cols[0]
            if not NAME_RE.match(name):
                fail(where, "bad macro name '%s'" % name)
            text = cols[-1].strip()
            e = Entry(where, family, name, parse_flags(where, cols[-2]), text)
            if kind == "attr":
                e.key, e.type = cols[1], cols[2]
                if not KEY_RE.match(e.key) or "*/" in e.key:
                    fail(where, "bad key string '%s'" % e.key)
                if e.type not in DATATYPES:
                    fail(where, "unknown datatype '%s'" % e.type)
            else:
                e.value = cols[1]
                if not INT_RE.match(e.value) and not NAME_RE.match(e.value):
                    fail(where, "value '%s' is neither an integer nor a status name" % e.value)
            if '"' in text or "\\" in text or not text.isprintable() or not text.isascii():
                fail(where, "text must be printable ASCII without quotes or backslashes")
            entries.append(e)
    return kind, entries


def check_attributes(attrs):
    names = {}
    keys = {}
    for e in attrs:
        if e.name.lower() in names:
            fail(e.where, "duplicate name %s (first at %s)" % (e.name, names[e.name.lower()].where))
        names[e.name.lower()] = e
        first = keys.get(e.key.lower())
        if first is None:
            if e.alias:
                fail(e.where, "%s is marked alias but no earlier entry has key '%s'"
                     % (e.name, e.key))
            keys[e.key.lower()] = e
        elif not e.alias:
            fail(e.where, "duplicate key '%s' (also %s at %s); mark it alias if intended"
                 % (e.key, first.name, first.where))


def check_status(codes):
    names = {}
    for e in codes:
        if e.name in names:
            fail(e.where, "duplicate name %s (first at %s)" % (e.name, names[e.name].where))
        names[e.name] = e
    values = {}
    for e in codes:
        if INT_RE.match(e.value):
            e.number = int(e.value)
        else:
            target = names.get(e.value)
            if target is None or not INT_RE.match(target.value):
                fail(e.where, "%s refers to '%s', which is not a status with a numeric value"
                     % (e.name, e.value))
            e.number = int(target.value)
            e.flags = e.flags | {"alias"}
        if not -2**31 <= e.number < 2**31:
            fail(e.where, "value %d does not fit pmix_status_t" % e.number)
        first = values.get(e.number)
        if first is None:
            if e.alias:
                fail(e.where, "%s is marked alias but no earlier entry has value %d"
                     % (e.name, e.number))
            values[e.number] = e
        elif not e.alias:
            fail(e.where, "duplicate value %d (also %s at %s); mark it alias if intended"
                 % (e.number, first.name, first.where))


def load(paths):
    attrs, codes = [], []
    for path in paths:
        kind, entries = parse_table(path)
        (attrs if kind == "attr" else codes).extend(entries)
    check_status(codes)
    check_attributes(attrs)
    # Both kinds become macros in one header, so a name may not be reused
    # across them either.
    status_names = {e.name: e for e in codes}
    for e in attrs:
        if e.name in status_names:
            fail(e.where, "%s is also a status code (%s)" % (e.name, status_names[e.name].where))
    return attrs, codes


def families(entries):
    """Group entries by family, keeping first-seen order."""
    groups = {}
    for e in entries:
        groups.setdefault(e.family, []).append(e)
    return groups.items()


def define_lines(entries, value_of):
    width = max(len(e.name) for e in entries) + 1
    return ["#define %-*s %s" % (width, e.name, value_of(e)) for e in entries]


def emit_header(attrs, codes):
    out = [
        "/*",
        " * pmix_constants.h - PMIx status codes and attribute keys.",
        " *",
        " * Generated by src/common/tables/gen_constants.py from the tables beside",
        " * it; edit those, not this file. Included by pmix_common.h.",
        " */",
        "#ifndef PMIX_CONSTANTS_H",
        "#define PMIX_CONSTANTS_H",
        "",
    ]
    for title, group in families(codes):
        out += ["/* Status codes: %s */" % title]
        out += define_lines(group, lambda e: e.value)
        out += [""]
    for title, group in families(attrs):
        out += ["/* Attributes: %s */" % title]
        out += define_lines(group, lambda e: '"%s"' % e.key)
        out += [""]
    out += ["#endif /* PMIX_CONSTANTS_H */", ""]
    return "\n".join(out)


def c_bool(flag):
    return "true" if flag else "false"


def emit_table(attrs, codes):
    # Lookups ignore ASCII case, as OpenPMIx's do, so the arrays are sorted
    # by the lower-cased strings: the order attributes.c searches in.
    # Entries sharing a key or a value sit together with the owner (the one
    # not marked alias) first, so a search for the first match finds it.
    position = {id(e): i for i, e in enumerate(attrs + codes)}
    by_name = sorted(attrs, key=lambda e: e.name.lower().encode())
    index = {id(e): i for i, e in enumerate(by_name)}
    by_key = sorted(attrs, key=lambda e: (e.key.lower().encode(), e.alias, position[id(e)]))
    by_value = sorted(codes, key=lambda e: (e.number, e.alias, position[id(e)]))
    out = [
        "/*",
        " * constants_table.c - the attribute and status tables behind the",
        " * registries in attributes.c and error_string.c.",
        " *",
        " * Generated by src/common/tables/gen_constants.py; do not edit.",
        " */",
        "#include \"pmix_common.h\"",
        "#include \"attributes.h\"",
        "",
        "/* Every attribute, sorted by lower-cased name. */",
        "const attributes_entry_t constants_attributes[] = {",
    ]
    out += ['    {"%s", "%s", %s, "%s", %s},'
            % (e.name, e.key, e.type, e.text, c_bool(e.deprecated)) for e in by_name]
    out += [
        "};",
        "const size_t constants_attributes_count = %d;" % len(by_name),
        "",
        "/* Indexes into constants_attributes of every entry, sorted by lower-cased",
        " * key, owner first among entries sharing a key. */",
        "const unsigned short constants_key_index[] = {",
    ]
    out += ["    %d, /* %s */" % (index[id(e)], e.key) for e in by_key]
    out += [
        "};",
        "",
        "/* Every status code, sorted by value, owner first among entries",
        " * sharing a value. */",
        "const attributes_status_t constants_status[] = {",
    ]
    out += ['    {"%s", %d, "%s", %s},' % (e.name, e.number, e.text, c_bool(e.deprecated))
            for e in by_value]
    out += [
        "};",
        "const size_t constants_status_count = %d;" % len(by_value),
        "",
    ]
    return "\n".join(out)


def main(argv):
    if len(argv) < 4 or argv[1] not in ("header", "table"):
        sys.stderr.write("usage: %s header|table OUT TABLE...\n" % argv[0])
        return 2
    try:
        attrs, codes = load(argv[3:])
    except (TableError, OSError, UnicodeDecodeError) as err:
        sys.stderr.write("gen_constants.py: %s\n" % err)
        return 1
    if len(attrs) > 65535 or len(codes) > 65535:
        sys.stderr.write("gen_constants.py: too many entries for the index arrays\n")
        return 1
    text = emit_header(attrs, codes) if argv[1] == "header" else emit_table(attrs, codes)
    # Write then rename, so an interrupted run never leaves a half file that
    # ninja would consider up to date.
    tmp = argv[2] + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
