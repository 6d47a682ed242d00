#!/usr/bin/env python3
"""The API reference (docs/api.md): runs Doxygen over include/pacxx (docs/api/Doxyfile)
into BUILD_DIR/docs/api/html and checks every public header, that is every header under
include/pacxx except those docs/api/excluded.txt names with a reason (`detail` and
`agent/`, which are not public API). It fails if a checked header

- has a public entity (class, function, variable, type alias, macro, friend) without a
  comment of its own: any Doxygen warning fails, and the XML output is read as well,
  because Doxygen counts a comment inside a function's body as documentation and would
  not warn about a function whose only comment is in its body;
- does not open with a comment block that says what the header is for.

usage: api_reference.py DOXYGEN SOURCE_DIR BUILD_DIR
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

# Members a user may name; enum values are documented with their enum.
MEMBER_KINDS = {'function', 'variable', 'typedef', 'enum', 'define', 'friend'}
COMPOUND_KINDS = {'class', 'struct', 'union'}


def read_list(path):
    """Lines of a list file without comments: (entry, reason after '#')."""
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            entry, _, reason = line.partition('#')
            entries.append((entry.strip(), reason.strip()))
    return entries


def doxyfile_value(config, key):
    m = re.search(r'^%s\s*=\s*(.*)$' % key, config, re.M)
    return m.group(1).split() if m else []


def described(element):
    """Whether a compounddef or memberdef has a brief or detailed description."""
    for tag in ('briefdescription', 'detaileddescription'):
        d = element.find(tag)
        if d is not None and ''.join(d.itertext()).strip():
            return True
    return False


def undescribed(xml_dir):
    """(header, line, what) for each class and member in the XML without a description."""
    found, seen = [], set()
    index = ET.parse(os.path.join(xml_dir, 'index.xml')).getroot()
    for compound in index.findall('compound'):
        tree = ET.parse(os.path.join(xml_dir, compound.get('refid') + '.xml')).getroot()
        for cdef in tree.findall('compounddef'):
            kind = cdef.get('kind')
            if cdef.get('prot') == 'private':
                continue  # a class's private helper (a range-v3 cursor): not public API
            loc = cdef.find('location')
            if kind in COMPOUND_KINDS and loc is not None and not described(cdef):
                key = cdef.get('id')
                if key not in seen:
                    seen.add(key)
                    found.append((loc.get('file'), loc.get('line'),
                                  '%s %s has no documentation' %
                                  (kind, cdef.findtext('compoundname'))))
            for mdef in cdef.iter('memberdef'):
                if mdef.get('kind') not in MEMBER_KINDS or mdef.get('prot') == 'private':
                    continue
                if re.search(r'=\s*(default|delete)$', mdef.findtext('argsstring') or ''):
                    continue  # a defaulted or deleted special member says what it does
                key = mdef.get('id')
                if key in seen:
                    continue
                seen.add(key)
                mloc = mdef.find('location')
                if mloc is None or described(mdef):
                    continue
                name = mdef.findtext('qualifiedname') or mdef.findtext('name')
                body = ' (a comment inside its body does not count)' \
                    if mdef.get('kind') == 'function' else ''
                found.append((mloc.get('file'), mloc.get('line'),
                              '%s %s%s has no documentation%s' % (
                                  mdef.get('kind'), name, mdef.findtext('argsstring') or '',
                                  body)))
    return found


def main(doxygen, source_dir, build_dir):
    source_dir = os.path.abspath(source_dir)
    out = os.path.join(build_dir, 'docs', 'api')
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(source_dir, 'docs', 'api', 'Doxyfile')) as f:
        config = f.read()
    include = os.path.join(source_dir, 'include')
    excluded = read_list(os.path.join(source_dir, 'docs', 'api', 'excluded.txt'))
    failures = ['docs/api/excluded.txt: %s: no reason given' % p for p, r in excluded if not r]
    patterns = [p for p, _ in excluded]
    if sorted(doxyfile_value(config, 'EXCLUDE_PATTERNS')) != sorted(patterns):
        failures.append('docs/api/Doxyfile: EXCLUDE_PATTERNS (%s) differs from '
                        'docs/api/excluded.txt (%s)' % (
                            ' '.join(doxyfile_value(config, 'EXCLUDE_PATTERNS')),
                            ' '.join(patterns)))
    headers = sorted(os.path.relpath(h, include)
                     for h in glob.glob(os.path.join(include, 'pacxx', '**', '*.hpp'),
                                        recursive=True))
    checked = [h for h in headers
               if not any(fnmatch.fnmatch('/' + h, p) for p in patterns)]

    # Each checked header opens with a comment block (the filter makes it the file's page).
    for h in checked:
        with open(os.path.join(include, h), encoding='utf-8') as f:
            first = next((l for l in f if l.strip()), '')
        if not first.lstrip().startswith('//'):
            failures.append('include/%s:1: the header does not open with a comment that says '
                            'what it is for' % h)

    config += '\nOUTPUT_DIRECTORY = %s\nGENERATE_XML = YES\n' % out
    r = subprocess.run([doxygen, '-'], input=config, cwd=source_dir, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        print('api_reference: doxygen failed (%d)' % r.returncode)
        return 1
    problems = []
    for line in r.stderr.splitlines():
        m = re.match(r'(.*?):(\d+): (.*)', line)
        if m:
            problems.append((os.path.relpath(os.path.abspath(m.group(1)), include),
                             m.group(2), m.group(3)))
        elif line.strip():
            problems.append(('', '', line.strip()))
    problems += undescribed(os.path.join(out, 'xml'))

    for header, line, text in problems:
        if header and header not in checked:
            continue  # an excluded header's own entities (none are extracted) or a stray path
        else:
            failures.append('include/%s:%s: %s' % (header, line, text))
    print('api_reference: %s/html/index.html' % out)
    if failures:
        print('\n'.join(sorted(set(failures))))
        print('api_reference: FAILED: %d problems in the public headers' % len(set(failures)))
        return 1
    print('api_reference: %d of %d headers under include/pacxx checked (%d excluded by '
          'docs/api/excluded.txt): every public entity is documented'
          % (len(checked), len(headers), len(headers) - len(checked)))
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
