#!/usr/bin/env python3
"""Checks that the README's C program is an example's text.

usage: check-readme-c.py README.md EXAMPLE.c

The README's first ```c block must be a run of consecutive lines of
EXAMPLE.c, character for character, and at least 20 of them: the program
a newcomer reads first is one that the examples suite builds (with
-Werror in CI) and runs, so it cannot drift from the API.
"""
import sys


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding='utf-8') as f:
        readme = f.read()
    with open(argv[1], encoding='utf-8') as f:
        example = f.read().split('\n')
    start = readme.find('```c\n')
    if start < 0:
        print('FAIL %s has no ```c block' % argv[0])
        return 1
    start += len('```c\n')
    end = readme.find('```', start)
    block = readme[start:end].rstrip('\n').split('\n')
    if len(block) < 20:
        print('FAIL the ```c block of %s has %d lines; the program is '
              'at least 20' % (argv[0], len(block)))
        return 1
    for i in range(len(example) - len(block) + 1):
        if example[i:i + len(block)] == block:
            print('ok: the ```c block of %s is lines %d to %d of %s'
                  % (argv[0], i + 1, i + len(block), argv[1]))
            return 0
    # Say where it parts from the example, to make the fix easy.
    first = block[0]
    for i, line in enumerate(example):
        if line == first:
            for j, b in enumerate(block):
                if i + j >= len(example) or example[i + j] != b:
                    print('FAIL README line %r differs from %s line %d %r'
                          % (b, argv[1], i + j + 1,
                             example[i + j] if i + j < len(example) else ''))
                    return 1
    print('FAIL the ```c block of %s is not in %s (its first line %r is '
          'not there)' % (argv[0], argv[1], first))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
